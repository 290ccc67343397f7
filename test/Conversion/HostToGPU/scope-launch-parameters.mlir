// RUN: obs-opt %s --obs-scope-launch-parameters | FileCheck %s
// RUN: obs-opt %s --obs-scope-launch-parameters --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// Each launch of host code, in a loop or not, between a stack save and a
// restore of what was saved; the kernels' own code is left as it is.
// STATS: obs-scope-launch-parameters
// STATS-NEXT: 2 launches-scoped

module attributes {gpu.container_module} {
  // CHECK: gpu.func @kernel
  // CHECK-NEXT: gpu.return
  gpu.module @kernels {
    gpu.func @kernel(%arg0: !llvm.ptr) kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: llvm.func @host(
  llvm.func @host(%data: !llvm.ptr, %n: i64) {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    // CHECK: %[[SAVED:.*]] = llvm.intr.stacksave : !llvm.ptr
    // CHECK-NEXT: gpu.launch_func @kernels::@kernel
    // CHECK-NEXT: llvm.intr.stackrestore %[[SAVED]] : !llvm.ptr
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%data : !llvm.ptr)
    llvm.br ^loop(%c0 : i64)
  ^loop(%i: i64):
    %more = llvm.icmp "slt" %i, %n : i64
    llvm.cond_br %more, ^body, ^done
  ^body:
    // CHECK: ^bb2:
    // CHECK-NEXT: %[[INLOOP:.*]] = llvm.intr.stacksave : !llvm.ptr
    // CHECK-NEXT: gpu.launch_func @kernels::@kernel
    // CHECK-NEXT: llvm.intr.stackrestore %[[INLOOP]] : !llvm.ptr
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%data : !llvm.ptr)
    %next = llvm.add %i, %c1 : i64
    llvm.br ^loop(%next : i64)
  ^done:
    llvm.return
  }
}
