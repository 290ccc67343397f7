// RUN: obs-opt %s --pass-pipeline='builtin.module(gpu.module(obs-nvvm-reductions))' | FileCheck %s --check-prefixes=CHECK,KEPT
// RUN: obs-opt %s --pass-pipeline='builtin.module(gpu.module(obs-nvvm-reductions{relax-orderings}))' | FileCheck %s --check-prefixes=RELAXED,KEPT
// RUN: obs-opt %s --pass-pipeline='builtin.module(gpu.module(obs-nvvm-reductions{relax-orderings chip=sm_52}))' | FileCheck %s --check-prefix=SM52
// RUN: obs-opt %s --pass-pipeline='builtin.module(gpu.module(obs-nvvm-reductions{relax-orderings chip=sm_30}))' | FileCheck %s --check-prefix=SM30

// Tests of lib/Transforms/GPU/NVVMReductions.cpp: an atomic whose old value is
// unused, in global or shared memory, of an operation `red` has, becomes
// `red` (relaxed, at the GPU's scope: no qualifiers, which every chip
// takes) where the atomic is relaxed or `relax-orderings` says to take it
// so; anything else stays an atomic.

gpu.module @kernels {
  // CHECK-LABEL: llvm.func @k(
  // RELAXED-LABEL: llvm.func @k(
  // SM52-LABEL: llvm.func @k(
  // SM30-LABEL: llvm.func @k(
  llvm.func @k(%global: !llvm.ptr, %other: !llvm.ptr<1>, %shared: !llvm.ptr<3>, %i: i64, %v: i32, %w: i64, %f: f32, %d: f64, %b: i8, %vector: vector<2xf32>, %pointer: !llvm.ptr) attributes {nvvm.kernel} {
    // A kernel argument's element is global memory. An acq_rel atomic
    // stays one, but for relax-orderings.
    // CHECK: %[[AT:.*]] = llvm.getelementptr %arg0[%arg3]
    // CHECK: llvm.atomicrmw add %[[AT]], %arg4 acq_rel
    // RELAXED: %[[AT:.*]] = llvm.getelementptr %arg0[%arg3]
    // RELAXED: %[[GLOBAL:.*]] = llvm.addrspacecast %[[AT]] : !llvm.ptr to !llvm.ptr<1>
    // RELAXED: llvm.inline_asm has_side_effects "red.global.add.u32 [$0], $1;", "l,r,~{memory}" %[[GLOBAL]], %arg4
    %at = llvm.getelementptr %global[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %0 = llvm.atomicrmw add %at, %v acq_rel : !llvm.ptr, i32
    // CHECK: "red.shared.max.s32 [$0], $1;", "l,r,~{memory}" %arg2, %arg4
    // RELAXED: "red.shared.max.s32 [$0], $1;", "l,r,~{memory}" %arg2, %arg4
    %1 = llvm.atomicrmw max %shared, %v monotonic : !llvm.ptr<3>, i32
    // CHECK: llvm.atomicrmw umin %arg1, %arg5 seq_cst
    // RELAXED: "red.global.min.u64 [$0], $1;", "l,l,~{memory}" %arg1, %arg5
    // PTX has 64-bit min, max, and and or from sm_32: below, atomics stay
    // (LLVM expands them to compare-and-swap loops; an adversarial run).
    // SM30: llvm.atomicrmw umin %arg1, %arg5 seq_cst
    %2 = llvm.atomicrmw umin %other, %w seq_cst : !llvm.ptr<1>, i64
    // RELAXED: "red.shared.or.b32 [$0], $1;"
    %3 = llvm.atomicrmw _or %shared, %v acq_rel : !llvm.ptr<3>, i32
    // RELAXED: "red.global.and.b64 [$0], $1;"
    // SM30: llvm.atomicrmw _and %arg1, %arg5 acq_rel
    %4 = llvm.atomicrmw _and %other, %w acq_rel : !llvm.ptr<1>, i64
    // RELAXED: "red.shared.add.f32 [$0], $1;", "l,f,~{memory}"
    // SM52: "red.shared.add.f32 [$0], $1;", "l,f,~{memory}"
    %5 = llvm.atomicrmw fadd %shared, %f acq_rel : !llvm.ptr<3>, f32
    // RELAXED: "red.global.add.f64 [$0], $1;", "l,d,~{memory}"
    // SM52: llvm.atomicrmw fadd %arg1, %arg7 acq_rel : !llvm.ptr<1>, f64
    %6 = llvm.atomicrmw fadd %other, %d acq_rel : !llvm.ptr<1>, f64
    // Kept: float max (NVPTX's compare-and-swap loop), a narrow integer, a
    // used result, a volatile atomic, and a generic pointer that is not a
    // kernel argument's.
    // KEPT: llvm.atomicrmw fmax
    %7 = llvm.atomicrmw fmax %shared, %f acq_rel : !llvm.ptr<3>, f32
    // KEPT: llvm.atomicrmw add %{{.*}} : !llvm.ptr<3>, i8
    %8 = llvm.atomicrmw add %shared, %b acq_rel : !llvm.ptr<3>, i8
    // KEPT: %[[OLD:.*]] = llvm.atomicrmw add %arg2, %arg4
    // KEPT: llvm.store %[[OLD]]
    %9 = llvm.atomicrmw add %shared, %v acq_rel : !llvm.ptr<3>, i32
    llvm.store %9, %other : i32, !llvm.ptr<1>
    // KEPT: llvm.atomicrmw volatile add
    %10 = llvm.atomicrmw volatile add %other, %v acq_rel : !llvm.ptr<1>, i32
    %generic = llvm.addrspacecast %shared : !llvm.ptr<3> to !llvm.ptr
    // KEPT: llvm.atomicrmw add %{{.*}} : !llvm.ptr, i32
    %11 = llvm.atomicrmw add %generic, %v acq_rel : !llvm.ptr, i32
    // Vectors and pointers: no `red`.
    // KEPT: llvm.atomicrmw fadd %{{.*}} : !llvm.ptr<1>, vector<2xf32>
    %12 = llvm.atomicrmw fadd %other, %vector acq_rel : !llvm.ptr<1>, vector<2xf32>
    // KEPT: llvm.atomicrmw xchg %{{.*}} : !llvm.ptr<1>, !llvm.ptr
    %13 = llvm.atomicrmw xchg %other, %pointer acq_rel : !llvm.ptr<1>, !llvm.ptr
    // KEPT-NOT: atomicrmw
    // RELAXED-NOT: atomicrmw
    llvm.return
  }
}
