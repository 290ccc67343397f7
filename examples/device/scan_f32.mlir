// Prefix sums of any number of f32, the number known only at run time:
//
//   obs-run examples/device/scan_f32.mlir --entry=scan --target=cpu \
//       --input=numbers.txt
//
// The plan is examples/device/scan.mlir's, with tiles of 8,192 f32. Tiles
// and Sklansky's network reassociate the sum, so a float sum may round
// differently from a left-to-right one (the ref target runs the same plan,
// and rounds as cpu and cuda do). Whole numbers whose partial sums stay
// below 2^24 in magnitude add exactly in any order. The identity is -0.0,
// not 0.0: 0.0 + -0.0 is 0.0, so 0.0 would turn a -0.0 that is alone in
// its sum into 0.0, and the law check refuses it.

func.func @scan(%in: memref<?xf32>, %out: memref<?xf32>) {
  obs.device_scan inclusive ins(%in : memref<?xf32>) outs(%out : memref<?xf32>)
      identity [-0.0 : f32] {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    obs.yield %s : f32
  }
  return
}
