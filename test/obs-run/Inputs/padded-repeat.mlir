obs.kernel @k(%t: !obs.arr<95 x !obs.arr<64 x i32>>)
    -> !obs.arr<95 x !obs.arr<64 x i32>> attributes {threads = 32} {
  %a = obs.sync %t : !obs.arr<95 x !obs.arr<64 x i32>>
  %rep = obs.repeat 3 %a : !obs.arr<95 x !obs.arr<64 x i32>> {
  ^bb0(%x: !obs.arr<95 x !obs.arr<64 x i32>>):
    %g = obs.generate : !obs.arr<95 x !obs.arr<64 x i32>> {
    ^bb0(%i: index):
      %row = obs.generate : !obs.arr<64 x i32> {
      ^bb0(%j: index):
        %n = arith.constant 94 : index
        %ri = arith.subi %n, %i : index
        %r = obs.index %x[%ri] : !obs.arr<95 x !obs.arr<64 x i32>>
        %v = obs.index %r[%j] : !obs.arr<64 x i32>
        %c1 = arith.constant 1 : i32
        %w = arith.addi %v, %c1 : i32
        obs.yield %w : i32
      }
      obs.yield %row : !obs.arr<64 x i32>
    }
    %s = obs.sync %g : !obs.arr<95 x !obs.arr<64 x i32>>
    obs.yield %s : !obs.arr<95 x !obs.arr<64 x i32>>
  }
  obs.return %rep : !obs.arr<95 x !obs.arr<64 x i32>>
}
