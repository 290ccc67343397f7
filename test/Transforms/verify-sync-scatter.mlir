// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-verify-sync))' --verify-diagnostics

// The proof of obs.scatter's stages (lib/Analysis/BlockRun.cpp): places the
// simulation knows are checked exactly; places that depend on data are
// over-approximated, and a scatter without a combine leaves its own stores
// to the check the ref and cpu targets make as they run.

// Two values at each place, known from the thread ids, and no combine:
// threads 0 and 1 both write place 0.
obs.kernel @collide(%a: !obs.arr<64 x i32>) -> !obs.arr<32 x i32> attributes {threads = 64} {
  %halves = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c2 = arith.constant 2 : index
    %h = arith.divui %i, %c2 : index
    %p = arith.index_cast %h : index to i32
    obs.yield %p : i32
  }
  // expected-note @+2 {{the buffer holds the array of this op}}
  // expected-error @+1 {{stage is unsafe: thread 0 (warp 0) writes element 0 of a shared buffer and thread 1 (warp 0) writes it in the same stage, with no barrier between them}}
  %s = obs.scatter %a at %halves initial(0 : i32) : !obs.arr<64 x i32>, !obs.arr<64 x i32> -> !obs.arr<32 x i32>
  obs.return %s : !obs.arr<32 x i32>
}

// -----

// The same places with a combine: the atomic additions commute.
obs.kernel @pairs_added(%a: !obs.arr<64 x i32>) -> !obs.arr<32 x i32> attributes {threads = 64} {
  %halves = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c2 = arith.constant 2 : index
    %h = arith.divui %i, %c2 : index
    %p = arith.index_cast %h : index to i32
    obs.yield %p : i32
  }
  %s = obs.scatter %a at %halves combine(add) initial(0 : i32) : !obs.arr<64 x i32>, !obs.arr<64 x i32> -> !obs.arr<32 x i32>
  obs.return %s : !obs.arr<32 x i32>
}

// -----

// A permutation known from the thread ids (the reversal), without a combine.
obs.kernel @reversed(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %places = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c63 = arith.constant 63 : index
    %r = arith.subi %c63, %i : index
    %p = arith.index_cast %r : index to i32
    obs.yield %p : i32
  }
  %s = obs.scatter %a at %places initial(0 : i32) : !obs.arr<64 x i32>, !obs.arr<64 x i32> -> !obs.arr<64 x i32>
  obs.return %s : !obs.arr<64 x i32>
}

// -----

// Places read from the input: the proof cannot tell them, and leaves the
// scatter's own stores to the run-time check.
obs.kernel @permuted(%a: !obs.arr<64 x i32>, %places: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %s = obs.scatter %a at %places initial(0 : i32) : !obs.arr<64 x i32>, !obs.arr<64 x i32> -> !obs.arr<64 x i32>
  obs.return %s : !obs.arr<64 x i32>
}

// -----

// A scatter's result read in place by a stage that overwrites it: each
// thread reads the element its neighbour writes.
obs.kernel @overwritten(%a: !obs.arr<64 x i32>, %places: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  // expected-note @+1 {{the buffer holds the array of this op}}
  %s = obs.scatter %a at %places combine(max) initial(0 : i32) : !obs.arr<64 x i32>, !obs.arr<64 x i32> -> !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  // expected-error @+1 {{'obs.sync' op in place is unsafe: thread 0 (warp 0) writes element 0 of a shared buffer and thread 63 (warp 1) reads it in the same stage}}
  %t = obs.sync inplace %r : !obs.arr<64 x i32>
  %u = obs.map %t : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  obs.return %u : !obs.arr<64 x i32>
}

// -----

// Two values at each place, and one thread writes both: on 32 threads,
// thread t writes values t and t + 32, both to place t. No pair of threads
// meets there, but the scatter writes the place twice all the same.
obs.kernel @collide_in_one_thread(%a: !obs.arr<64 x i32>) -> !obs.arr<32 x i32> attributes {threads = 32} {
  %wrapped = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c32 = arith.constant 32 : index
    %h = arith.remui %i, %c32 : index
    %p = arith.index_cast %h : index to i32
    obs.yield %p : i32
  }
  // expected-error @+1 {{'obs.scatter' op writes place 0 twice in thread 0 (warp 0): without a combine, each place is written at most once}}
  %s = obs.scatter %a at %wrapped initial(0 : i32) : !obs.arr<64 x i32>, !obs.arr<64 x i32> -> !obs.arr<32 x i32>
  obs.return %s : !obs.arr<32 x i32>
}

// -----

// The same values once each, on 32 threads: kept.
obs.kernel @once_each_in_one_thread(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %rotated = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = arith.addi %i, %c1 : index
    %h = arith.remui %n, %c64 : index
    %p = arith.index_cast %h : index to i32
    obs.yield %p : i32
  }
  %s = obs.scatter %a at %rotated initial(0 : i32) : !obs.arr<64 x i32>, !obs.arr<64 x i32> -> !obs.arr<64 x i32>
  obs.return %s : !obs.arr<64 x i32>
}
