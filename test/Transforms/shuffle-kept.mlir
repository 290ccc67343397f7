// RUN: obs-opt %s -split-input-file --obs-verify-sync | FileCheck %s
// RUN: obs-opt %s -split-input-file --obs-optimize | FileCheck %s --check-prefix=OPT
// RUN: obs-opt %s -split-input-file --convert-obs-to-gpu | FileCheck %s --check-prefix=GPU

// Written `shuffle` storage that is safe: kept by the verifier and by
// obs-optimize, and lowered to shfl.sync. shuffle-errors.mlir has the
// wrong ones.

// A warp's Kogge-Stone step at distance 1, with its read before its
// branch: every lane reads (lane 0 its own element), so every lane runs
// the shuffle.
// CHECK-LABEL: obs.kernel @kogge_stone_step
// CHECK: obs.sync shuffle %{{.*}} : !obs.arr<64 x i32>
// OPT-LABEL: obs.kernel @kogge_stone_step
// OPT: obs.sync shuffle plan(strided<64>) %{{.*}} : !obs.arr<64 x i32>
// The element's own value comes from the thread's registers; the other is
// one shfl.sync.up by 1 over the whole warp (mask -1, first lane 0): the
// owner's lane is the reading lane's less 1 in every thread, and lane 0's
// own, as shfl.sync.up gives.
// GPU-LABEL: gpu.func @kogge_stone_step
// GPU-NOT: gpu.barrier
// GPU: arith.cmpi eq, %{{.*}}, %{{.*}} {obs.register_read = 0 : i64}
// GPU: arith.cmpi eq, %{{.*}}, %{{.*}} {obs.shuffle_read = 0 : i64}
// GPU-NOT: arith.remui
// GPU: nvvm.shfl.sync up %c-1_i32, %{{.*}}, %c1_i32, %c0_i32 {obs.shuffle_read = 0 : i64} : i32 -> i32
// GPU-NOT: nvvm.shfl.sync
// GPU: gpu.return
obs.kernel @kogge_stone_step(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %0 = obs.sync shuffle %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c31 = arith.constant 31 : index
    %x = obs.index %0[%i] : !obs.arr<64 x i32>
    %lane = arith.andi %i, %c31 : index
    %has = arith.cmpi uge, %lane, %c1 : index
    %im1 = arith.subi %i, %c1 : index
    %j = arith.select %has, %im1, %i : index
    %y = obs.index %0[%j] : !obs.arr<64 x i32>
    %r = scf.if %has -> (i32) {
      %s = arith.addi %x, %y : i32
      scf.yield %s : i32
    } else {
      scf.yield %x : i32
    }
    obs.yield %r : i32
  }
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// -----

// 40 threads: the second warp has 8 lanes, and its shuffles name exactly
// them (mask 0xff); each element takes its neighbour's, i xor 1: one
// shfl.sync.bfly by 1.
// CHECK-LABEL: obs.kernel @partial_warp
// CHECK: obs.sync shuffle %{{.*}} : !obs.arr<40 x i32>
// GPU-LABEL: gpu.func @partial_warp
// GPU-DAG: %[[PARTIAL:.*]] = arith.constant 255 : i32
// GPU-DAG: %[[FULL:.*]] = arith.constant -1 : i32
// GPU: %[[MASK:.*]] = arith.select %{{.*}}, %[[PARTIAL]], %[[FULL]] : i32
// GPU: nvvm.shfl.sync bfly %[[MASK]], %{{.*}}, %c1_i32, %c31_i32
obs.kernel @partial_warp(%a: !obs.arr<40 x i32>) -> !obs.arr<40 x i32> attributes {threads = 40} {
  %0 = obs.sync shuffle %a : !obs.arr<40 x i32>
  %1 = obs.generate : !obs.arr<40 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %j = arith.xori %i, %c1 : index
    %x = obs.index %0[%j] : !obs.arr<40 x i32>
    obs.yield %x : i32
  }
  %2 = obs.sync %1 : !obs.arr<40 x i32>
  obs.return %2 : !obs.arr<40 x i32>
}

// -----

// Two rounds (strided<32> over 64 elements): element i + 1 may be in the
// other round, so each round's value is shuffled and the element's round
// chosen; lane 31 takes lane 0's, so no constant offset fits: idx. A 64-bit element is two shuffles of 32 bits: four per read, and
// the reading stage's two rounds read once each.
// CHECK-LABEL: obs.kernel @two_rounds_wide
// CHECK: obs.sync strided<32> shuffle %{{.*}} : !obs.arr<64 x i64>
// GPU-LABEL: gpu.func @two_rounds_wide
// GPU-COUNT-8: nvvm.shfl.sync idx
// GPU-NOT: nvvm.shfl.sync
// GPU: gpu.return
obs.kernel @two_rounds_wide(%a: !obs.arr<64 x i64>) -> !obs.arr<64 x i64> attributes {threads = 32} {
  %0 = obs.sync shuffle strided<32> %a : !obs.arr<64 x i64>
  %1 = obs.generate : !obs.arr<64 x i64> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %n = arith.addi %i, %c1 : index
    %j = arith.andi %n, %c63 : index
    %x = obs.index %0[%j] : !obs.arr<64 x i64>
    obs.yield %x : i64
  }
  %2 = obs.sync strided<32> %1 : !obs.arr<64 x i64>
  obs.return %2 : !obs.arr<64 x i64>
}
