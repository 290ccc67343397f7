// RUN: obs-opt %s --obs-to-ptx | FileCheck %s --check-prefix=ISA
// RUN: obs-opt %s --obs-to-ptx="chip=sm_80 opt-level=1" | FileCheck %s --check-prefix=SM80
// RUN: obs-opt %s --obs-to-ptx="serialize=false" | FileCheck %s --check-prefix=NVVM
// RUN: %if ptxas %{ obs-opt %s --obs-to-ptx="format=bin toolkit=%cuda_toolkit" | FileCheck %s --check-prefix=BIN %}

// The cuda target's pipeline: PTX text by default, a cubin (ptxas) with
// format=bin, the NVVM dialect without serializing.

// ISA: llvm.func @increv(
// ISA: llvm.call @mgpuStreamCreate
// ISA: gpu.launch_func <%{{.*}} : !llvm.ptr> @obs_kernels::@increv
// ISA: llvm.call @mgpuStreamSynchronize
// ISA: gpu.binary @obs_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">
// ISA-SAME: assembly = "{{.*}}.target sm_90{{.*}}.visible .entry increv(
// ISA-SAME: bar.sync
// SM80: #nvvm.target<O = 1, chip = "sm_80"
// SM80-SAME: .target sm_80
// NVVM: gpu.module @obs_kernels [#nvvm.target
// NVVM: llvm.func @increv(%{{.*}}: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}) attributes {gpu.kernel
// NVVM: nvvm.barrier
// BIN: gpu.binary @obs_kernels [#gpu.object<{{.*}}bin = "\7FELF

obs.kernel @increv(%input: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %one = arith.constant 1 : i32
  %incremented = obs.map %input : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %stored = obs.sync %incremented : !obs.arr<64 x i32>
  %result = obs.rev %stored : !obs.arr<64 x i32>
  obs.return %result : !obs.arr<64 x i32>
}
