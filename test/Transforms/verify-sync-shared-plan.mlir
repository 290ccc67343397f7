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

// -----

// Buffers that overlap in part: %b's 32 bytes begin halfway into %a's,
// and the last stage reads %a again. Threads 0 to 3 read %a's first half,
// which only %a wrote; thread 4 is the first to read a byte %b wrote over
// (byte 16, %b's element 0, which thread 0 computed).

obs.kernel @half_overlapping_buffers(%input: !obs.arr<8 x i32>)
    -> !obs.arr<8 x i32> attributes {obs.shared_bytes = 48 : i64} {
  // expected-error @+1 {{in thread 4, a read of byte 16 of the arena finds what thread 0 wrote there for the other array}}
  %a = obs.sync %input {obs.shared_offsets = array<i64: 0>} : !obs.arr<8 x i32>
  %r = obs.rev %input : !obs.arr<8 x i32>
  // expected-note @+1 {{the other array}}
  %b = obs.sync %r {obs.shared_offsets = array<i64: 16>} : !obs.arr<8 x i32>
  %o = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    %y = obs.index %b[%i] : !obs.arr<8 x i32>
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %o : !obs.arr<8 x i32>
}

// -----

// A read at a place from data stands for every byte of its buffer: after
// %b was written over %a's second half, thread 0's read of %a at a place
// %b gives finds %b's bytes from byte 16 on.

obs.kernel @gather_over_overlap(%input: !obs.arr<8 x i32>)
    -> !obs.arr<8 x i32> attributes {obs.shared_bytes = 48 : i64} {
  // expected-error @+1 {{in thread 0, a read of byte 16 of the arena finds what thread 0 wrote there for the other array}}
  %a = obs.sync %input {obs.shared_offsets = array<i64: 0>} : !obs.arr<8 x i32>
  %r = obs.rev %input : !obs.arr<8 x i32>
  // expected-note @+1 {{the other array}}
  %b = obs.sync %r {obs.shared_offsets = array<i64: 16>} : !obs.arr<8 x i32>
  %o = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %y = obs.index %b[%i] : !obs.arr<8 x i32>
    %c7 = arith.constant 7 : i32
    %k = arith.andi %y, %c7 : i32
    %j = arith.index_castui %k : i32 to index
    %x = obs.index %a[%j] : !obs.arr<8 x i32>
    obs.yield %x : i32
  }
  obs.return %o : !obs.arr<8 x i32>
}

// -----

// The same gather from a buffer that took another's place once that one's
// uses had ended: every byte it may read, it wrote itself.

obs.kernel @gather_after_reuse(%input: !obs.arr<8 x i32>) -> !obs.arr<8 x i32>
    attributes {obs.shared_bytes = 64 : i64} {
  %a = obs.sync %input {obs.shared_offsets = array<i64: 0>} : !obs.arr<8 x i32>
  %r = obs.rev %a : !obs.arr<8 x i32>
  %b = obs.sync %r {obs.shared_offsets = array<i64: 32>} : !obs.arr<8 x i32>
  %s = obs.rev %b : !obs.arr<8 x i32>
  %c = obs.sync %s {obs.shared_offsets = array<i64: 0>} : !obs.arr<8 x i32>
  %o = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %y = obs.index %c[%i] : !obs.arr<8 x i32>
    %c7 = arith.constant 7 : i32
    %k = arith.andi %y, %c7 : i32
    %j = arith.index_castui %k : i32 to index
    %x = obs.index %c[%j] : !obs.arr<8 x i32>
    obs.yield %x : i32
  }
  obs.return %o : !obs.arr<8 x i32>
}

// -----

// A padded buffer over a dead one's place, read at places from data: the
// read stands for the whole buffer, but it reads an element, never a row's
// padding, which %b's stage does not write and which still holds %a's
// bytes 128 to 131 (%b's rows are 33 i32: 32 elements and 1 of padding).
// No overlap (found by obs-fuzz seed 2026120203 #4617, whose plan
// obs-plan-shared had made and the check then refused).

obs.kernel @padding_over_a_dead_buffer(%input: !obs.arr<64 x i32>) -> !obs.arr<64 x i32>
    attributes {obs.shared_bytes = 768 : i64} {
  %a = obs.sync %input {obs.shared_offsets = array<i64: 0>} : !obs.arr<64 x i32>
  %r = obs.rev %a : !obs.arr<64 x i32>
  %c = obs.sync %r {obs.shared_offsets = array<i64: 512>} : !obs.arr<64 x i32>
  %s = obs.rev %c : !obs.arr<64 x i32>
  %b = obs.sync %s {obs.shared_offsets = array<i64: 0>, obs.shared_padding = 1 : i64} : !obs.arr<64 x i32>
  %o = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %x = obs.index %b[%i] : !obs.arr<64 x i32>
    %xi = arith.index_cast %x : i32 to index
    %c64 = arith.constant 64 : index
    %j = arith.remui %xi, %c64 : index
    %y = obs.index %b[%j] : !obs.arr<64 x i32>
    obs.yield %y : i32
  }
  obs.return %o : !obs.arr<64 x i32>
}
