// Safe kernels that the proof once gave up on (test/obs-run/precision.test).

// A stage that changes only the elements i with i^2 mod 7 = 1: no band, so
// compact<32> deals them out through a constant table of positions, which
// the proof reads like any index arithmetic.
obs.kernel @sparse(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c100 = arith.constant 100 : i32
  %s = obs.sync %a : !obs.arr<64 x i32>
  %g = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %x = obs.index %s[%i] : !obs.arr<64 x i32>
    %square = arith.muli %i, %i : index
    %m = arith.remui %square, %c7 : index
    %c = arith.cmpi eq, %m, %c1 : index
    %z = arith.addi %x, %c100 : i32
    %y = arith.select %c, %z, %x : i32
    obs.yield %y : i32
  }
  %t = obs.sync %g : !obs.arr<64 x i32>
  %r = obs.rev %t : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// A compare-and-swap of each pair in place, each pair owned by one thread
// (blocked<2>): the thread reads both elements before it writes either.
obs.kernel @pairs(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %e = obs.evens %s : !obs.arr<64 x i32> {
  ^bb0(%x: i32, %y: i32):
    %lo = arith.minsi %x, %y : i32
    %hi = arith.maxsi %x, %y : i32
    obs.yield %lo, %hi : i32, i32
  }
  %t = obs.sync inplace blocked<2> %e : !obs.arr<64 x i32>
  %r = obs.rev %t : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// Each element reads its successor within its 32-element segment, with the
// segment found by floordivsi: the same warp wrote it, so the written warp
// scope is safe, which the proof sees only when it folds floordivsi.
obs.kernel @rotate(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %s = obs.sync warp %a : !obs.arr<64 x i32>
  %g = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %segment = arith.floordivsi %i, %c32 : index
    %base = arith.muli %segment, %c32 : index
    %next = arith.addi %i, %c1 : index
    %within = arith.remsi %next, %c32 : index
    %j = arith.addi %base, %within : index
    %x = obs.index %s[%j] : !obs.arr<64 x i32>
    obs.yield %x : i32
  }
  obs.return %g : !obs.arr<64 x i32>
}
