// RUN: obs-opt %s --split-input-file --convert-obs-to-gpu | FileCheck %s

// Tests of lib/KernelLowering's budget for unrolled rounds
// (kMostUnrolledOps, 512): a stage's rounds, up to eight, are unrolled
// while its first round's ops times its rounds stay within the budget, and
// are a loop beyond it. 256 threads on 2,048 elements take 8 rounds.

// A round of a few ops: unrolled, each round's element at its constant
// offset.
// CHECK-LABEL: gpu.func @small_in_eight_rounds
// CHECK-NOT: scf.for
// CHECK-COUNT-8: memref.load
// CHECK-NOT: memref.load
// CHECK: gpu.return
obs.kernel @small_in_eight_rounds(%a: !obs.arr<2048 x i32>) -> !obs.arr<2048 x i32> attributes {threads = 256} {
  %r = obs.generate : !obs.arr<2048 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<2048 x i32>
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  %s = obs.sync strided<256> %r : !obs.arr<2048 x i32>
  obs.return %s : !obs.arr<2048 x i32>
}

// -----

// Sixteen reads a round, over a hundred ops: eight rounds unrolled would
// be over the budget, so they are a loop, whose body reads sixteen times.
// CHECK-LABEL: gpu.func @large_in_eight_rounds
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK-COUNT-16: memref.load
// CHECK-NOT: memref.load
// CHECK: gpu.return
obs.kernel @large_in_eight_rounds(%a: !obs.arr<2048 x i32>) -> !obs.arr<2048 x i32> attributes {threads = 256} {
  %r = obs.generate : !obs.arr<2048 x i32> {
  ^bb0(%i: index):
    %x0 = obs.index %a[%i] : !obs.arr<2048 x i32>
    %c1 = arith.constant 1 : index
    %i1 = arith.xori %i, %c1 : index
    %x1 = obs.index %a[%i1] : !obs.arr<2048 x i32>
    %s1 = arith.addi %x0, %x1 : i32
    %c2 = arith.constant 2 : index
    %i2 = arith.xori %i, %c2 : index
    %x2 = obs.index %a[%i2] : !obs.arr<2048 x i32>
    %s2 = arith.addi %s1, %x2 : i32
    %c3 = arith.constant 3 : index
    %i3 = arith.xori %i, %c3 : index
    %x3 = obs.index %a[%i3] : !obs.arr<2048 x i32>
    %s3 = arith.addi %s2, %x3 : i32
    %c4 = arith.constant 4 : index
    %i4 = arith.xori %i, %c4 : index
    %x4 = obs.index %a[%i4] : !obs.arr<2048 x i32>
    %s4 = arith.addi %s3, %x4 : i32
    %c5 = arith.constant 5 : index
    %i5 = arith.xori %i, %c5 : index
    %x5 = obs.index %a[%i5] : !obs.arr<2048 x i32>
    %s5 = arith.addi %s4, %x5 : i32
    %c6 = arith.constant 6 : index
    %i6 = arith.xori %i, %c6 : index
    %x6 = obs.index %a[%i6] : !obs.arr<2048 x i32>
    %s6 = arith.addi %s5, %x6 : i32
    %c7 = arith.constant 7 : index
    %i7 = arith.xori %i, %c7 : index
    %x7 = obs.index %a[%i7] : !obs.arr<2048 x i32>
    %s7 = arith.addi %s6, %x7 : i32
    %c8 = arith.constant 8 : index
    %i8 = arith.xori %i, %c8 : index
    %x8 = obs.index %a[%i8] : !obs.arr<2048 x i32>
    %s8 = arith.addi %s7, %x8 : i32
    %c9 = arith.constant 9 : index
    %i9 = arith.xori %i, %c9 : index
    %x9 = obs.index %a[%i9] : !obs.arr<2048 x i32>
    %s9 = arith.addi %s8, %x9 : i32
    %c10 = arith.constant 10 : index
    %i10 = arith.xori %i, %c10 : index
    %x10 = obs.index %a[%i10] : !obs.arr<2048 x i32>
    %s10 = arith.addi %s9, %x10 : i32
    %c11 = arith.constant 11 : index
    %i11 = arith.xori %i, %c11 : index
    %x11 = obs.index %a[%i11] : !obs.arr<2048 x i32>
    %s11 = arith.addi %s10, %x11 : i32
    %c12 = arith.constant 12 : index
    %i12 = arith.xori %i, %c12 : index
    %x12 = obs.index %a[%i12] : !obs.arr<2048 x i32>
    %s12 = arith.addi %s11, %x12 : i32
    %c13 = arith.constant 13 : index
    %i13 = arith.xori %i, %c13 : index
    %x13 = obs.index %a[%i13] : !obs.arr<2048 x i32>
    %s13 = arith.addi %s12, %x13 : i32
    %c14 = arith.constant 14 : index
    %i14 = arith.xori %i, %c14 : index
    %x14 = obs.index %a[%i14] : !obs.arr<2048 x i32>
    %s14 = arith.addi %s13, %x14 : i32
    %c15 = arith.constant 15 : index
    %i15 = arith.xori %i, %c15 : index
    %x15 = obs.index %a[%i15] : !obs.arr<2048 x i32>
    %s15 = arith.addi %s14, %x15 : i32
    obs.yield %s15 : i32
  }
  %s = obs.sync strided<256> %r : !obs.arr<2048 x i32>
  obs.return %s : !obs.arr<2048 x i32>
}

