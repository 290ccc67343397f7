// RUN: obs-opt %s --obs-gpu-to-cpu --canonicalize | FileCheck %s --check-prefix=FORWARD
// RUN: obs-opt %s --obs-gpu-to-cpu=block-order=reverse --canonicalize | FileCheck %s --check-prefix=REVERSE
// RUN: obs-opt %s --obs-gpu-to-cpu="block-order=shuffle block-seed=5" --canonicalize | FileCheck %s --check-prefix=SHUFFLE
// RUN: obs-opt %s --obs-gpu-to-cpu="block-order=reverse run-time-orders=true" --canonicalize | FileCheck %s --check-prefix=RUN-TIME

// Tests of lib/Conversion/GPUToCPU: the order in which a launch's blocks
// run. A grid of a known size reverses or takes a shuffle table; a grid
// known only at run time (a kernel without known_grid_size) reverses from
// its value, or is permuted by (a k + c) mod grid, with a = (2^31 + 11) mod
// grid, coprime to every grid of at most 2^31 - 1 blocks.

// A launch is a call of its kernel's grid function, which loops over the
// blocks.
// FORWARD-LABEL: func.func @host(
// FORWARD-SAME: %[[OUT0:.*]]: memref<16xindex>, %[[GRID0:.*]]: index)
// FORWARD-NEXT: %[[C2:.*]] = arith.constant 2
// FORWARD-NEXT: call @ids.block.grid(%[[C2]], %[[OUT0]])
// FORWARD-NEXT: call @any.block.grid(%[[GRID0]], %[[OUT0]])
// FORWARD-LABEL: func.func private @ids.block.grid(
// FORWARD-SAME: %[[GRID:.*]]: index, %[[OUT:.*]]: memref<16xindex>)
// FORWARD: scf.for %[[K:.*]] = %{{.*}} to %[[GRID]]
// FORWARD-NEXT: call @ids.block(%[[OUT]], %[[K]])
// FORWARD-LABEL: func.func private @any.block.grid(
// FORWARD-SAME: %[[GRID:.*]]: index, %[[OUT:.*]]: memref<16xindex>)
// FORWARD: scf.for %[[K2:.*]] = %{{.*}} to %[[GRID]]
// FORWARD-NEXT: call @any.block(%[[OUT]], %[[K2]])

// REVERSE-LABEL: func.func private @ids.block.grid(
// REVERSE-SAME: %[[GRID:.*]]: index, %[[OUT:.*]]: memref<16xindex>)
// REVERSE: scf.for %[[K:.*]] = %{{.*}} to %[[GRID]]
// REVERSE-NEXT: %[[B:.*]] = arith.subi %c1, %[[K]]
// REVERSE-NEXT: call @ids.block(%[[OUT]], %[[B]])
// REVERSE-LABEL: func.func private @any.block.grid(
// REVERSE-SAME: %[[GRID:.*]]: index, %[[OUT:.*]]: memref<16xindex>)
// REVERSE: scf.for %[[K2:.*]] = %{{.*}} to %[[GRID]]
// REVERSE-NEXT: %[[LAST:.*]] = arith.subi %[[GRID]], %c1
// REVERSE-NEXT: %[[B2:.*]] = arith.subi %[[LAST]], %[[K2]]
// REVERSE-NEXT: call @any.block(%[[OUT]], %[[B2]])

// SHUFFLE-LABEL: func.func private @ids.block.grid(
// SHUFFLE-SAME: %[[GRID:.*]]: index, %[[OUT:.*]]: memref<16xindex>)
// SHUFFLE: scf.for %[[K:.*]] = %{{.*}} to %[[GRID]]
// SHUFFLE: memref.get_global @obs_thread_order_2
// SHUFFLE: call @ids.block
// SHUFFLE-LABEL: func.func private @any.block.grid(
// SHUFFLE-SAME: %[[GRID:.*]]: index, %[[OUT:.*]]: memref<16xindex>)
// SHUFFLE: scf.for %[[K2:.*]] = %{{.*}} to %[[GRID]]
// SHUFFLE: %[[A:.*]] = arith.remui %c2147483659{{.*}}, %[[GRID]]
// SHUFFLE: %[[C:.*]] = arith.remui %{{.*}}, %[[GRID]]
// SHUFFLE: %[[AK:.*]] = arith.muli %[[K2]], %[[A]]
// SHUFFLE: %[[AKC:.*]] = arith.addi %[[AK]], %[[C]]
// SHUFFLE: %[[B2:.*]] = arith.remui %[[AKC]], %[[GRID]]
// SHUFFLE: call @any.block(%[[OUT]], %[[B2]])
// With run-time-orders, the orders are data: public, mutable tables (and
// the affine form's mode and shift for a grid known only at run time),
// filled here with the order asked for, which a runner fills again before
// a run (obs-run does); every loop reads them, the forward order too.
// RUN-TIME-DAG: memref.global @obs_block_order_affine : memref<2xi64> = dense<[1, 0]>
// RUN-TIME-DAG: memref.global @obs_block_order_2 : memref<2xi32> = dense<[1, 0]>
// RUN-TIME-DAG: memref.global @obs_thread_order_4 : memref<4xi32> = dense<[0, 1, 2, 3]>
// RUN-TIME-LABEL: func.func private @ids.block.grid(
// RUN-TIME-SAME: %[[GRID:.*]]: index, %[[OUT:.*]]: memref<16xindex>)
// RUN-TIME: scf.for %[[K:.*]] = %{{.*}} to %[[GRID]]
// RUN-TIME-NEXT: %[[T:.*]] = memref.get_global @obs_block_order_2
// RUN-TIME-NEXT: %[[E:.*]] = memref.load %[[T]][%[[K]]]
// RUN-TIME-NEXT: %[[B:.*]] = arith.index_cast %[[E]]
// RUN-TIME-NEXT: call @ids.block(%[[OUT]], %[[B]])
// RUN-TIME-LABEL: func.func private @any.block.grid(
// RUN-TIME-SAME: %[[GRID:.*]]: index, %[[OUT:.*]]: memref<16xindex>)
// RUN-TIME: scf.for %[[K2:.*]] = %{{.*}} to %[[GRID]]
// RUN-TIME: memref.get_global @obs_block_order_affine
// RUN-TIME: arith.muli %[[K2]], %{{.*}}
// RUN-TIME-NEXT: arith.addi
// RUN-TIME-NEXT: %[[B2:.*]] = arith.remui %{{.*}}, %[[GRID]]
// RUN-TIME-NEXT: call @any.block(%[[OUT]], %[[B2]])
// RUN-TIME-LABEL: func.func private @any.block(
// RUN-TIME: memref.get_global @obs_thread_order_4
module attributes {gpu.container_module} {
  func.func @host(%out: memref<16xindex>, %grid: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @m::@ids blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<16xindex>)
    gpu.launch_func @m::@any blocks in (%grid, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<16xindex>)
    return
  }
  gpu.module @m {
    gpu.func @ids(%out: memref<16xindex>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 2, 1, 1>} {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %c4 = arith.constant 4 : index
      %base = arith.muli %bx, %c4 : index
      %i = arith.addi %base, %tx : index
      memref.store %bx, %out[%i] : memref<16xindex>
      gpu.return
    }
    gpu.func @any(%out: memref<16xindex>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %c4 = arith.constant 4 : index
      %base = arith.muli %bx, %c4 : index
      %i = arith.addi %base, %tx : index
      memref.store %bx, %out[%i] : memref<16xindex>
      gpu.return
    }
  }
}
