// RUN: obs-opt %s --split-input-file --obs-to-gpu | FileCheck %s

// Tests of lib/Conversion/ObsToGPU: kernels become gpu.func, specialised per
// thread and round by the obs-to-gpu pipeline.

// Seed 002's increv, as the paper's generated CUDA: sm1[tid] = input[tid] +
// 1; __syncthreads(); result[tid] = sm1[9 - tid].
// CHECK-LABEL: func.func @increv(
// CHECK: gpu.launch_func @obs_kernels::@increv blocks in (%[[ONE:.*]], %[[ONE]], %[[ONE]]) threads in (%c10, %[[ONE]], %[[ONE]])
// CHECK-LABEL: gpu.func @increv(
// CHECK-SAME: %[[IN:[^:]*]]: memref<10xi32> {llvm.align = 16 : i64, llvm.noalias}, %[[OUT:[^:]*]]: memref<10xi32> {llvm.align = 16 : i64, llvm.noalias}) workgroup(%[[SM:[^ ]*]] : memref<10xi32, #gpu.address_space<workgroup>> {obs.owner = {{.*}}}) kernel
// CHECK-SAME: known_block_size = array<i32: 10, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT: %[[X:.*]] = memref.load %[[IN]][%[[TID]]]
// CHECK-NEXT: %[[Y:.*]] = arith.addi %[[X]]
// CHECK-NEXT: memref.store %[[Y]], %[[SM]][%[[TID]]]
// CHECK-NEXT: gpu.barrier {obs.sync_index = 0 : i64}
// CHECK-NEXT: %[[R:.*]] = arith.subi %c9, %[[TID]]
// CHECK-NEXT: %[[Z:.*]] = memref.load %[[SM]][%[[R]]]
// CHECK-NEXT: memref.store %[[Z]], %[[OUT]][%[[TID]]]
// CHECK-NEXT: gpu.return
obs.kernel @increv(%input: !obs.arr<10 x i32>) -> !obs.arr<10 x i32> {
  %one = arith.constant 1 : i32
  %incremented = obs.map %input : !obs.arr<10 x i32> -> !obs.arr<10 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %stored = obs.sync %incremented : !obs.arr<10 x i32>
  %result = obs.rev %stored : !obs.arr<10 x i32>
  obs.return %result : !obs.arr<10 x i32>
}

// -----

// fan under strided<256> on 512 elements: in round 0 every thread's element
// is in the first half and in round 1 in the second, so `i < N/2` folds and
// no branch is left; thread t copies a[t] and computes a[255] + a[t+256]
// (seed 002's sklansky1). The last sync is only returned: it writes global
// memory directly and needs no buffer or barrier.
// CHECK-LABEL: gpu.func @fan512(
// CHECK-SAME: workgroup(%[[SM:[^ ]*]] : memref<512xi32, #gpu.address_space<workgroup>> {obs.owner
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-NOT: scf.if
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[A:.*]] = memref.load %arg0[%[[TID]]]
// CHECK: memref.store %[[A]], %[[SM]][%[[TID]]]
// CHECK: %[[HI:.*]] = arith.addi %[[TID]], %c256
// CHECK: %[[LAST:.*]] = memref.load %arg0[%c255]
// CHECK: %[[B:.*]] = memref.load %arg0[%[[HI]]]
// CHECK: %[[SUM:.*]] = arith.addi %[[LAST]], %[[B]]
// CHECK: memref.store %[[SUM]], %[[SM]][%[[HI]]]
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-NOT: scf.if
// CHECK: memref.store %{{.*}}, %arg1[%[[TID]]]
// CHECK: memref.store %{{.*}}, %arg1[%[[HI]]]
// CHECK-NEXT: gpu.return
obs.kernel @fan512(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> attributes {threads = 256} {
  %0 = obs.fan %a : !obs.arr<512 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %1 = obs.sync strided<256> %0 : !obs.arr<512 x i32>
  %2 = obs.rev %1 : !obs.arr<512 x i32>
  %3 = obs.sync strided<256> %2 : !obs.arr<512 x i32>
  obs.return %3 : !obs.arr<512 x i32>
}

// -----

// Warp scope is bar.warp.sync with the warp's mask: all 32 threads, or the
// threads of a last, partial warp (here 40 = 32 + 8: mask 0xff).
// CHECK-LABEL: gpu.func @warps(
// CHECK-DAG: %[[FULL:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[PARTIAL:.*]] = arith.constant 255 : i32
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[WARP]], %c1
// CHECK: %[[MASK:.*]] = arith.select %[[LAST]], %[[PARTIAL]], %[[FULL]]
// CHECK: nvvm.bar.warp.sync %[[MASK]] {obs.sync_index = 0 : i64} : i32
// CHECK-NOT: gpu.barrier
obs.kernel @warps(%a: !obs.arr<40 x i32>) -> !obs.arr<40 x i32> {
  %0 = obs.sync warp %a : !obs.arr<40 x i32>
  %1 = obs.map %0 : !obs.arr<40 x i32> -> !obs.arr<40 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  obs.return %1 : !obs.arr<40 x i32>
}

