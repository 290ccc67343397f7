// Sorts any number of f32, ascending:
//
//   obs-run examples/device/sort_f32.mlir --entry=sort --target=cpu \
//       --input=numbers.txt
//
// The radix sort orders a float's bits as IEEE 754's total order does (a
// negative number's bits flipped, a positive one's sign bit set), with
// -0.0 taken as 0.0, which `olt` says it is: the zeros keep their order.

func.func @sort(%in: memref<?xf32>, %out: memref<?xf32>) {
  obs.device_sort ins(%in : memref<?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %less = arith.cmpf olt, %x, %y : f32
    obs.yield %less : i1
  }
  return
}
