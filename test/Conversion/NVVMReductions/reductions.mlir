// RUN: obs-opt %s --pass-pipeline='builtin.module(gpu.module(obs-nvvm-reductions))' | FileCheck %s
// RUN: obs-opt %s --pass-pipeline='builtin.module(gpu.module(obs-nvvm-reductions{relax-orderings}))' | FileCheck %s --check-prefix=RELAXED

// Tests of lib/Conversion/NVVMReductions: an atomic whose old value is
// unused, in global or shared memory, of an operation `red` has, becomes
// `red`; anything else stays an atomic.

gpu.module @kernels {
  // CHECK-LABEL: llvm.func @k(
  // RELAXED-LABEL: llvm.func @k(
  llvm.func @k(%global: !llvm.ptr, %other: !llvm.ptr<1>, %shared: !llvm.ptr<3>, %i: i64, %v: i32, %w: i64, %f: f32, %d: f64, %b: i8) attributes {nvvm.kernel} {
    // A kernel argument's element is global memory.
    // CHECK: %[[AT:.*]] = llvm.getelementptr %arg0[%arg3]
    // CHECK: %[[GLOBAL:.*]] = llvm.addrspacecast %[[AT]] : !llvm.ptr to !llvm.ptr<1>
    // CHECK: llvm.inline_asm has_side_effects "red.release.gpu.global.add.u32 [$0], $1;", "l,r,~{memory}" %[[GLOBAL]], %arg4
    // RELAXED: "red.relaxed.gpu.global.add.u32 [$0], $1;"
    %at = llvm.getelementptr %global[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %0 = llvm.atomicrmw add %at, %v acq_rel : !llvm.ptr, i32
    // CHECK: "red.relaxed.gpu.shared.max.s32 [$0], $1;", "l,r,~{memory}" %arg2, %arg4
    %1 = llvm.atomicrmw max %shared, %v monotonic : !llvm.ptr<3>, i32
    // CHECK: "red.release.gpu.global.min.u64 [$0], $1;", "l,l,~{memory}" %arg1, %arg5
    %2 = llvm.atomicrmw umin %other, %w seq_cst : !llvm.ptr<1>, i64
    // CHECK: "red.release.gpu.shared.or.b32 [$0], $1;"
    %3 = llvm.atomicrmw _or %shared, %v acq_rel : !llvm.ptr<3>, i32
    // CHECK: "red.release.gpu.global.and.b64 [$0], $1;"
    %4 = llvm.atomicrmw _and %other, %w acq_rel : !llvm.ptr<1>, i64
    // CHECK: "red.release.gpu.shared.add.f32 [$0], $1;", "l,f,~{memory}"
    %5 = llvm.atomicrmw fadd %shared, %f acq_rel : !llvm.ptr<3>, f32
    // CHECK: "red.release.gpu.global.add.f64 [$0], $1;", "l,d,~{memory}"
    %6 = llvm.atomicrmw fadd %other, %d acq_rel : !llvm.ptr<1>, f64
    // Kept: float max (NVPTX's compare-and-swap loop), a narrow integer, a
    // used result, a volatile atomic, and a generic pointer that is not a
    // kernel argument's.
    // CHECK: llvm.atomicrmw fmax
    %7 = llvm.atomicrmw fmax %shared, %f acq_rel : !llvm.ptr<3>, f32
    // CHECK: llvm.atomicrmw add %{{.*}} : !llvm.ptr<3>, i8
    %8 = llvm.atomicrmw add %shared, %b acq_rel : !llvm.ptr<3>, i8
    // CHECK: %[[OLD:.*]] = llvm.atomicrmw add %arg2, %arg4
    // CHECK: llvm.store %[[OLD]]
    %9 = llvm.atomicrmw add %shared, %v acq_rel : !llvm.ptr<3>, i32
    llvm.store %9, %other : i32, !llvm.ptr<1>
    // CHECK: llvm.atomicrmw volatile add
    %10 = llvm.atomicrmw volatile add %other, %v acq_rel : !llvm.ptr<1>, i32
    %generic = llvm.addrspacecast %shared : !llvm.ptr<3> to !llvm.ptr
    // CHECK: llvm.atomicrmw add %{{.*}} : !llvm.ptr, i32
    %11 = llvm.atomicrmw add %generic, %v acq_rel : !llvm.ptr, i32
    // CHECK-NOT: atomicrmw
    llvm.return
  }
}
