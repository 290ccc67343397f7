// obs-fuzz seed 6, program 311, reduced: a kernel launched through two views
// of one buffer, its output reversed over its input. obs-elide-warp-syncs
// made both barriers warp barriers (right for shared memory alone), and the
// launch proof rejected the refined kernel.
obs.kernel @fuzz(%input: !obs.arr<399 x i32>) -> !obs.arr<399 x i32> {
  %v0 = obs.sync %input : !obs.arr<399 x i32>
  %v1 = obs.sync %v0 : !obs.arr<399 x i32>
  obs.return %v1 : !obs.arr<399 x i32>
}
obs.kernel @fuzz_copy(%input: !obs.arr<399 x i32>) -> !obs.arr<399 x i32> {
  obs.return %input : !obs.arr<399 x i32>
}
func.func @launch(%in: memref<399xi32>, %out: memref<399xi32>) {
  %c0 = arith.constant 0 : index
  %shift = arith.constant 0 : index
  %bytes = memref.alloc() : memref<1596xi8>
  %first = memref.view %bytes[%c0][] : memref<1596xi8> to memref<399xi32>
  %second = memref.view %bytes[%shift][] : memref<1596xi8> to memref<399xi32>
  obs.launch @fuzz_copy grid(1) ins(%in : memref<399xi32>) outs(%first : memref<399xi32>)
  obs.launch @fuzz grid(1) ins(%first : memref<399xi32>) outs(%second : memref<399xi32>)
      layouts [affine_map<(b, i) -> (((b * 5 + 0) mod 1) * 399 + i)>, affine_map<(b, i) -> (((b * 3 + 0) mod 1) * 399 + (398 - i))>]
  obs.launch @fuzz_copy grid(1) ins(%second : memref<399xi32>) outs(%out : memref<399xi32>)
  memref.dealloc %bytes : memref<1596xi8>
  return
}
