// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-optimize="threads=64 strategy=blocked"
// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-optimize="threads=256 strategy=strided"
// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-optimize="threads=128 strategy=compact"

// Tests of the rule that a property the user writes is kept or the kernel
// rejected, never replaced (lib/Transforms/AssignWork.cpp keeps written
// syncs out of what it re-decides; the sync's plan holds only what passes
// choose). Racy kernels, under several thread counts and strategies: each
// is rejected at the written sync. written-properties-kept.mlir has the
// safe ones.

// Reversing 64 elements crosses warps for every block of more than 32
// threads; the written warp scope is rejected, not traded for a block
// barrier.
obs.kernel @reverse(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  // expected-note @+2 {{the buffer holds the array of this op}}
  // expected-error-re @+1 {{'obs.sync' op warp scope is unsafe: thread {{[0-9]+}} (warp {{[0-9]}}) writes element {{[0-9]+}} of a shared buffer before the barrier and thread {{[0-9]+}} (warp {{[0-9]}}) reads it after it (read after write); only a block barrier orders threads of different warps}}
  %s = obs.sync warp %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// Reversing each 64-element half, with the work the user assigned: the
// written work assignment and scope both stay as written, and are rejected
// together.
obs.kernel @halves(%a: !obs.arr<128 x i32>) -> !obs.arr<128 x i32> attributes {threads = 64} {
  // expected-note @+2 {{the buffer holds the array of this op}}
  // expected-error-re @+1 {{'obs.sync' op warp scope is unsafe: {{.*}} (read after write); only a block barrier orders threads of different warps}}
  %s = obs.sync warp strided<64> %a : !obs.arr<128 x i32>
  %r = obs.two %s : !obs.arr<128 x i32> -> !obs.arr<128 x i32> {
  ^bb0(%h: !obs.arr<64 x i32>):
    %x = obs.rev %h : !obs.arr<64 x i32>
    obs.yield %x : !obs.arr<64 x i32>
  }
  obs.return %r : !obs.arr<128 x i32>
}

// -----

// A compare-and-swap in place whose pairs are split between threads
// (strided: thread t has elements t and t + 32): thread 1 writes element 1,
// which thread 0 reads for element 0 in the same stage. Written, so
// rejected; with blocked<2> each pair has one owner, and the same placement
// is kept (test/obs-run/precision.test).
obs.kernel @pairs_split(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  // expected-note @+1 {{the buffer holds the array of this op}}
  %s = obs.sync %a : !obs.arr<64 x i32>
  %e = obs.evens %s : !obs.arr<64 x i32> {
  ^bb0(%x: i32, %y: i32):
    %lo = arith.minsi %x, %y : i32
    %hi = arith.maxsi %x, %y : i32
    obs.yield %lo, %hi : i32, i32
  }
  // expected-error-re @+1 {{'obs.sync' op in place is unsafe: thread {{[0-9]+}} (warp 0) {{writes|reads}} element {{[0-9]+}} of a shared buffer and thread {{[0-9]+}} (warp 0) {{writes|reads}} it in the same stage, with no barrier between them}}
  %t = obs.sync inplace strided<32> %e : !obs.arr<64 x i32>
  %r = obs.rev %t : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}
