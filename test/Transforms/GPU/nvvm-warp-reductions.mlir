// RUN: obs-opt %s --pass-pipeline='builtin.module(gpu.module(obs-nvvm-warp-reductions{chip=sm_80}))' --obs-statistics 2> %t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: obs-opt %s --pass-pipeline='builtin.module(gpu.module(obs-nvvm-warp-reductions{chip=sm_75}))' | FileCheck %s --check-prefix=SM75
// RUN: obs-opt %s --pass-pipeline='builtin.module(gpu.module(obs-nvvm-warp-reductions))' | FileCheck %s --check-prefix=SM75

// Tests of lib/Transforms/GPU/NVVMWarpReductions.cpp: five butterfly
// shuffles of an i32 at distances 1, 2, 4, 8 and 16 (any order), full
// mask, clamp 31, each followed in its block by one associative and
// commutative integer operation on the shuffled value and the lane's own,
// become one redux.sync of the first value, from sm_80 on; anything short
// of that stays shuffles.

// STATS: obs-nvvm-warp-reductions
// STATS-NEXT: 5 warp-reductions

// SM75-NOT: nvvm.redux.sync

gpu.module @kernels {
  // CHECK-LABEL: llvm.func @sum(
  // CHECK-SAME: %[[V:.*]]: i32
  // CHECK: %[[FULL:.*]] = llvm.mlir.constant(-1 : i32)
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: %[[R:.*]] = nvvm.redux.sync add %[[V]], %[[FULL]] : i32 -> i32
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: llvm.return %[[R]]
  llvm.func @sum(%v: i32) -> i32 {
    %full = llvm.mlir.constant(-1 : i32) : i32
    %clamp = llvm.mlir.constant(31 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c16 = llvm.mlir.constant(16 : i32) : i32
    %s1 = nvvm.shfl.sync bfly %full, %v, %c1, %clamp : i32 -> i32
    %v1 = llvm.add %v, %s1 : i32
    %s2 = nvvm.shfl.sync bfly %full, %v1, %c2, %clamp : i32 -> i32
    %v2 = llvm.add %s2, %v1 : i32
    %s3 = nvvm.shfl.sync bfly %full, %v2, %c4, %clamp : i32 -> i32
    %v3 = llvm.add %v2, %s3 : i32
    %s4 = nvvm.shfl.sync bfly %full, %v3, %c8, %clamp : i32 -> i32
    %v4 = llvm.add %v3, %s4 : i32
    %s5 = nvvm.shfl.sync bfly %full, %v4, %c16, %clamp : i32 -> i32
    %v5 = llvm.add %v4, %s5 : i32
    llvm.return %v5 : i32
  }

  // Each operation redux.sync has, the distances in any order; a value of
  // the chain that something else uses stays, with its shuffles.
  // CHECK-LABEL: llvm.func @kinds(
  // CHECK-SAME: %[[V:.*]]: i32
  // CHECK: nvvm.redux.sync max %[[V]]
  // CHECK: nvvm.redux.sync umin %[[V]]
  // CHECK: nvvm.redux.sync xor %[[V]]
  // CHECK: %[[S1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[V]], %{{.*}}, %{{.*}} : i32 -> i32
  // CHECK: %[[KEPT:.*]] = llvm.or %[[V]], %[[S1]]
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: %[[OR:.*]] = nvvm.redux.sync or %[[V]]
  // CHECK: llvm.insertvalue %[[OR]], %{{.*}}[3]
  // CHECK: llvm.insertvalue %[[KEPT]], %{{.*}}[4]
  llvm.func @kinds(%v: i32) -> !llvm.struct<(i32, i32, i32, i32, i32)> {
    %full = llvm.mlir.constant(-1 : i32) : i32
    %clamp = llvm.mlir.constant(31 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c16 = llvm.mlir.constant(16 : i32) : i32
    %a1 = nvvm.shfl.sync bfly %full, %v, %c16, %clamp : i32 -> i32
    %m1 = llvm.intr.smax(%v, %a1) : (i32, i32) -> i32
    %a2 = nvvm.shfl.sync bfly %full, %m1, %c8, %clamp : i32 -> i32
    %m2 = llvm.intr.smax(%m1, %a2) : (i32, i32) -> i32
    %a3 = nvvm.shfl.sync bfly %full, %m2, %c4, %clamp : i32 -> i32
    %m3 = llvm.intr.smax(%m2, %a3) : (i32, i32) -> i32
    %a4 = nvvm.shfl.sync bfly %full, %m3, %c2, %clamp : i32 -> i32
    %m4 = llvm.intr.smax(%m3, %a4) : (i32, i32) -> i32
    %a5 = nvvm.shfl.sync bfly %full, %m4, %c1, %clamp : i32 -> i32
    %m5 = llvm.intr.smax(%m4, %a5) : (i32, i32) -> i32
    %b1 = nvvm.shfl.sync bfly %full, %v, %c4, %clamp : i32 -> i32
    %n1 = llvm.intr.umin(%v, %b1) : (i32, i32) -> i32
    %b2 = nvvm.shfl.sync bfly %full, %n1, %c1, %clamp : i32 -> i32
    %n2 = llvm.intr.umin(%n1, %b2) : (i32, i32) -> i32
    %b3 = nvvm.shfl.sync bfly %full, %n2, %c16, %clamp : i32 -> i32
    %n3 = llvm.intr.umin(%n2, %b3) : (i32, i32) -> i32
    %b4 = nvvm.shfl.sync bfly %full, %n3, %c8, %clamp : i32 -> i32
    %n4 = llvm.intr.umin(%n3, %b4) : (i32, i32) -> i32
    %b5 = nvvm.shfl.sync bfly %full, %n4, %c2, %clamp : i32 -> i32
    %n5 = llvm.intr.umin(%n4, %b5) : (i32, i32) -> i32
    %x1 = nvvm.shfl.sync bfly %full, %v, %c1, %clamp : i32 -> i32
    %y1 = llvm.xor %v, %x1 : i32
    %x2 = nvvm.shfl.sync bfly %full, %y1, %c2, %clamp : i32 -> i32
    %y2 = llvm.xor %y1, %x2 : i32
    %x3 = nvvm.shfl.sync bfly %full, %y2, %c4, %clamp : i32 -> i32
    %y3 = llvm.xor %y2, %x3 : i32
    %x4 = nvvm.shfl.sync bfly %full, %y3, %c8, %clamp : i32 -> i32
    %y4 = llvm.xor %y3, %x4 : i32
    %x5 = nvvm.shfl.sync bfly %full, %y4, %c16, %clamp : i32 -> i32
    %y5 = llvm.xor %y4, %x5 : i32
    %o1 = nvvm.shfl.sync bfly %full, %v, %c1, %clamp : i32 -> i32
    %p1 = llvm.or %v, %o1 : i32
    %o2 = nvvm.shfl.sync bfly %full, %p1, %c2, %clamp : i32 -> i32
    %p2 = llvm.or %p1, %o2 : i32
    %o3 = nvvm.shfl.sync bfly %full, %p2, %c4, %clamp : i32 -> i32
    %p3 = llvm.or %p2, %o3 : i32
    %o4 = nvvm.shfl.sync bfly %full, %p3, %c8, %clamp : i32 -> i32
    %p4 = llvm.or %p3, %o4 : i32
    %o5 = nvvm.shfl.sync bfly %full, %p4, %c16, %clamp : i32 -> i32
    %p5 = llvm.or %p4, %o5 : i32
    %u = llvm.mlir.undef : !llvm.struct<(i32, i32, i32, i32, i32)>
    %r0 = llvm.insertvalue %m5, %u[0] : !llvm.struct<(i32, i32, i32, i32, i32)>
    %r1 = llvm.insertvalue %n5, %r0[1] : !llvm.struct<(i32, i32, i32, i32, i32)>
    %r2 = llvm.insertvalue %y5, %r1[2] : !llvm.struct<(i32, i32, i32, i32, i32)>
    %r3 = llvm.insertvalue %p5, %r2[3] : !llvm.struct<(i32, i32, i32, i32, i32)>
    %r4 = llvm.insertvalue %p1, %r3[4] : !llvm.struct<(i32, i32, i32, i32, i32)>
    llvm.return %r4 : !llvm.struct<(i32, i32, i32, i32, i32)>
  }

  // Not a whole warp's fold, each for one reason: a distance twice (16
  // missing); a mask of half the warp; a clamp of segments of 16; a step
  // that mixes add and xor; an add whose overflow is poison (nsw); an i64;
  // a chain whose last step is in another block; a shuffle up. Each
  // starts from the argument, so that each is tried on its own.
  // CHECK-LABEL: llvm.func @not_whole(
  // CHECK-NOT: nvvm.redux.sync
  // CHECK: llvm.return
  llvm.func @not_whole(%v: i32, %w: i64, %c: i1) -> i32 {
    %full = llvm.mlir.constant(-1 : i32) : i32
    %half = llvm.mlir.constant(65535 : i32) : i32
    %clamp = llvm.mlir.constant(31 : i32) : i32
    %segments = llvm.mlir.constant(4127 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c16 = llvm.mlir.constant(16 : i32) : i32
    // A distance twice.
    %a1 = nvvm.shfl.sync bfly %full, %v, %c1, %clamp : i32 -> i32
    %b1 = llvm.add %v, %a1 : i32
    %a2 = nvvm.shfl.sync bfly %full, %b1, %c2, %clamp : i32 -> i32
    %b2 = llvm.add %b1, %a2 : i32
    %a3 = nvvm.shfl.sync bfly %full, %b2, %c4, %clamp : i32 -> i32
    %b3 = llvm.add %b2, %a3 : i32
    %a4 = nvvm.shfl.sync bfly %full, %b3, %c8, %clamp : i32 -> i32
    %b4 = llvm.add %b3, %a4 : i32
    %a5 = nvvm.shfl.sync bfly %full, %b4, %c8, %clamp : i32 -> i32
    %b5 = llvm.add %b4, %a5 : i32
    // Half the warp.
    %d1 = nvvm.shfl.sync bfly %half, %v, %c1, %clamp : i32 -> i32
    %e1 = llvm.add %v, %d1 : i32
    %d2 = nvvm.shfl.sync bfly %half, %e1, %c2, %clamp : i32 -> i32
    %e2 = llvm.add %e1, %d2 : i32
    %d3 = nvvm.shfl.sync bfly %half, %e2, %c4, %clamp : i32 -> i32
    %e3 = llvm.add %e2, %d3 : i32
    %d4 = nvvm.shfl.sync bfly %half, %e3, %c8, %clamp : i32 -> i32
    %e4 = llvm.add %e3, %d4 : i32
    %d5 = nvvm.shfl.sync bfly %half, %e4, %c16, %clamp : i32 -> i32
    %e5 = llvm.add %e4, %d5 : i32
    // Segments of 16 lanes.
    %f1 = nvvm.shfl.sync bfly %full, %v, %c1, %segments : i32 -> i32
    %g1 = llvm.add %v, %f1 : i32
    %f2 = nvvm.shfl.sync bfly %full, %g1, %c2, %segments : i32 -> i32
    %g2 = llvm.add %g1, %f2 : i32
    %f3 = nvvm.shfl.sync bfly %full, %g2, %c4, %segments : i32 -> i32
    %g3 = llvm.add %g2, %f3 : i32
    %f4 = nvvm.shfl.sync bfly %full, %g3, %c8, %segments : i32 -> i32
    %g4 = llvm.add %g3, %f4 : i32
    %f5 = nvvm.shfl.sync bfly %full, %g4, %c16, %segments : i32 -> i32
    %g5 = llvm.add %g4, %f5 : i32
    // Add, then xor.
    %h1 = nvvm.shfl.sync bfly %full, %v, %c1, %clamp : i32 -> i32
    %i1 = llvm.add %v, %h1 : i32
    %h2 = nvvm.shfl.sync bfly %full, %i1, %c2, %clamp : i32 -> i32
    %i2 = llvm.add %i1, %h2 : i32
    %h3 = nvvm.shfl.sync bfly %full, %i2, %c4, %clamp : i32 -> i32
    %i3 = llvm.xor %i2, %h3 : i32
    %h4 = nvvm.shfl.sync bfly %full, %i3, %c8, %clamp : i32 -> i32
    %i4 = llvm.xor %i3, %h4 : i32
    %h5 = nvvm.shfl.sync bfly %full, %i4, %c16, %clamp : i32 -> i32
    %i5 = llvm.xor %i4, %h5 : i32
    // An add without wrap-around.
    %j1 = nvvm.shfl.sync bfly %full, %v, %c1, %clamp : i32 -> i32
    %k1 = llvm.add %v, %j1 overflow<nsw> : i32
    %j2 = nvvm.shfl.sync bfly %full, %k1, %c2, %clamp : i32 -> i32
    %k2 = llvm.add %k1, %j2 overflow<nsw> : i32
    %j3 = nvvm.shfl.sync bfly %full, %k2, %c4, %clamp : i32 -> i32
    %k3 = llvm.add %k2, %j3 overflow<nsw> : i32
    %j4 = nvvm.shfl.sync bfly %full, %k3, %c8, %clamp : i32 -> i32
    %k4 = llvm.add %k3, %j4 overflow<nsw> : i32
    %j5 = nvvm.shfl.sync bfly %full, %k4, %c16, %clamp : i32 -> i32
    %k5 = llvm.add %k4, %j5 overflow<nsw> : i32
    // An i64 (two shuffles a step, which redux.sync has no form for).
    %w1 = nvvm.shfl.sync bfly %full, %v, %c1, %clamp : i32 -> i32
    %x1 = llvm.add %v, %w1 : i32
    %x2 = llvm.zext %x1 : i32 to i64
    %x3 = llvm.add %x2, %w : i64
    %x4 = llvm.trunc %x3 : i64 to i32
    // The last step in another block.
    %l1 = nvvm.shfl.sync bfly %full, %v, %c1, %clamp : i32 -> i32
    %m1 = llvm.add %v, %l1 : i32
    %l2 = nvvm.shfl.sync bfly %full, %m1, %c2, %clamp : i32 -> i32
    %m2 = llvm.add %m1, %l2 : i32
    %l3 = nvvm.shfl.sync bfly %full, %m2, %c4, %clamp : i32 -> i32
    %m3 = llvm.add %m2, %l3 : i32
    %l4 = nvvm.shfl.sync bfly %full, %m3, %c8, %clamp : i32 -> i32
    %m4 = llvm.add %m3, %l4 : i32
    llvm.cond_br %c, ^last, ^done(%m4 : i32)
  ^last:
    %l5 = nvvm.shfl.sync bfly %full, %m4, %c16, %clamp : i32 -> i32
    %m5 = llvm.add %m4, %l5 : i32
    llvm.br ^done(%m5 : i32)
  ^done(%n0: i32):
    // Shuffles up.
    %q1 = nvvm.shfl.sync up %full, %v, %c1, %clamp : i32 -> i32
    %r1 = llvm.add %v, %q1 : i32
    %q2 = nvvm.shfl.sync up %full, %r1, %c2, %clamp : i32 -> i32
    %r2 = llvm.add %r1, %q2 : i32
    %q3 = nvvm.shfl.sync up %full, %r2, %c4, %clamp : i32 -> i32
    %r3 = llvm.add %r2, %q3 : i32
    %q4 = nvvm.shfl.sync up %full, %r3, %c8, %clamp : i32 -> i32
    %r4 = llvm.add %r3, %q4 : i32
    %q5 = nvvm.shfl.sync up %full, %r4, %c16, %clamp : i32 -> i32
    %r5 = llvm.add %r4, %q5 : i32
    llvm.return %r5 : i32
  }
}
