// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-verify-sync
// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-optimize

// Tests of written `shuffle` storage that is wrong: the kernel is rejected
// at the sync, on its own (obs-verify-sync) and after every refinement
// (obs-optimize keeps a written storage). shuffle-kept.mlir has the safe
// ones.

// Element i reads element i xor 32, which a thread of the other warp
// computes: no shuffle reaches it.
obs.kernel @other_warp(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  // expected-error @+1 {{'obs.sync' op shuffles are unsafe: thread 0 (warp 0) reads element 32 of this array, which thread 32 (warp 1) computes; a shuffle exchanges values only between the lanes of a warp}}
  %0 = obs.sync shuffle %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c32 = arith.constant 32 : index
    %j = arith.xori %i, %c32 : index
    %x = obs.index %0[%j] : !obs.arr<64 x i32>
    obs.yield %x : i32
  }
  // expected-note @+1 {{read here}}
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// -----

// Kogge-Stone's step with the read inside its branch: lane 0 of each warp
// does not read, so the lanes of the shuffle are not its mask's (a
// shfl.sync that lane 0 skips hangs or reads garbage on the GPU).
obs.kernel @read_in_branch(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  // expected-error @+1 {{'obs.sync' op shuffles are unsafe: thread 1 (warp 0) runs a shuffle of this array under a branch, in a loop, or not with exactly the lanes of its mask; every lane a shfl.sync names must run it, outside any branch or loop}}
  %0 = obs.sync shuffle %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c31 = arith.constant 31 : index
    %x = obs.index %0[%i] : !obs.arr<64 x i32>
    %lane = arith.andi %i, %c31 : index
    %has = arith.cmpi uge, %lane, %c1 : index
    %r = scf.if %has -> (i32) {
      %j = arith.subi %i, %c1 : index
      %y = obs.index %0[%j] : !obs.arr<64 x i32>
      %s = arith.addi %x, %y : i32
      scf.yield %s : i32
    } else {
      scf.yield %x : i32
    }
    obs.yield %r : i32
  }
  // expected-note @+1 {{read here}}
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// -----

// The read is outside the element's branches, but the stage that reads is
// dealt out to the first 48 threads: its round is a branch, which half of
// the second warp skips.
obs.kernel @half_a_warp_reads(%a: !obs.arr<64 x i32>) -> !obs.arr<48 x i32> attributes {threads = 64} {
  // expected-error @+1 {{'obs.sync' op shuffles are unsafe: thread 0 (warp 0) runs a shuffle of this array under a branch}}
  %0 = obs.sync shuffle %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<48 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %j = arith.xori %i, %c1 : index
    %x = obs.index %0[%j] : !obs.arr<64 x i32>
    obs.yield %x : i32
  }
  // expected-note @+1 {{read here}}
  %2 = obs.sync %1 : !obs.arr<48 x i32>
  obs.return %2 : !obs.arr<48 x i32>
}

// -----

// An index read from data may name any element, of any warp.
obs.kernel @gather(%a: !obs.arr<64 x i32>, %p: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  // expected-error @+1 {{'obs.sync' op shuffles are unsafe: thread 0 (warp 0) reads an element (its index depends on data) of this array, and which thread computes it depends on data}}
  %0 = obs.sync shuffle %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %q = obs.index %p[%i] : !obs.arr<64 x i32>
    %j = arith.index_cast %q : i32 to index
    %x = obs.index %0[%j] : !obs.arr<64 x i32>
    obs.yield %x : i32
  }
  // expected-note @+1 {{read here}}
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// -----

// Shuffles keep their rounds in registers, as registers do: at most 16
// where the work assignment is written.
obs.kernel @too_many_rounds(%a: !obs.arr<1024 x i32>) -> !obs.arr<1024 x i32> attributes {threads = 32} {
  // expected-error @+1 {{'obs.sync' op cannot keep its array in shuffles: each thread computes 32 rounds of it, and registers hold at most 16}}
  %0 = obs.sync shuffle strided<32> %a : !obs.arr<1024 x i32>
  %1 = obs.sync strided<32> %0 : !obs.arr<1024 x i32>
  obs.return %1 : !obs.arr<1024 x i32>
}

// -----

// Each element sums four neighbours of its warp in a loop that every lane
// runs alike: a GPU would run its shuffles, but the cpu target exchanges
// values only between a warp's steps, which a loop's carried sum would have
// to live across, so a shuffle in a loop is refused like one under a
// branch (obs-promote-registers leaves such an array in shared memory:
// promote-registers.mlir).
obs.kernel @read_in_loop(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  // expected-error @+1 {{'obs.sync' op shuffles are unsafe: thread 0 (warp 0) runs a shuffle of this array under a branch, in a loop, or not with exactly the lanes of its mask; every lane a shfl.sync names must run it, outside any branch or loop}}
  %0 = obs.sync shuffle %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c31 = arith.constant 31 : index
    %cm = arith.constant -32 : index
    %z = arith.constant 0 : i32
    %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (i32) {
      %ik = arith.addi %i, %k : index
      %lo = arith.andi %ik, %c31 : index
      %hi = arith.andi %i, %cm : index
      %j = arith.ori %hi, %lo : index
      %x = obs.index %0[%j] : !obs.arr<64 x i32>
      %s = arith.addi %acc, %x : i32
      scf.yield %s : i32
    }
    obs.yield %r : i32
  }
  // expected-note @+1 {{read here}}
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}
