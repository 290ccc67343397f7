// Written placements and work assignments under every thread count
// (test/obs-run/written-threads.test). None sets `threads`: obs-run's
// --threads decides, and the passes may choose only what is left open.

// A reversal written in place: each element reads the one at the mirror
// place, which another thread (or, alone, the same thread earlier) has
// overwritten. Unsafe for every thread count.
obs.kernel @reverse_in_place(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  %t = obs.sync inplace %r : !obs.arr<64 x i32>
  %u = obs.rev %t : !obs.arr<64 x i32>
  obs.return %u : !obs.arr<64 x i32>
}

// A compare-and-swap of each pair in place, each pair owned by one thread
// (a written blocked<2>): safe whenever the block has the 32 threads it
// names.
obs.kernel @pairs(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
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
