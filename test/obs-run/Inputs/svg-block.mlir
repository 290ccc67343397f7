// For test/obs-run/svg.test: a kernel whose reads depend on its block.
// Block b's element i is the chunk's element (7 - i + b) mod 8: drawn, as
// block 0, the chunk reversed, each of the 8 wires reading another.
obs.kernel @rotate_by_block(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %block = obs.block_id
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %back = arith.subi %c7, %i : index
    %sum = arith.addi %back, %block : index
    %j = arith.remui %sum, %c8 : index
    %x = obs.index %a[%j] : !obs.arr<8 x i32>
    obs.yield %x : i32
  }
  %s = obs.sync %r : !obs.arr<8 x i32>
  obs.return %s : !obs.arr<8 x i32>
}
