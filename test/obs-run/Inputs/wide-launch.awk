# Writes a launch of a kernel of `n` arguments over memrefs of dynamic
# length (kernel-parameters.test): each passes a pointer and a length.
BEGIN {
  printf "obs.kernel private @wide("
  for (i = 0; i < n; i++)
    printf "%s%%a%d: !obs.arr<4 x i8> {obs.absent = 0 : i8}", (i ? ", " : ""), i
  printf ") -> !obs.arr<4 x i8> attributes {threads = 4} {\n"
  printf "  obs.return %%a%d : !obs.arr<4 x i8>\n}\n", n - 1
  printf "func.func @f("
  for (i = 0; i < n; i++) printf "%%m%d: memref<?xi8>, ", i
  printf "%%out: memref<?xi8>) {\n"
  print "  %c0 = arith.constant 0 : index"
  print "  %c4 = arith.constant 4 : index"
  print "  %n = memref.dim %m0, %c0 : memref<?xi8>"
  print "  %g = arith.ceildivui %n, %c4 : index"
  printf "  obs.launch @wide grid(%%g) ins("
  for (i = 0; i < n; i++) printf "%s%%m%d", (i ? ", " : ""), i
  printf " : "
  for (i = 0; i < n; i++) printf "%smemref<?xi8>", (i ? ", " : "")
  print ") outs(%out : memref<?xi8>)"
  print "  return"
  print "}"
}
