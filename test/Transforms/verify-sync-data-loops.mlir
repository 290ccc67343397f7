// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-verify-sync))' --verify-diagnostics

// Tests of lib/Analysis/BlockRun.cpp for loops whose trip count depends on
// data. Any number of iterations of a loop that touches nothing another
// thread can see (no shared memory, no barrier, no global store) leaves
// every access of the block as it is: the proof skips it and keeps the
// kernel. One that reads shared memory cannot be followed, and the kernel
// is rejected rather than proved by a guess.

// Kept: an escape loop (scf.while) in element code, between two stages.
obs.kernel @escape(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %m = obs.map %s : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %zero = arith.constant 0 : i32
    %r:2 = scf.while (%v = %x, %n = %zero) : (i32, i32) -> (i32, i32) {
      %one = arith.constant 1 : i32
      %big = arith.cmpi sgt, %v, %one : i32
      scf.condition(%big) %v, %n : i32, i32
    } do {
    ^bb0(%v: i32, %n: i32):
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %half = arith.divsi %v, %two : i32
      %next = arith.addi %n, %one : i32
      scf.yield %half, %next : i32, i32
    }
    obs.yield %r#1 : i32
  }
  %t = obs.sync %m : !obs.arr<64 x i32>
  %r = obs.rev %t : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// Kept: an scf.for whose bound is an element of the array (data), folding
// without carrying the loop to shared memory.
obs.kernel @data_bound(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %m = obs.map %s : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.index_cast %x : i32 to index
    %zero = arith.constant 0 : i32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
      %ii = arith.index_cast %i : index to i32
      %next = arith.addi %acc, %ii : i32
      scf.yield %next : i32
    }
    obs.yield %sum : i32
  }
  %t = obs.sync %m : !obs.arr<64 x i32>
  obs.return %t : !obs.arr<64 x i32>
}

// -----

// Rejected: a loop of data-dependent trip count (its bound is an element)
// that reads the shared array of the stage before.
obs.kernel @walks_shared(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %m = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %x = obs.index %s[%i] : !obs.arr<64 x i32>
    %n = arith.index_cast %x : i32 to index
    %zero = arith.constant 0 : i32
    %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
      %j = arith.minui %k, %c63 : index
      %y = obs.index %s[%j] : !obs.arr<64 x i32>
      %next = arith.addi %acc, %y : i32
      scf.yield %next : i32
    }
    obs.yield %sum : i32
  }
  // The lowered loop computes this stage's elements: the error is the
  // stage's.
  // expected-error @+1 {{'scf.for' op is a loop whose bounds depend on data, and it touches shared memory, stores to global memory or holds a barrier or a warp exchange: the analysis follows such a loop only where it touches nothing another thread can see}}
  %t = obs.sync %m : !obs.arr<64 x i32>
  obs.return %t : !obs.arr<64 x i32>
}

// -----

// Rejected, and said why: a loop of constant bounds whose counter is wider
// than 64 bits (the analysis holds 64-bit values, so its trip count is not
// known) that reads the shared array of the stage before. It was told its
// bounds depend on data (hunt 23).
obs.kernel @wide_counter(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %s = obs.sync %a : !obs.arr<8 x i32>
  %m = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %lo = arith.constant 0 : i128
    %hi = arith.constant 2 : i128
    %one = arith.constant 1 : i128
    %zero = arith.constant 0 : i32
    %sum = scf.for %k = %lo to %hi step %one iter_args(%acc = %zero) -> (i32) : i128 {
      %kk = arith.trunci %k : i128 to i64
      %k_index = arith.index_cast %kk : i64 to index
      %c8 = arith.constant 8 : index
      %at = arith.addi %i, %k_index : index
      %j = arith.remui %at, %c8 : index
      %y = obs.index %s[%j] : !obs.arr<8 x i32>
      %next = arith.addi %acc, %y : i32
      scf.yield %next : i32
    }
    obs.yield %sum : i32
  }
  // expected-error @+1 {{'scf.for' op is a loop whose counter is wider than the 64 bits the analysis holds, and it touches shared memory}}
  %t = obs.sync %m : !obs.arr<8 x i32>
  obs.return %t : !obs.arr<8 x i32>
}
