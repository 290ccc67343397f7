// RUN: obs-opt %s --obs-to-cpu | FileCheck %s
// RUN: obs-opt %s --obs-to-cpu="order=shuffle seed=4" | FileCheck %s --check-prefix=SHUFFLE
// RUN: not obs-opt %s --obs-to-cpu="order=sideways" 2>&1 | FileCheck %s --check-prefix=ORDER

// The cpu target's pipeline ends in the LLVM dialect: the kernel as a
// function over MLIR's memref descriptors (pointers, offset, size, stride)
// looping over blocks, the block function with its thread loops.

// CHECK: llvm.func @increv(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK: llvm.call @increv.block
// CHECK: llvm.func @increv.block(
// CHECK-NOT: gpu.
// SHUFFLE: llvm.mlir.global private constant @obs_thread_order_64
// ORDER: for the --order option: Cannot find option named 'sideways'!

obs.kernel @increv(%input: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %stored = obs.sync %input : !obs.arr<64 x i32>
  %result = obs.rev %stored : !obs.arr<64 x i32>
  obs.return %result : !obs.arr<64 x i32>
}
