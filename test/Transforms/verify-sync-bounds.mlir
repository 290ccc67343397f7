// RUN: obs-opt %s -split-input-file --obs-verify-sync -verify-diagnostics | FileCheck %s
// RUN: obs-opt %s -split-input-file --obs-optimize -verify-diagnostics | FileCheck %s

// The proof evaluates the check of every place an obs.index reads in every
// thread: one outside its array is an error at the obs.index, naming the
// thread, the index and the length, whatever the plan. A place that
// depends on data, or that a branch on data leads to, is left to the check
// the ref and cpu targets make as they run (test/obs-run/bounds.test).

obs.kernel @past_the_end(%x: !obs.arr<32 x i32>) -> !obs.arr<32 x i32> {
  %r = obs.generate : !obs.arr<32 x i32> {
  ^bb0(%i: index):
    %c3 = arith.constant 3 : index
    %j = arith.addi %i, %c3 : index
    // expected-error @+1 {{'obs.index' op reads index 32 of an array of 32 elements in thread 29 (warp 0): the index is outside the array}}
    %v = obs.index %x[%j] : !obs.arr<32 x i32>
    obs.yield %v : i32
  }
  %s = obs.sync %r : !obs.arr<32 x i32>
  obs.return %s : !obs.arr<32 x i32>
}

// -----

// Before the start: index -1 is the unsigned 2^64 - 1, which the check
// `index < length` rejects alike.
obs.kernel @before_the_start(%x: !obs.arr<64 x f32>) -> !obs.arr<64 x f32> {
  %r = obs.generate : !obs.arr<64 x f32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %j = arith.subi %i, %c1 : index
    // expected-error @+1 {{'obs.index' op reads index -1 of an array of 64 elements in thread 0 (warp 0)}}
    %v = obs.index %x[%j] : !obs.arr<64 x f32>
    obs.yield %v : f32
  }
  %s = obs.sync %r : !obs.arr<64 x f32>
  obs.return %s : !obs.arr<64 x f32>
}

// -----

// An index of a synced array in shared memory, and of the outer level of a
// nested one: the same check.
obs.kernel @shared_and_nested(%x: !obs.arr<4 x !obs.arr<8 x i32>>) -> !obs.arr<8 x i32> {
  %s = obs.sync %x : !obs.arr<4 x !obs.arr<8 x i32>>
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'obs.index' op reads index 4 of an array of 4 elements in thread 4 (warp 0)}}
    %row = obs.index %s[%i] : !obs.arr<4 x !obs.arr<8 x i32>>
    %v = obs.index %row[%c0] : !obs.arr<8 x i32>
    obs.yield %v : i32
  }
  %t = obs.sync %r : !obs.arr<8 x i32>
  obs.return %t : !obs.arr<8 x i32>
}

// -----

// Inside a two's halves: the place is checked against the half, not the
// whole array it is a view of after flattening.
obs.kernel @half(%x: !obs.arr<16 x i32>) -> !obs.arr<16 x i32> {
  %r = obs.two %x : !obs.arr<16 x i32> -> !obs.arr<16 x i32> {
  ^bb0(%h: !obs.arr<8 x i32>):
    %g = obs.generate : !obs.arr<8 x i32> {
    ^bb0(%i: index):
      %c1 = arith.constant 1 : index
      %j = arith.addi %i, %c1 : index
      // expected-error @+1 {{'obs.index' op reads index 8 of an array of 8 elements}}
      %v = obs.index %h[%j] : !obs.arr<8 x i32>
      obs.yield %v : i32
    }
    %s = obs.sync %g : !obs.arr<8 x i32>
    obs.yield %s : !obs.arr<8 x i32>
  }
  obs.return %r : !obs.arr<16 x i32>
}

// -----

// Safe and kept: the neighbours clamped inside the array, a place from
// data (checked as it runs), and a place past the end under a branch on
// data (idem).
// CHECK-LABEL: obs.kernel @kept
obs.kernel @kept(%x: !obs.arr<32 x i32>) -> !obs.arr<32 x i32> {
  %r = obs.generate : !obs.arr<32 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c31 = arith.constant 31 : index
    %zero = arith.constant 0 : i32
    %last = arith.cmpi eq, %i, %c31 : index
    %next = arith.addi %i, %c1 : index
    %j = arith.select %last, %c31, %next : index
    %a = obs.index %x[%j] : !obs.arr<32 x i32>
    %k = arith.index_cast %a : i32 to index
    %b = obs.index %x[%k] : !obs.arr<32 x i32>
    %positive = arith.cmpi sgt, %b, %zero : i32
    %c = scf.if %positive -> (i32) {
      %past = arith.addi %i, %c31 : index
      %d = obs.index %x[%past] : !obs.arr<32 x i32>
      scf.yield %d : i32
    } else {
      scf.yield %b : i32
    }
    obs.yield %c : i32
  }
  %s = obs.sync %r : !obs.arr<32 x i32>
  obs.return %s : !obs.arr<32 x i32>
}
