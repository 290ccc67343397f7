// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-verify-host-code | FileCheck %s
// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-host-to-llvm -o /dev/null

// Tests of lib/Conversion/HostToLLVM/VerifyHostCode.cpp, first in the host
// pipeline (obs-host-to-llvm): it lowers host code only. An obs kernel left
// in the module had its element code lowered as host code, and no longer
// verified; the pass stops at the first obs op, outermost first.
// expected-error @+1 {{'obs.kernel' op is left for the host pipeline, which lowers host code only: lower obs first (obs-reference, obs-to-cpu or obs-to-ptx)}}
obs.kernel @k(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %c = arith.constant 3 : i32
  %r = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %p = arith.cmpi slt, %x, %c : i32
    %y = scf.if %p -> i32 { scf.yield %x : i32 } else { scf.yield %c : i32 }
    obs.yield %y : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// Host code alone passes, unchanged.
// CHECK-LABEL: func.func @host
// CHECK-NEXT: arith.addi
func.func @host(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  return %b : i32
}

// -----

// Nor does it compile kernels: a gpu.func (obs-run --emit=gpu's output
// given to ref's pipeline) reached memref-to-llvm, which reported its
// workgroup memory without failing, and obs-opt exited 0.
gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op is left for the host pipeline, which compiles no kernels: the cpu target runs a gpu.module's functions (obs-gpu-to-cpu), and a GPU its binary (gpu-module-to-binary)}}
  gpu.func @k(%a: memref<8xi32>) workgroup(%w: memref<8xi32, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}
