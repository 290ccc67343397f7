// A float sum inside `one` (obs-fuzz --seed=7373, program 602): a
// sub-program's sum takes the serial network too, one run per element,
// which the reference target computes in that order.
obs.kernel @sum_in_one(%input: !obs.arr<114 x f32>) -> !obs.arr<114 x f32> {
  %v0 = obs.one %input : !obs.arr<114 x f32> -> !obs.arr<114 x f32> {
  ^bb0(%p1: !obs.arr<57 x f32>):
    %r3 = obs.reduce %p1 : !obs.arr<57 x f32> -> f32 {
    ^bb0(%x4: f32, %x5: f32):
      %v6 = arith.addf %x4, %x5 : f32
      obs.yield %v6 : f32
    }
    %v2 = obs.map %p1 : !obs.arr<57 x f32> -> !obs.arr<57 x f32> {
    ^bb0(%x7: f32):
      %v8 = arith.addf %x7, %r3 : f32
      obs.yield %v8 : f32
    }
    %v9 = obs.sync %v2 : !obs.arr<57 x f32>
    obs.yield %v9 : !obs.arr<57 x f32>
  }
  obs.return %v0 : !obs.arr<114 x f32>
}

// A fold whose combine is not associative (x - y) stays a fold wherever it
// is, and is marked so.
obs.kernel @difference_in_one(%input: !obs.arr<114 x f32>)
    -> !obs.arr<114 x f32> {
  %v0 = obs.one %input : !obs.arr<114 x f32> -> !obs.arr<114 x f32> {
  ^bb0(%p1: !obs.arr<57 x f32>):
    %r3 = obs.reduce %p1 : !obs.arr<57 x f32> -> f32 {
    ^bb0(%x4: f32, %x5: f32):
      %v6 = arith.subf %x4, %x5 : f32
      obs.yield %v6 : f32
    }
    %v2 = obs.map %p1 : !obs.arr<57 x f32> -> !obs.arr<57 x f32> {
    ^bb0(%x7: f32):
      %v8 = arith.addf %x7, %r3 : f32
      obs.yield %v8 : f32
    }
    %v9 = obs.sync %v2 : !obs.arr<57 x f32>
    obs.yield %v9 : !obs.arr<57 x f32>
  }
  obs.return %v0 : !obs.arr<114 x f32>
}
