// The sum of any number of i32, the number known only at run time:
//
//   obs-run examples/device/reduce.mlir --entry=reduce --target=cpu \
//       --input=numbers.txt
//   obs-run examples/device/reduce.mlir --entry=reduce --emit=plan \
//       --input=numbers.txt
//
// --obs-expand-device folds each tile of 8,192 by a tree to its total,
// then the totals the same way, until one tile is left: every element is
// read once (4 bytes per element, and 8 more per tile of 8,192).

// sum[0] = in[0] + ... + in[n - 1] (0 for no numbers).
func.func @reduce(%in: memref<?xi32>, %sum: memref<1xi32>) {
  obs.device_reduce ins(%in : memref<?xi32>) outs(%sum : memref<1xi32>)
      identity [0 : i32] {
  ^bb0(%acc: i32, %x: i32):
    %s = arith.addi %acc, %x : i32
    obs.yield %s : i32
  }
  return
}

// The smallest number (the largest i32 for no numbers).
func.func @minimum(%in: memref<?xi32>, %min: memref<1xi32>) {
  obs.device_reduce ins(%in : memref<?xi32>) outs(%min : memref<1xi32>)
      identity [2147483647 : i32] {
  ^bb0(%acc: i32, %x: i32):
    %m = arith.minsi %acc, %x : i32
    obs.yield %m : i32
  }
  return
}
