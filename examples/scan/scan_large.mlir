// The prefix sum of seed 000's 2^20 i32 numbers, or of any other number of
// them: a use of obs.device_scan (examples/device/scan.mlir has its
// variants). Run it with
//
//   obs-run scan_large.mlir --entry=scan --target=cpu --input=NUMBERS.txt
//
// --obs-expand-device makes it two launches on 2^20 numbers: a chain of
// 129 words cleared, then the 128 tiles of 8,192 each scanned by
// Sklansky's network from what its look-back over the tiles before it
// finds (obs.carry). Seed 000's plan, with tiles of 512 and a serial scan
// of the totals, moved 16 bytes per number; reduce-then-scan moved
// 11.9707; this one moves 8.0059 (obs-run --emit=plan).

func.func @scan(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_scan inclusive ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
      identity [0 : i32] {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  return
}
