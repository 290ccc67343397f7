// One block's inclusive scan of 512 i32 on 256 threads, with no network
// named: obs-expand-networks takes the serial network (CUB's BlockScan
// composition). Each thread adds its run of two in registers, each warp
// scans its 32 runs' totals (warp syncs only), the 8 warps' totals are
// scanned, and each element takes in what comes before its run: two block
// barriers and no loop. bench/run sets its PTX beside CUB's BlockScan.
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
