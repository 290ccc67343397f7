// One block's sum of 512 i32 on 256 threads, with no network named:
// obs-expand-networks takes the serial network (CUB's BlockReduce
// composition), the job of CUB's BlockReduce<int, 256> over two items a
// thread. bench/run sets its PTX beside CUB's (bench/cuda/cub_block.cu).
//
//   obs-run block_reduce.mlir --kernel=block_reduce --target=cpu --input=iota
//   obs-run block_reduce.mlir --kernel=block_reduce --emit=ptx
obs.kernel @block_reduce(%a: !obs.arr<512 x i32>) -> !obs.arr<1 x i32>
    attributes {threads = 256} {
  %sum = obs.reduce %a : !obs.arr<512 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %r = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %sum : i32
  }
  obs.return %r : !obs.arr<1 x i32>
}
