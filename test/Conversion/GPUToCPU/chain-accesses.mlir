// RUN: obs-opt %s --obs-gpu-to-cpu | FileCheck %s

// Tests of lib/Conversion/GPUToCPU/ChainAccesses.cpp: an obs.carry's
// look-back exchanges and reads chain words by memref.atomic_rmw ops
// marked obs.chain_publish and obs.chain_observe; on the cpu target they
// become calls of the runner with the word's host address (the memref's
// aligned pointer plus its offset and the index, 8 bytes a word), which
// answers a read with a state the word held earlier. Other atomics (the
// ticket's add) stay atomics.

// CHECK-DAG: func.func private @obs_chain_observe(i64) -> i64
// CHECK-DAG: func.func private @obs_chain_publish(i64, i64) -> i64
// CHECK-LABEL: func.func private @look.block(
// CHECK-SAME: %[[CHAIN:[^:]*]]: memref<5xi64>
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[STATE:.*]] = arith.constant 8589934599 : i64
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %{{.*}}, %[[STRIDE:.*]] = memref.extract_strided_metadata %[[CHAIN]]
// CHECK: %[[POINTER:.*]] = memref.extract_aligned_pointer_as_index %[[BASE]]
// CHECK: %[[SCALED:.*]] = arith.muli %[[C2]], %[[STRIDE]]
// CHECK: %[[PLACE:.*]] = arith.addi %[[OFFSET]], %[[SCALED]]
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[BYTES:.*]] = arith.muli %[[PLACE]], %[[C8]]
// CHECK: %[[ADDRESS:.*]] = arith.addi %[[POINTER]], %[[BYTES]]
// CHECK: %[[A64:.*]] = arith.index_cast %[[ADDRESS]] : index to i64
// CHECK: %[[R64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: scf.for
// CHECK-NEXT: memref.atomic_rmw addi %{{.*}}, %[[CHAIN]]
// CHECK-NEXT: %[[OLD:.*]] = func.call @obs_chain_publish(%[[A64]], %[[STATE]]) : (i64, i64) -> i64
// CHECK-NEXT: %[[SEEN:.*]] = func.call @obs_chain_observe(%[[R64]]) : (i64) -> i64
// CHECK-NEXT: arith.addi %[[SEEN]], %[[OLD]]
// CHECK-NOT: memref.atomic_rmw
// CHECK: return
module attributes {gpu.container_module} {
  func.func @host(%chain: memref<5xi64>, %out: memref<1xi64>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@look blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%chain : memref<5xi64>, %out : memref<1xi64>)
    return
  }
  gpu.module @m {
    gpu.func @look(%chain: memref<5xi64>, %out: memref<1xi64>) kernel attributes {known_block_size = array<i32: 1, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %one = arith.constant 1 : i64
      %state = arith.constant 8589934599 : i64
      %zero = arith.constant 0 : i64
      %ticket = memref.atomic_rmw addi %one, %chain[%c0] : (i64, memref<5xi64>) -> i64
      %old = memref.atomic_rmw assign %state, %chain[%c2] {obs.chain_publish} : (i64, memref<5xi64>) -> i64
      %seen = memref.atomic_rmw ori %zero, %chain[%c2] {obs.chain_observe} : (i64, memref<5xi64>) -> i64
      %sum = arith.addi %seen, %old : i64
      memref.store %sum, %out[%c0] : memref<1xi64>
      gpu.return
    }
  }
}
