# Prints a kernel whose body is n nested `obs.repeat 1` around one sync:
#   awk -v n=N -f nested-repeats.awk
# Each level adds a region and a `(`, `<` pair per block argument.
BEGIN {
  print "obs.kernel @deep(%x0: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {"
  for (i = 1; i <= n; i++) {
    printf "%%r%d = obs.repeat 1 %%x%d : !obs.arr<8 x i32> {\n^bb0(%%x%d: !obs.arr<8 x i32>):\n", i, i-1, i
  }
  printf "%%s = obs.sync %%x%d : !obs.arr<8 x i32>\nobs.yield %%s : !obs.arr<8 x i32>\n}\n", n
  for (i = n; i > 1; i--) printf "obs.yield %%r%d : !obs.arr<8 x i32>\n}\n", i
  print "obs.return %r1 : !obs.arr<8 x i32>\n}"
}
