// A scan over key-value pairs: the segmented prefix sum, whose segments
// start at the multiples of 10 (a head restarts the sum; its flag is the
// pair's key). The combine is associative but not commutative:
//
//   (h1, v1) + (h2, v2) = (h1 | h2, h2 ? v2 : v1 + v2)
//
// so every plan must keep the order of the elements it combines.
//
//   obs-run examples/device/scan_segmented.mlir --entry=segmented_sum \
//       --target=cpu --input=numbers.txt
//
// The flags are i8 and the values i32: tiles of 4,096 pairs.

func.func @segmented_sum(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %heads = memref.alloc(%n) : memref<?xi8>
  %heads_scanned = memref.alloc(%n) : memref<?xi8>
  obs.device_map ins(%in : memref<?xi32>) outs(%heads : memref<?xi8>) {
  ^bb0(%x: i32):
    %c10 = arith.constant 10 : i32
    %zero = arith.constant 0 : i32
    %r = arith.remsi %x, %c10 : i32
    %head = arith.cmpi eq, %r, %zero : i32
    %flag = arith.extui %head : i1 to i8
    obs.yield %flag : i8
  }
  obs.device_scan inclusive
      ins(%heads, %in : memref<?xi8>, memref<?xi32>)
      outs(%heads_scanned, %out : memref<?xi8>, memref<?xi32>)
      identity [0 : i8, 0 : i32] {
  ^bb0(%h1: i8, %v1: i32, %h2: i8, %v2: i32):
    %zero = arith.constant 0 : i8
    %h = arith.ori %h1, %h2 : i8
    %restart = arith.cmpi ne, %h2, %zero : i8
    %sum = arith.addi %v1, %v2 : i32
    %v = arith.select %restart, %v2, %sum : i32
    obs.yield %h, %v : i8, i32
  }
  memref.dealloc %heads : memref<?xi8>
  memref.dealloc %heads_scanned : memref<?xi8>
  return
}
