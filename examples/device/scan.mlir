// Prefix sums of any number of i32, the number known only at run time. One
// compiled plan serves every length from 0 to 2^31 - 1:
//
//   obs-run examples/device/scan.mlir --entry=scan --target=cpu \
//       --input=numbers.txt
//   obs-run examples/device/scan.mlir --entry=scan --emit=plan \
//       --input=numbers.txt
//
// --obs-expand-device makes a sum one pass over tiles of 8,192, as CUB's:
// a chain of words is cleared, then each block takes the next tile, scans
// it by Sklansky's network and finds what the tiles before it add up to by
// looking back at what they published in the chain (obs.carry, decoupled
// look-back). --emit=plan prints the launches and their traffic: 8 bytes
// per element and 48 per tile (8.0059 on 1,000,003 elements and on 2^20).
// A scan whose combine obs.carry cannot look back by (a float sum, a
// tuple's) is reduce-then-scan, three launches and about 12 bytes.

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
