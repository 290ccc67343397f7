// RUN: split-file %s %t
// RUN: obs-opt %t/apart.mlir --obs-gpu-module-to-binary --obs-statistics 2> %t.stats | FileCheck %s --check-prefix=APART
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: obs-opt %t/apart.mlir --obs-gpu-module-to-binary | grep -o '[.]address_size' | count 1
// RUN: obs-opt %t/apart.mlir --obs-gpu-module-to-binary | grep -o '[.]version' | count 1
// Nothing on stderr (an LLVM timer once reported itself there at exit).
// RUN: obs-opt %t/apart.mlir --obs-gpu-module-to-binary 2>&1 >/dev/null | count 0
//
// Split or whole, each kernel's PTX is the same but for the names of its
// labels (numbered by the function's place in its module), comments (the
// whole module's list every demoted shared buffer before the first entry)
// and blank lines between the parts.
// RUN: obs-opt %t/apart.mlir --obs-gpu-module-to-binary | sed -E -f %S/Inputs/normalise-ptx.sed > %t.split
// RUN: obs-opt %t/apart.mlir --obs-gpu-module-to-binary=split-kernels=false --obs-statistics 2> %t.whole.stats | sed -E -f %S/Inputs/normalise-ptx.sed > %t.whole
// RUN: diff %t.split %t.whole
// RUN: FileCheck %s --check-prefix=WHOLE < %t.whole.stats
//
// Kernels that share a function, or declare one, are compiled whole.
// RUN: obs-opt %t/shared.mlir --obs-gpu-module-to-binary --obs-statistics 2> %t.shared.stats | FileCheck %s --check-prefix=SHARED
// RUN: FileCheck %s --check-prefix=WHOLE < %t.shared.stats
// RUN: obs-opt %t/declared.mlir --obs-gpu-module-to-binary --obs-statistics 2> %t.declared.stats | FileCheck %s --check-prefix=DECLARED
// RUN: FileCheck %s --check-prefix=WHOLE < %t.declared.stats
//
// A cubin cannot be joined: format=bin compiles whole, as upstream. And a
// format that does not exist is one error.
// RUN: not obs-opt %t/apart.mlir --obs-gpu-module-to-binary=format=elf 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: obs-gpu-module-to-binary: unknown format 'elf' (llvm, isa, bin or fatbin)
// FORMAT-NOT: error

// Two kernels, one with a shared buffer of its own and one with a branch:
// each is compiled on its own, and the PTX has one header, then the first
// kernel, then the second, as the module orders them.
// APART: gpu.binary @kernels
// APART-SAME: .target sm_90\0A.address_size 64
// APART-SAME: .visible .entry first(
// APART-SAME: .shared .align 16 .b8 __wg_first_0[128]
// APART-SAME: .visible .entry second(
// APART-NOT: gpu.module
// STATS: obs-gpu-module-to-binary
// STATS-NEXT: 1 modules-split
// STATS-NEXT: 2 parts
// WHOLE-NOT: modules-split

//--- apart.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    llvm.mlir.global internal @__wg_first_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<128 x i8>
    llvm.func @first(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %buffer = llvm.mlir.addressof @__wg_first_0 : !llvm.ptr<3>
      %slot = llvm.getelementptr %buffer[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
      llvm.store %tid, %slot : i32, !llvm.ptr<3>
      nvvm.barrier0
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %other = llvm.xor %tid, %c31 : i32
      %read = llvm.getelementptr %buffer[%other] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
      %value = llvm.load %read : !llvm.ptr<3> -> i32
      %p = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %value, %p : i32, !llvm.ptr
      llvm.return
    }
    llvm.func @second(%out: !llvm.ptr, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %inside = llvm.icmp "ult" %tid, %n : i32
      llvm.cond_br %inside, ^store, ^done
    ^store:
      %two = llvm.mlir.constant(2 : i32) : i32
      %v = llvm.mul %tid, %two : i32
      %p = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %v, %p : i32, !llvm.ptr
      llvm.br ^done
    ^done:
      llvm.return
    }
  }
}

// SHARED: gpu.binary @kernels
// SHARED-SAME: .func  (.param .b32 func_retval0) twice(
// SHARED-SAME: .visible .entry first(
// SHARED-SAME: .visible .entry second(

//--- shared.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<O = 0, chip = "sm_90">] {
    llvm.func @twice(%x: i32) -> i32 attributes {passthrough = ["noinline"]} {
      %v = llvm.add %x, %x : i32
      llvm.return %v : i32
    }
    llvm.func @first(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %v = llvm.call @twice(%tid) : (i32) -> i32
      llvm.store %v, %out : i32, !llvm.ptr
      llvm.return
    }
    llvm.func @second(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %v = llvm.call @twice(%tid) : (i32) -> i32
      %p = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %v, %p : i32, !llvm.ptr
      llvm.return
    }
  }
}

// DECLARED: gpu.binary @kernels
// DECLARED-SAME: .visible .entry first(
// DECLARED-SAME: .visible .entry second(

//--- declared.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @first(%out: !llvm.ptr, %x: f32) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.call @__nv_expf(%x) : (f32) -> f32
      llvm.store %v, %out : f32, !llvm.ptr
      llvm.return
    }
    llvm.func @second(%out: !llvm.ptr, %x: f32) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.fadd %x, %x : f32
      llvm.store %v, %out : f32, !llvm.ptr
      llvm.return
    }
  }
}
