obs.kernel @k(%tile: !obs.arr<32 x !obs.arr<32 x i32>>)
    -> !obs.arr<32 x !obs.arr<32 x i32>> attributes {threads = 32} {
  %staged = obs.sync %tile {obs.shared_padding = 1 : i64} : !obs.arr<32 x !obs.arr<32 x i32>>
  %r = obs.repeat 3 %staged {obs.shared_padding = 3 : i64} : !obs.arr<32 x !obs.arr<32 x i32>> {
  ^bb0(%x: !obs.arr<32 x !obs.arr<32 x i32>>):
    %transposed = obs.generate : !obs.arr<32 x !obs.arr<32 x i32>> {
    ^bb0(%i: index):
      %row = obs.generate : !obs.arr<32 x i32> {
      ^bb0(%j: index):
        %source_row = obs.index %x[%j] : !obs.arr<32 x !obs.arr<32 x i32>>
        %value = obs.index %source_row[%i] : !obs.arr<32 x i32>
        obs.yield %value : i32
      }
      obs.yield %row : !obs.arr<32 x i32>
    }
    %s = obs.sync %transposed : !obs.arr<32 x !obs.arr<32 x i32>>
    obs.yield %s : !obs.arr<32 x !obs.arr<32 x i32>>
  }
  obs.return %r : !obs.arr<32 x !obs.arr<32 x i32>>
}
