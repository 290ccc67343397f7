// RUN: obs-opt %s --pass-pipeline='builtin.module(gpu.module(obs-merge-shuffles))' --allow-unregistered-dialect --obs-statistics 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats

// Tests of lib/Transforms/GPU/MergeShuffles.cpp: a shfl.sync equal to one before it
// in its block (operands, kind and attributes) is replaced by it; one whose
// value nothing uses is erased. Shuffles of other blocks, other operands,
// another kind or other tags stay.

// STATS: obs-merge-shuffles
// STATS-DAG: 1 shuffles-merged
// STATS-DAG: 1 shuffles-erased

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @k(
  gpu.func @k(%v: i32, %w: i32, %c: i1) kernel {
    %mask = arith.constant -1 : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %clamp = arith.constant 31 : i32
    // CHECK: %[[A:.*]] = nvvm.shfl.sync bfly %{{.*}}, %arg0, %c1_i32, %c31_i32 {obs.shuffle_read = 3 : i64} : i32 -> i32
    %a = nvvm.shfl.sync bfly %mask, %v, %one, %clamp {obs.shuffle_read = 3 : i64} : i32 -> i32
    // The same again: merged.
    %b = nvvm.shfl.sync bfly %mask, %v, %one, %clamp {obs.shuffle_read = 3 : i64} : i32 -> i32
    // Another value, another offset, another kind, another sync's tag.
    // CHECK-NEXT: %[[D:.*]] = nvvm.shfl.sync bfly %{{.*}}, %arg1, %c1_i32
    // CHECK-NEXT: %[[E:.*]] = nvvm.shfl.sync bfly %{{.*}}, %arg0, %c2_i32
    // CHECK-NEXT: %[[F:.*]] = nvvm.shfl.sync down %{{.*}}, %arg0, %c1_i32
    // CHECK-NEXT: %[[G:.*]] = nvvm.shfl.sync bfly %{{.*}}, %arg0, %c1_i32, %c31_i32 {obs.shuffle_read = 4 : i64}
    %d = nvvm.shfl.sync bfly %mask, %w, %one, %clamp {obs.shuffle_read = 3 : i64} : i32 -> i32
    %e = nvvm.shfl.sync bfly %mask, %v, %two, %clamp {obs.shuffle_read = 3 : i64} : i32 -> i32
    %f = nvvm.shfl.sync down %mask, %v, %one, %clamp {obs.shuffle_read = 3 : i64} : i32 -> i32
    %g = nvvm.shfl.sync bfly %mask, %v, %one, %clamp {obs.shuffle_read = 4 : i64} : i32 -> i32
    // Unused: erased.
    // CHECK-NOT: nvvm.shfl.sync
    %unused = nvvm.shfl.sync bfly %mask, %w, %two, %clamp {obs.shuffle_read = 3 : i64} : i32 -> i32
    // CHECK: scf.if
    scf.if %c {
      // In another block: kept, though equal to %a.
      // CHECK-NEXT: %[[H:.*]] = nvvm.shfl.sync bfly %{{.*}}, %arg0, %c1_i32
      %h = nvvm.shfl.sync bfly %mask, %v, %one, %clamp {obs.shuffle_read = 3 : i64} : i32 -> i32
      // CHECK-NEXT: arith.addi %[[H]], %[[A]]
      %sum = arith.addi %h, %a : i32
      "test.use"(%sum) : (i32) -> ()
    }
    // CHECK: arith.addi %[[A]], %[[A]]
    %s1 = arith.addi %a, %b : i32
    %s2 = arith.addi %d, %e : i32
    %s3 = arith.addi %f, %g : i32
    "test.use"(%s1, %s2, %s3) : (i32, i32, i32) -> ()
    gpu.return
  }
}