// -----

// repeat is a loop over two buffers that swap, chosen from the counter;
// the body is not unrolled.
// CHECK-LABEL: gpu.func @merger(
// CHECK-SAME: workgroup(%[[A:[^ ]*]] : memref<16xi32, #gpu.address_space<workgroup>> {{{.*}}}, %[[B:[^ ]*]] : memref<16xi32, #gpu.address_space<workgroup>> {{{.*}}}, %[[RIFFLED:[^ ]*]] : memref<16xi32, #gpu.address_space<workgroup>> {{{.*}}})
// CHECK: gpu.barrier
// CHECK: scf.for %[[I:.*]] = %c0 to %c4 step %c1 {
// CHECK:   %[[PARITY:.*]] = arith.remui %[[I]], %c2
// CHECK:   %[[EVEN:.*]] = arith.cmpi eq, %[[PARITY]], %c0
// CHECK:   %[[CUR:.*]] = arith.select %[[EVEN]], %[[A]], %[[B]]
// CHECK:   %[[NEXT:.*]] = arith.select %[[EVEN]], %[[B]], %[[A]]
// CHECK:   memref.load %[[CUR]]
// CHECK:   memref.store %{{.*}}, %[[RIFFLED]]
// CHECK:   gpu.barrier
// CHECK:   memref.store %{{.*}}, %[[NEXT]]
// CHECK:   gpu.barrier
// CHECK: }
// CHECK: memref.load %[[A]]
obs.kernel @merger(%input: !obs.arr<16 x i32>) -> !obs.arr<16 x i32> {
  %result = obs.repeat 4 %input : !obs.arr<16 x i32> {
  ^bb0(%a: !obs.arr<16 x i32>):
    %riffled = obs.riffle %a : !obs.arr<16 x i32>
    %stored = obs.sync %riffled : !obs.arr<16 x i32>
    %swapped = obs.evens %stored : !obs.arr<16 x i32> {
    ^bb0(%x: i32, %y: i32):
      %lo = arith.minsi %x, %y : i32
      %hi = arith.maxsi %x, %y : i32
      obs.yield %lo, %hi : i32, i32
    }
    %next = obs.sync %swapped : !obs.arr<16 x i32>
    obs.yield %next : !obs.arr<16 x i32>
  }
  obs.return %result : !obs.arr<16 x i32>
}

// -----

// An in-place sync writes the buffer its stage reads.
// CHECK-LABEL: gpu.func @inplace(
// CHECK-SAME: workgroup(%[[SM:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>> {obs.owner = {{.*}}}) kernel
// CHECK: memref.store %{{.*}}, %[[SM]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[SM]]
// CHECK: memref.store %{{.*}}, %[[SM]]
// CHECK: gpu.barrier
obs.kernel @inplace(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.sync %a : !obs.arr<8 x i32>
  %1 = obs.map %0 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  %2 = obs.sync inplace %1 : !obs.arr<8 x i32>
  %3 = obs.rev %2 : !obs.arr<8 x i32>
  obs.return %3 : !obs.arr<8 x i32>
}

// -----

// A launch over 4 blocks runs an instance for 4 blocks, whose block b works
// on the b-th chunk of each memref.
// CHECK-LABEL: func.func @four_blocks(
// CHECK: gpu.launch_func @obs_kernels::@double_grid4 blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1) args(%arg0 : memref<32xi32>, %arg1 : memref<32xi32>)
// CHECK-LABEL: gpu.func @double(
// CHECK-SAME: memref<8xi32>
// CHECK-LABEL: gpu.func @double_grid4(
// CHECK-SAME: %[[IN:[^:]*]]: memref<32xi32> {llvm.align = 16 : i64, llvm.noalias}, %[[OUT:[^:]*]]: memref<32xi32> {llvm.align = 16 : i64, llvm.noalias})
// CHECK-SAME: known_grid_size = array<i32: 4, 1, 1>
// CHECK: %[[B:.*]] = gpu.block_id x
// CHECK: %[[OFFSET:.*]] = arith.muli %[[B]], %c8
// CHECK: %[[I:.*]] = arith.addi %[[OFFSET]], %{{.*}}
// CHECK: memref.load %[[IN]][%[[I]]]
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[I]]]
obs.kernel @double(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  obs.return %0 : !obs.arr<8 x i32>
}
func.func @four_blocks(%in: memref<32xi32>, %out: memref<32xi32>) {
  obs.launch @double grid(4) ins(%in : memref<32xi32>) outs(%out : memref<32xi32>)
  return
}
