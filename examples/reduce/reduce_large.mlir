// The sum of 2^20 i32 numbers, or of any other number of them: a use of
// obs.device_reduce (examples/device/reduce.mlir has its variants). Run it
// with
//
//   obs-run reduce_large.mlir --entry=reduce --target=cpu --input=NUMBERS.txt
//
// --obs-expand-device makes it two launches on 2^20 numbers: 128 tiles of
// 8,192 each summed by seed 004's tree, then their 128 totals by one
// block. Every number is read once: 4.0010 bytes per number (obs-run
// --emit=plan).

func.func @reduce(%in: memref<?xi32>, %sum: memref<1xi32>) {
  obs.device_reduce ins(%in : memref<?xi32>) outs(%sum : memref<1xi32>)
      identity [0 : i32] {
  ^bb0(%acc: i32, %x: i32):
    %s = arith.addi %acc, %x : i32
    obs.yield %s : i32
  }
  return
}
