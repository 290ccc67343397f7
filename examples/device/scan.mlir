// Prefix sums of any number of i32, the number known only at run time. One
// compiled plan serves every length from 0 to 2^31 - 1:
//
//   obs-run examples/device/scan.mlir --entry=scan --target=cpu \
//       --input=numbers.txt
//   obs-run examples/device/scan.mlir --entry=scan --emit=plan \
//       --input=numbers.txt
//
// --obs-expand-device makes it reduce-then-scan over tiles of 8,192: each
// tile's total but the last's, the exclusive scan of the totals (a device
// scan itself), then every tile scanned by Sklansky's network from its
// total's prefix. --emit=plan prints the launches and their traffic: 12
// bytes per element, less the last tile's second read, and 16 per tile of
// 8,192 (11.9996 on 1,000,003 elements, 11.9707 on 2^20).

// out[i] = in[0] + ... + in[i].
func.func @scan(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_scan inclusive ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
      identity [0 : i32] {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  return
}

// out[i] = in[0] + ... + in[i - 1], and out[0] = 0.
func.func @exclusive_scan(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_scan exclusive ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
      identity [0 : i32] {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  return
}

// The running maximum, from the smallest i32.
func.func @running_max(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_scan inclusive ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
      identity [-2147483648 : i32] {
  ^bb0(%x: i32, %y: i32):
    %m = arith.maxsi %x, %y : i32
    obs.yield %m : i32
  }
  return
}
