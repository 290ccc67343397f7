// RUN: obs-opt %s -split-input-file --obs-host-memory-to-gpu --obs-statistics -verify-diagnostics 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: obs-opt %s -split-input-file --obs-host-memory-to-gpu --obs-host-shared-allocs-to-gpu -verify-diagnostics | FileCheck %s --check-prefix=SHARED

// Tests of lib/Conversion/HostToGPU/HostMemoryToGPU.cpp: the memory of host
// code lowered for the cuda target.

// Host code that only allocates, copies and frees memory and hands it to
// kernels: all of it on the device.
// CHECK-LABEL: func.func @device
// CHECK-NOT: obs.host_memory_shared
// CHECK: %[[T:.*]] = gpu.alloc () : memref<8xi32>
// CHECK: gpu.launch_func @k::@f {{.*}} args(%{{.*}} : memref<8xi32>, %[[T]] : memref<8xi32>)
// CHECK: gpu.memcpy %{{.*}}, %[[T]] : memref<8xi32>, memref<8xi32>
// CHECK: gpu.dealloc %[[T]] : memref<8xi32>
// SHARED-LABEL: func.func @device
// SHARED: gpu.alloc () : memref<8xi32>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<8xi32>, %b: memref<8xi32>) kernel {
      gpu.return
    }
  }
  func.func @device(%in: memref<8xi32>, %out: memref<8xi32>) {
    %c1 = arith.constant 1 : index
    %t = memref.alloc() : memref<8xi32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<8xi32>, %t : memref<8xi32>)
    memref.copy %t, %out : memref<8xi32> to memref<8xi32>
    memref.dealloc %t : memref<8xi32>
    return
  }
}

// -----

// Host code that reads memory itself: the module's memory is the kind host
// and device share, and its allocations are made so after gpu-async-region
// (obs-host-shared-allocs-to-gpu).
// CHECK-LABEL: module attributes {gpu.container_module, obs.host_memory_shared}
// CHECK: %[[T:.*]] = memref.alloc() : memref<8xi32>
// CHECK: memref.load %[[T]]
// CHECK: gpu.dealloc %[[T]]
// SHARED-LABEL: module attributes {gpu.container_module, obs.host_memory_shared}
// SHARED: gpu.alloc  host_shared () : memref<8xi32>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<8xi32>) kernel {
      gpu.return
    }
  }
  func.func @shared(%out: memref<1xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = memref.alloc() : memref<8xi32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<8xi32>)
    %x = memref.load %t[%c0] : memref<8xi32>
    memref.store %x, %out[%c0] : memref<1xi32>
    memref.dealloc %t : memref<8xi32>
    return
  }
}

// -----

// Memory the device cannot reach, given to a kernel.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<8xi32>) kernel {
      gpu.return
    }
  }
  memref.global "private" constant @table : memref<8xi32> = dense<1>
  func.func @stack() {
    %c1 = arith.constant 1 : index
    %s = memref.alloca() : memref<8xi32>
    // expected-error @+1 {{this launches a kernel on memory on the host's stack (memref.alloca), which the device cannot reach on the cuda target; allocate it with memref.alloc}}
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%s : memref<8xi32>)
    // Once for the memory: a device op's plan launches several kernels on
    // it, and the error came once for each.
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%s : memref<8xi32>)
    return
  }
  func.func @global() {
    %c1 = arith.constant 1 : index
    %g = memref.get_global @table : memref<8xi32>
    // expected-error @+1 {{this launches a kernel on a global of the host (memref.get_global), which the device cannot reach on the cuda target; allocate it with memref.alloc}}
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%g : memref<8xi32>)
    return
  }
}

// -----

// The same memory given to a helper that gives its argument to a kernel,
// through a second helper: it reached the kernel as a host pointer (the
// driver refused it; found by an adversarial run). A helper that only
// reads its argument on the host may take it.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<8xi32>) kernel {
      gpu.return
    }
  }
  memref.global "private" constant @table : memref<8xi32> = dense<1>
  func.func private @launch(%a: memref<8xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xi32>)
    return
  }
  func.func private @forward(%host: memref<8xi32>, %a: memref<8xi32>) {
    %c0 = arith.constant 0 : index
    %x = memref.load %host[%c0] : memref<8xi32>
    memref.store %x, %a[%c0] : memref<8xi32>
    func.call @launch(%a) : (memref<8xi32>) -> ()
    return
  }
  func.func @through_calls(%out: memref<8xi32>) {
    %g = memref.get_global @table : memref<8xi32>
    func.call @forward(%g, %out) : (memref<8xi32>, memref<8xi32>) -> ()
    %s = memref.alloca() : memref<8xi32>
    // expected-error @+1 {{this call passes, as argument 1 of a function that gives it to a kernel, memory on the host's stack (memref.alloca), which the device cannot reach on the cuda target; allocate it with memref.alloc}}
    func.call @forward(%g, %s) : (memref<8xi32>, memref<8xi32>) -> ()
    return
  }
}

// -----

// A copy the device cannot make in one piece.
func.func @reshaping_copy(%a: memref<8xi32>, %b: memref<2x4xi32>) {
  %c = memref.expand_shape %a [[0, 1]] output_shape [2, 4] : memref<8xi32> into memref<2x4xi32>
  %s = memref.subview %b[0, 0] [2, 2] [1, 1] : memref<2x4xi32> to memref<2x2xi32, strided<[4, 1]>>
  %t = memref.subview %c[0, 0] [2, 2] [1, 1] : memref<2x4xi32> to memref<2x2xi32, strided<[4, 1]>>
  %u = memref.alloc() : memref<2x2xi32>
  // expected-error @+1 {{copies between memrefs of different types, which the device cannot do in one copy on the cuda target}}
  memref.copy %t, %u : memref<2x2xi32, strided<[4, 1]>> to memref<2x2xi32>
  return
}

// Over the file: @device's temporary and @reshaping_copy's (made on the
// device before its copy is refused).
// STATS: obs-host-memory-to-gpu
// STATS-NEXT: 2 allocations
// STATS-NEXT: 1 copies
