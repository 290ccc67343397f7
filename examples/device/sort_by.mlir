// Sorts by orders a radix sort cannot follow, for any number of elements
// known only at run time. One compiled plan serves every length:
//
//   obs-run examples/device/sort_by.mlir --entry=sort_by_magnitude \
//       --target=cpu --input=numbers.txt
//   obs-run examples/device/sort_by.mlir --entry=sort_by_magnitude \
//       --emit=plan --input=numbers.txt
//
// A `less` that is not one comparison of the first scalars gets a merge
// sort from --obs-expand-device: every tile sorted stably by merges of
// runs that double in shared memory, then merge passes that double the
// sorted runs across tiles. A merge block reads the previous pass's array whole (an
// `obs.global` argument), finds its share of the two runs by a binary
// search along the merge path, and merges it in shared memory.

// out = in by magnitude: |x| before |y|, stably, so -5 and 5 keep the
// order they came in.
func.func @sort_by_magnitude(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %zero = arith.constant 0 : i32
    %minusX = arith.subi %zero, %x : i32
    %minusY = arith.subi %zero, %y : i32
    %absX = arith.maxsi %x, %minusX : i32
    %absY = arith.maxsi %y, %minusY : i32
    %less = arith.cmpi slt, %absX, %absY : i32
    obs.yield %less : i1
  }
  return
}

// Each number with its position, sorted by two keys: the number
// descending, then the position descending (the latest first among equal
// numbers).
func.func @sort_by_two_keys(%in: memref<?xi32>, %keys: memref<?xi32>,
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
    %greater = arith.cmpi sgt, %k1, %k2 : i32
    %equal = arith.cmpi eq, %k1, %k2 : i32
    %later = arith.cmpi sgt, %p1, %p2 : i32
    %tie = arith.andi %equal, %later : i1
    %first = arith.ori %greater, %tie : i1
    obs.yield %first : i1
  }
  memref.dealloc %ones : memref<?xi32>
  memref.dealloc %places : memref<?xi32>
  return
}

// out = in by magnitude, sorted where it is.
func.func @sort_by_magnitude_in_place(%in: memref<?xi32>,
                                      %out: memref<?xi32>) {
  obs.device_map ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32):
    obs.yield %x : i32
  }
  obs.device_sort ins(%out : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %zero = arith.constant 0 : i32
    %minusX = arith.subi %zero, %x : i32
    %minusY = arith.subi %zero, %y : i32
    %absX = arith.maxsi %x, %minusX : i32
    %absY = arith.maxsi %y, %minusY : i32
    %less = arith.cmpi slt, %absX, %absY : i32
    obs.yield %less : i1
  }
  return
}
