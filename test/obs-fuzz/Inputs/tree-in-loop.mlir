// A tree reduction in a repeat's body, which the ref target runs as a loop:
// 2000 times, every element becomes the maximum of the array.
obs.kernel @max_everywhere(%a: !obs.arr<2048 x i64>) -> !obs.arr<2048 x i64> {
  %r = obs.repeat 2000 %a : !obs.arr<2048 x i64> {
  ^bb0(%x: !obs.arr<2048 x i64>):
    %top = obs.reduce %x network(tree) : !obs.arr<2048 x i64> -> i64 {
    ^bb0(%l: i64, %m: i64):
      %bigger = arith.maxsi %l, %m : i64
      obs.yield %bigger : i64
    }
    %y = obs.map %x : !obs.arr<2048 x i64> -> !obs.arr<2048 x i64> {
    ^bb0(%e: i64):
      obs.yield %top : i64
    }
    obs.yield %y : !obs.arr<2048 x i64>
  }
  obs.return %r : !obs.arr<2048 x i64>
}
