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

// Two stages over the empty array, repeated: obs-plan-shared places their
// buffers (of 0 bytes) in an arena of 0 bytes, at offset 0, which the
// attribute's verifier took for an offset outside the arena on every
// optimized target while ref ran it.
obs.kernel @zero_stages(%a: !obs.arr<0 x i32>) -> !obs.arr<0 x i32> attributes {threads = 32} {
  %r = obs.repeat 3 %a : !obs.arr<0 x i32> {
  ^bb0(%x: !obs.arr<0 x i32>):
    %v = obs.rev %x : !obs.arr<0 x i32>
    %t = obs.sync %v : !obs.arr<0 x i32>
    obs.yield %t : !obs.arr<0 x i32>
  }
  obs.return %r : !obs.arr<0 x i32>
}
