// One block's inclusive scan of 512 i32 on 256 threads, with no network
// named: obs-expand-networks takes the serial network (CUB's BlockScan
// composition). Each thread adds its run of two in registers, each warp
// scans its 32 runs' totals by five shuffles, every thread folds the eight
// warps' totals it needs from shared memory, and each element takes in what
// comes before its run: one block barrier and no loop. @warp_scan is the
// same for one warp of 32 (CUB's WarpScan): five shuffles, no barrier.
// bench/run sets their PTX beside CUB's BlockScan and WarpScan.
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
