// A kernel over the empty array: every combinator that makes sense on no
// elements at all.
obs.kernel @zero(%a: !obs.arr<0 x i32>) -> !obs.arr<0 x i32> {
  %r = obs.rev %a : !obs.arr<0 x i32>
  %one = arith.constant 1 : i32
  %m = obs.map %r : !obs.arr<0 x i32> -> !obs.arr<0 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %s = obs.sync %m : !obs.arr<0 x i32>
  obs.return %s : !obs.arr<0 x i32>
}
