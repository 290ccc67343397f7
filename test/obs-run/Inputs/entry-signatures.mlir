// Entries obs-run cannot run, each for one reason, which it names at the
// argument (errors.test).
func.func @scalar_as_rank_0(%x: memref<?xf32>, %s: memref<f32>) {
  return
}
func.func @bfloat(%x: memref<?xbf16>) {
  return
}
func.func @two_dynamic_sizes(%x: memref<?x?xi32>) {
  return
}
func.func @strided(%x: memref<4xi32, strided<[2]>>) {
  return
}
func.func @index_argument(%x: memref<4xi32>, %n: index) {
  return
}
func.func @returns(%x: memref<4xi32>) -> f32 {
  %c = arith.constant 1.0 : f32
  return %c : f32
}

// An entry of no memrefs runs, and has nothing to write.
func.func @no_memrefs() {
  return
}