// -----

// The same round in two rounds is within the budget: unrolled.
// CHECK-LABEL: gpu.func @large_in_two_rounds
// CHECK-NOT: scf.for
// CHECK-COUNT-32: memref.load
// CHECK-NOT: memref.load
// CHECK: gpu.return
obs.kernel @large_in_two_rounds(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> attributes {threads = 256} {
  %r = obs.generate : !obs.arr<512 x i32> {
  ^bb0(%i: index):
    %x0 = obs.index %a[%i] : !obs.arr<512 x i32>
    %c1 = arith.constant 1 : index
    %i1 = arith.xori %i, %c1 : index
    %x1 = obs.index %a[%i1] : !obs.arr<512 x i32>
    %s1 = arith.addi %x0, %x1 : i32
    %c2 = arith.constant 2 : index
    %i2 = arith.xori %i, %c2 : index
    %x2 = obs.index %a[%i2] : !obs.arr<512 x i32>
    %s2 = arith.addi %s1, %x2 : i32
    %c3 = arith.constant 3 : index
    %i3 = arith.xori %i, %c3 : index
    %x3 = obs.index %a[%i3] : !obs.arr<512 x i32>
    %s3 = arith.addi %s2, %x3 : i32
    %c4 = arith.constant 4 : index
    %i4 = arith.xori %i, %c4 : index
    %x4 = obs.index %a[%i4] : !obs.arr<512 x i32>
    %s4 = arith.addi %s3, %x4 : i32
    %c5 = arith.constant 5 : index
    %i5 = arith.xori %i, %c5 : index
    %x5 = obs.index %a[%i5] : !obs.arr<512 x i32>
    %s5 = arith.addi %s4, %x5 : i32
    %c6 = arith.constant 6 : index
    %i6 = arith.xori %i, %c6 : index
    %x6 = obs.index %a[%i6] : !obs.arr<512 x i32>
    %s6 = arith.addi %s5, %x6 : i32
    %c7 = arith.constant 7 : index
    %i7 = arith.xori %i, %c7 : index
    %x7 = obs.index %a[%i7] : !obs.arr<512 x i32>
    %s7 = arith.addi %s6, %x7 : i32
    %c8 = arith.constant 8 : index
    %i8 = arith.xori %i, %c8 : index
    %x8 = obs.index %a[%i8] : !obs.arr<512 x i32>
    %s8 = arith.addi %s7, %x8 : i32
    %c9 = arith.constant 9 : index
    %i9 = arith.xori %i, %c9 : index
    %x9 = obs.index %a[%i9] : !obs.arr<512 x i32>
    %s9 = arith.addi %s8, %x9 : i32
    %c10 = arith.constant 10 : index
    %i10 = arith.xori %i, %c10 : index
    %x10 = obs.index %a[%i10] : !obs.arr<512 x i32>
    %s10 = arith.addi %s9, %x10 : i32
    %c11 = arith.constant 11 : index
    %i11 = arith.xori %i, %c11 : index
    %x11 = obs.index %a[%i11] : !obs.arr<512 x i32>
    %s11 = arith.addi %s10, %x11 : i32
    %c12 = arith.constant 12 : index
    %i12 = arith.xori %i, %c12 : index
    %x12 = obs.index %a[%i12] : !obs.arr<512 x i32>
    %s12 = arith.addi %s11, %x12 : i32
    %c13 = arith.constant 13 : index
    %i13 = arith.xori %i, %c13 : index
    %x13 = obs.index %a[%i13] : !obs.arr<512 x i32>
    %s13 = arith.addi %s12, %x13 : i32
    %c14 = arith.constant 14 : index
    %i14 = arith.xori %i, %c14 : index
    %x14 = obs.index %a[%i14] : !obs.arr<512 x i32>
    %s14 = arith.addi %s13, %x14 : i32
    %c15 = arith.constant 15 : index
    %i15 = arith.xori %i, %c15 : index
    %x15 = obs.index %a[%i15] : !obs.arr<512 x i32>
    %s15 = arith.addi %s14, %x15 : i32
    obs.yield %s15 : i32
  }
  %s = obs.sync strided<256> %r : !obs.arr<512 x i32>
  obs.return %s : !obs.arr<512 x i32>
}
