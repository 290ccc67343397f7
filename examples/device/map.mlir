// An element-wise function of any number of i32, the number known only at
// run time:
//
//   obs-run examples/device/map.mlir --entry=affine --target=cpu \
//       --input=numbers.txt
//   obs-run examples/device/map.mlir --entry=affine --emit=plan \
//       --input=numbers.txt
//
// --obs-expand-device makes it one launch over tiles of 8,192: every
// element read once and written once (8 bytes per element, the floor),
// the last tile's absent elements neither read nor written.

// out[i] = 3 * in[i] + 1.
func.func @affine(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_map ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32):
    %c3 = arith.constant 3 : i32
    %c1 = arith.constant 1 : i32
    %m = arith.muli %x, %c3 : i32
    %y = arith.addi %m, %c1 : i32
    obs.yield %y : i32
  }
  return
}
