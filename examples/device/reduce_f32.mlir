// The sum of any number of f32, the number known only at run time:
//
//   obs-run examples/device/reduce_f32.mlir --entry=reduce --target=cpu \
//       --input=numbers.txt
//
// The plan is examples/device/reduce.mlir's. Its trees reassociate the
// sum; whole numbers whose partial sums stay below 2^24 in magnitude add
// exactly in any order.

func.func @reduce(%in: memref<?xf32>, %sum: memref<1xf32>) {
  obs.device_reduce ins(%in : memref<?xf32>) outs(%sum : memref<1xf32>)
      identity [-0.0 : f32] {
  ^bb0(%acc: f32, %x: f32):
    %s = arith.addf %acc, %x : f32
    obs.yield %s : f32
  }
  return
}
