// Launches whose sizes are known only at run time (test/obs-run/
// launch-dynamic.test): one compiled kernel for every length, partial last
// blocks, absent elements, and kernels that ask where their block is.

// out[i] = in[i] + 1, over ceil(n / 4) blocks of 4.
obs.kernel @inc(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  %c1 = arith.constant 1 : i32
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

func.func @run_inc(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %blocks = arith.ceildivui %n, %c4 : index
  obs.launch @inc grid(%blocks) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// The same, in place in out.
func.func @inc_in_place(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %blocks = arith.ceildivui %n, %c4 : index
  obs.launch @copy grid(%blocks) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  obs.launch @inc grid(%blocks) ins(%out : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// out[i] = in[i] + 1000 * block + 10 * present elements of the block's chunk.
obs.kernel @where(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  %block = obs.block_id
  %present = obs.extent %a : !obs.arr<4 x i32>
  %c1000 = arith.constant 1000 : i32
  %c10 = arith.constant 10 : i32
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %b = arith.index_cast %block : index to i32
    %e = arith.index_cast %present : index to i32
    %bb = arith.muli %b, %c1000 : i32
    %ee = arith.muli %e, %c10 : i32
    %s = arith.addi %bb, %ee : i32
    %y = arith.addi %x, %s : i32
    obs.yield %y : i32
  }
  %s = obs.sync %m : !obs.arr<4 x i32>
  obs.return %s : !obs.arr<4 x i32>
}

func.func @run_where(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %blocks = arith.ceildivui %n, %c4 : index
  obs.launch @where grid(%blocks) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// Each chunk of 4 reversed, through shared memory on 2 threads: a partial
// last block reads its absent elements as -7777, and the present places of
// its result get them.
obs.kernel @rev_chunks(%a: !obs.arr<4 x i32> {obs.absent = -7777 : i32}) -> !obs.arr<4 x i32> attributes {threads = 2 : i64} {
  %s = obs.sync %a : !obs.arr<4 x i32>
  %r = obs.rev %s : !obs.arr<4 x i32>
  obs.return %r : !obs.arr<4 x i32>
}

func.func @run_rev_chunks(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %blocks = arith.ceildivui %n, %c4 : index
  obs.launch @rev_chunks grid(%blocks) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// A constant grid over a memref of any length: 3 blocks, the first 12
// places; the rest of out is left as it was (zeros).
func.func @three_blocks(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.launch @inc grid(3) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}
