// Sorts key-value pairs by key, stably: an argsort. Each number is paired
// with its position (an exclusive scan of ones), and the pairs are sorted
// by number; equal numbers keep their positions in increasing order.
//
//   obs-run examples/device/sort_key_value.mlir --entry=argsort \
//       --target=cpu --input=numbers.txt
//
// prints the numbers in ascending order, then where each was.

func.func @argsort(%in: memref<?xi32>, %keys: memref<?xi32>,
                   %positions: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %ones = memref.alloc(%n) : memref<?xi32>
  %places = memref.alloc(%n) : memref<?xi32>
  obs.device_map ins(%in : memref<?xi32>) outs(%ones : memref<?xi32>) {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    obs.yield %one : i32
  }
  obs.device_scan exclusive ins(%ones : memref<?xi32>)
      outs(%places : memref<?xi32>) identity [0 : i32] {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.device_sort ins(%in, %places : memref<?xi32>, memref<?xi32>)
      outs(%keys, %positions : memref<?xi32>, memref<?xi32>) {
  ^bb0(%k1: i32, %p1: i32, %k2: i32, %p2: i32):
    %less = arith.cmpi slt, %k1, %k2 : i32
    obs.yield %less : i1
  }
  memref.dealloc %ones : memref<?xi32>
  memref.dealloc %places : memref<?xi32>
  return
}
