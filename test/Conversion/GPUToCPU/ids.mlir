// RUN: obs-opt %s --obs-gpu-to-cpu --canonicalize | FileCheck %s

// Tests of lib/Conversion/GPUToCPU: the ids and sizes of the gpu dialect.
// Launches and blocks are x only, so along y and z every id is 0 and every
// size 1; the grid's x size is the kernel's known_grid_size. The kernel
// stores tx + 10 bx + 100 (ty + by + tz + bz) + 1000 (bdy bdz gdy gdz)
// + 10000 bdx + 100000 gdx: with 4 threads in each of 2 blocks that is
// tx + 10 bx + 0 + 1000 + 40000 + 200000 = tx + 10 bx + 241000.
// CHECK-LABEL: func.func private @ids.block(
// CHECK-SAME: %[[OUT:[^:]*]]: memref<8xindex>, %[[B:[^:]*]]: index)
// CHECK-NOT: gpu.
// CHECK-DAG: %[[K:.*]] = arith.constant 241000 : index
// CHECK-DAG: %[[TENB:.*]] = arith.muli %[[B]], %c10
// CHECK: scf.for %[[T:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: %[[V:.*]] = arith.addi %[[T]], %[[TENB]]
// CHECK-NEXT: %[[W:.*]] = arith.addi %[[V]], %[[K]]
// CHECK: memref.store %[[W]], %[[OUT]][
module attributes {gpu.container_module} {
  func.func @host(%out: memref<8xindex>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @m::@ids blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<8xindex>)
    return
  }
  gpu.module @m {
    gpu.func @ids(%out: memref<8xindex>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 2, 1, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %bdz = gpu.block_dim z
      %gdx = gpu.grid_dim x
      %gdy = gpu.grid_dim y
      %gdz = gpu.grid_dim z
      %c4 = arith.constant 4 : index
      %base = arith.muli %bx, %c4 : index
      %i = arith.addi %base, %tx : index
      %yz = arith.addi %ty, %by : index
      %yz2 = arith.addi %yz, %tz : index
      %yz3 = arith.addi %yz2, %bz : index
      %ones = arith.muli %bdy, %bdz : index
      %ones2 = arith.muli %ones, %gdy : index
      %ones3 = arith.muli %ones2, %gdz : index
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %c1000 = arith.constant 1000 : index
      %c10000 = arith.constant 10000 : index
      %c100000 = arith.constant 100000 : index
      %v1 = arith.muli %bx, %c10 : index
      %v2 = arith.muli %yz3, %c100 : index
      %v3 = arith.muli %ones3, %c1000 : index
      %v4 = arith.muli %bdx, %c10000 : index
      %v5 = arith.muli %gdx, %c100000 : index
      %s1 = arith.addi %tx, %v1 : index
      %s2 = arith.addi %s1, %v2 : index
      %s3 = arith.addi %s2, %v3 : index
      %s4 = arith.addi %s3, %v4 : index
      %s5 = arith.addi %s4, %v5 : index
      memref.store %s5, %out[%i] : memref<8xindex>
      gpu.return
    }
  }
}
