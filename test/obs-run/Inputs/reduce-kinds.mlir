// Four reductions of one block's 512 i32 on 256 threads, each by an
// operation redux.sync has: signed max, unsigned min, xor and and (the
// serial network; test/obs-run/reduce-block-ptx.test).
obs.kernel @kinds(%a: !obs.arr<512 x i32>)
    -> (!obs.arr<1 x i32>, !obs.arr<1 x i32>, !obs.arr<1 x i32>, !obs.arr<1 x i32>)
    attributes {threads = 256} {
  %max = obs.reduce %a : !obs.arr<512 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %m = arith.maxsi %x, %y : i32
    obs.yield %m : i32
  }
  %umin = obs.reduce %a : !obs.arr<512 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %m = arith.minui %x, %y : i32
    obs.yield %m : i32
  }
  %xor = obs.reduce %a : !obs.arr<512 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %m = arith.xori %x, %y : i32
    obs.yield %m : i32
  }
  %and = obs.reduce %a : !obs.arr<512 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %m = arith.andi %x, %y : i32
    obs.yield %m : i32
  }
  %r0 = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %max : i32
  }
  %r1 = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %umin : i32
  }
  %r2 = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %xor : i32
  }
  %r3 = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %and : i32
  }
  obs.return %r0, %r1, %r2, %r3 : !obs.arr<1 x i32>, !obs.arr<1 x i32>, !obs.arr<1 x i32>, !obs.arr<1 x i32>
}
