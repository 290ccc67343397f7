// One block's inclusive scan of 512 i32 on 256 threads, with no network
// named: obs-expand-networks takes the serial network (CUB's BlockScan
// composition). Each thread adds its run of two in registers, each warp
// scans its 32 runs' totals by five shuffles, every thread folds the eight
// warps' totals it needs from shared memory, and each element takes in what
// comes before its run: one block barrier and no loop. @warp_scan is the
// same for one warp of 32 (CUB's WarpScan): five shuffles, no barrier.
// @tile_scan is CUB's device tile, 4,096 on 256 threads: each thread's run
// of 16 stays in its registers (the network writes the runs' schedule,
// blocked<16>), so only the warps' totals touch shared memory. bench/run
// sets their PTX beside CUB's BlockScan (2 items, and 16 with
// BLOCK_SCAN_WARP_SCANS) and WarpScan.
//
//   obs-run block_scan.mlir --kernel=block_scan --target=cpu --input=iota
//   obs-run block_scan.mlir --kernel=block_scan --target=cuda --emit=ptx
obs.kernel @block_scan(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32>
    attributes {threads = 256} {
  %s = obs.scan %a : !obs.arr<512 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<512 x i32>
}

obs.kernel @warp_scan(%a: !obs.arr<32 x i32>) -> !obs.arr<32 x i32>
    attributes {threads = 32} {
  %s = obs.scan %a : !obs.arr<32 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<32 x i32>
}

obs.kernel @tile_scan(%a: !obs.arr<4096 x i32>) -> !obs.arr<4096 x i32>
    attributes {threads = 256} {
  %s = obs.scan %a : !obs.arr<4096 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<4096 x i32>
}
