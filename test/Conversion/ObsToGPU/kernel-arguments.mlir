// RUN: obs-opt %s --split-input-file --obs-to-gpu | FileCheck %s

// Tests of lib/Conversion/ObsToGPU/KernelArguments.cpp: what each instance
// may assume of its pointers, from every launch of it, and the checks a
// host function that launches kernels makes of its callers.

// A kernel's host function passes its own arguments, distinct allocations
// aligned to 16 bytes by the contract its entry checks: noalias and align
// 16. It checks each argument's alignment and the pair's overlap, and
// calls obs_argument_contract once with the first broken part, chosen
// without a branch: argument 0 alone (-1), 1 alone, then 0 and 1.
// CHECK-LABEL: func.func private @obs_argument_contract(i64, i64)
// CHECK-LABEL: func.func @k(
// CHECK-SAME: %[[IN:.*]]: memref<64xi32>, %[[OUT:.*]]: memref<64xi32>)
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: arith.remui %{{.*}}, %[[C16]]
// CHECK: memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: arith.remui %{{.*}}, %[[C16]]
// CHECK: arith.cmpi sle
// CHECK: arith.cmpi sle
// CHECK-NOT: scf.if
// CHECK: %[[PAIR_FIRST:.*]] = arith.select %[[APART:.*]], %c-1_i64, %c0_i64 : i64
// CHECK-NEXT: %[[PAIR_SECOND:.*]] = arith.select %[[APART]], %c-1_i64, %c1_i64 : i64
// CHECK-NEXT: %[[ONE_FIRST:.*]] = arith.select %[[ALIGNED1:.*]], %[[PAIR_FIRST]], %c1_i64 : i64
// CHECK-NEXT: %[[ONE_SECOND:.*]] = arith.select %[[ALIGNED1]], %[[PAIR_SECOND]], %c-1_i64 : i64
// CHECK-NEXT: %[[FIRST:.*]] = arith.select %[[ALIGNED0:.*]], %[[ONE_FIRST]], %c0_i64 : i64
// CHECK-NEXT: %[[SECOND:.*]] = arith.select %[[ALIGNED0]], %[[ONE_SECOND]], %c-1_i64 : i64
// CHECK-NEXT: call @obs_argument_contract(%[[FIRST]], %[[SECOND]])
// CHECK: gpu.launch_func @obs_kernels::@k
// CHECK: gpu.func @k(%{{.*}}: memref<64xi32> {llvm.align = 16 : i64, llvm.noalias}, %{{.*}}: memref<64xi32> {llvm.align = 16 : i64, llvm.noalias})
obs.kernel @k(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// Launches over blocks. @twice's instance for 4 blocks is launched on two
// distinct allocations (noalias), one made here without an alignment of
// its own (it gets 16) and one of 64; and in place (the same allocation
// in and out): not noalias, in either launch's instance. The private
// function checks its callers too: the launch proof follows the module's
// calls, but not the alignment of the views they pass (a private helper
// given a view 4 bytes into a buffer launched kernels whose pointers
// claimed 16 bytes).
// CHECK-LABEL: func.func private @launch_inside(
// CHECK: call @obs_argument_contract
// CHECK: return
// CHECK-LABEL: func.func @launches(
// CHECK: call @obs_argument_contract
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<256xi32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<256xi32>
// CHECK-DAG: gpu.func @twice_grid4(%{{.*}}: memref<256xi32> {llvm.align = 16 : i64, llvm.noalias}, %{{.*}}: memref<256xi32> {llvm.align = 16 : i64, llvm.noalias})
// CHECK-DAG: gpu.func @in_place_grid4(%{{.*}}: memref<256xi32> {llvm.align = 16 : i64}, %{{.*}}: memref<256xi32> {llvm.align = 16 : i64})
obs.kernel private @twice(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %m = obs.map %a : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<64 x i32>
}
obs.kernel private @in_place(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %m = obs.map %a : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %x : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<64 x i32>
}
func.func private @launch_inside(%a: memref<256xi32>) {
  obs.launch @in_place grid(4) ins(%a : memref<256xi32>) outs(%a : memref<256xi32>)
  return
}
func.func @launches(%out: memref<256xi32>) {
  %a = memref.alloc() : memref<256xi32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<256xi32>
  obs.launch @twice grid(4) ins(%a : memref<256xi32>) outs(%b : memref<256xi32>)
  obs.launch @twice grid(4) ins(%b : memref<256xi32>) outs(%out : memref<256xi32>)
  call @launch_inside(%out) : (memref<256xi32>) -> ()
  memref.dealloc %a : memref<256xi32>
  memref.dealloc %b : memref<256xi32>
  return
}
