// Later Obsidian's reduction whose threads first fold many elements each,
// sequentially, reading them coalesced (seqReduce over coalesced
// elements): a block of 256 threads sums a tile of 4,096 numbers, thread t
// adding elements t, t + 256, ..., t + 3840 (at each step the block's
// threads read 256 consecutive numbers), then seed 004's tree sums the 256
// partial sums. Three launches sum any number of numbers up to 2^31 - 1:
// the tiles, the tiles' sums, and theirs.
//
//   obs-run examples/obsidian/seq_reduce.mlir --entry=sum --target=cpu \
//       --input=numbers.txt

obs.kernel @sum_tile(%a: !obs.arr<4096 x i32> {obs.absent = 0 : i32}) -> !obs.arr<1 x i32> attributes {threads = 256} {
  // Thread t's sequential sum of its 16 elements.
  %partials = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%t: index):
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0 : i32
    %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (i32) {
      %stride = arith.muli %k, %c256 : index
      %j = arith.addi %t, %stride : index
      %x = obs.index %a[%j] : !obs.arr<4096 x i32>
      %next = arith.addi %acc, %x : i32
      scf.yield %next : i32
    }
    obs.yield %sum : i32
  }
  %stored = obs.sync %partials : !obs.arr<256 x i32>
  %total = obs.reduce %stored network(tree) : !obs.arr<256 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %one = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %total : i32
  }
  obs.return %one : !obs.arr<1 x i32>
}

// sum[0] = in[0] + ... + in[n - 1] (0 for no numbers).
func.func @sum(%in: memref<?xi32>, %sum: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %tile = arith.constant 4096 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %tile : index
  %groups = arith.ceildivui %tiles, %tile : index
  %partials = memref.alloc(%tiles) : memref<?xi32>
  %totals = memref.alloc(%groups) : memref<?xi32>
  obs.launch @sum_tile grid(%tiles) ins(%in : memref<?xi32>) outs(%partials : memref<?xi32>)
  obs.launch @sum_tile grid(%groups) ins(%partials : memref<?xi32>) outs(%totals : memref<?xi32>)
  obs.launch @sum_tile grid(1) ins(%totals : memref<?xi32>) outs(%sum : memref<1xi32>)
  memref.dealloc %partials : memref<?xi32>
  memref.dealloc %totals : memref<?xi32>
  return
}
