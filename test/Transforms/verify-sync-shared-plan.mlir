// RUN: obs-opt %s -split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-verify-sync))' -verify-diagnostics

// Tests of the shared-memory plan's check (checkSharedPlan in
// lib/Analysis/KernelSimulation.cpp): a plan written in the input is proved
// like any other choice. Here both syncs' buffers are put at offset 0 of a
// 32-byte arena, but the last stage reads %a again after the second stage
// wrote %b over it: every element would read 10 (x + 1) for 100 (x + 1)
// (found by an adversarial run: cpu and the PTX answered 1010 for 110).

obs.kernel @overlapping_buffers(%input: !obs.arr<8 x i32>) -> !obs.arr<8 x i32>
    attributes {obs.shared_bytes = 32 : i64} {
  %m = obs.map %input : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  // expected-error @+1 {{the shared-memory plan ('obs.shared_offsets') puts this array's buffer over another's that is in use at the same time: in thread 0, a read of byte 0 of the arena finds what thread 0 wrote there for the other array}}
  %a = obs.sync %m {obs.shared_offsets = array<i64: 0>} : !obs.arr<8 x i32>
  %r = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %c10 = arith.constant 10 : i32
    %y = arith.muli %x, %c10 : i32
    obs.yield %y : i32
  }
  // expected-note @+1 {{the other array}}
  %b = obs.sync %r {obs.shared_offsets = array<i64: 0>} : !obs.arr<8 x i32>
  %o = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %p = obs.index %a[%i] : !obs.arr<8 x i32>
    %q = obs.index %b[%i] : !obs.arr<8 x i32>
    %c100 = arith.constant 100 : i32
    %pp = arith.muli %p, %c100 : i32
    %s = arith.addi %pp, %q : i32
    obs.yield %s : i32
  }
  obs.return %o : !obs.arr<8 x i32>
}

// -----

// Two buffers may share a place where the uses of one end, at a block
// barrier, before the other's begin: %c takes %a's place once %b holds
// what it needs of %a (the plan obs-plan-shared makes).

obs.kernel @reused_buffer(%input: !obs.arr<8 x i32>) -> !obs.arr<8 x i32>
    attributes {obs.shared_bytes = 64 : i64} {
  %a = obs.sync %input {obs.shared_offsets = array<i64: 0>} : !obs.arr<8 x i32>
  %r = obs.rev %a : !obs.arr<8 x i32>
  %b = obs.sync %r {obs.shared_offsets = array<i64: 32>} : !obs.arr<8 x i32>
  %s = obs.rev %b : !obs.arr<8 x i32>
  %c = obs.sync %s {obs.shared_offsets = array<i64: 0>} : !obs.arr<8 x i32>
  %o = obs.rev %c : !obs.arr<8 x i32>
  obs.return %o : !obs.arr<8 x i32>
}
