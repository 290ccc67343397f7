obs.kernel @k(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.one %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %s = obs.sync %h : !obs.arr<4 x i32>
    obs.yield %h : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<8 x i32>
}
