// RUN: obs-opt %s --split-input-file --obs-to-gpu | FileCheck %s
// RUN: obs-opt %s --split-input-file --convert-obs-to-gpu=guard-empty-grids=false | FileCheck %s --check-prefix=UNGUARDED

// Without the guard (for a runtime that runs nothing for an empty grid, as
// obs's does), the launch is made whatever the grid: no branch.
// UNGUARDED-LABEL: func.func @run(
// UNGUARDED-NOT: scf.if
// UNGUARDED: gpu.launch_func @obs_kernels::@double_any blocks in (%{{.*}}, %{{.*}}, %{{.*}})
// UNGUARDED-NOT: scf.if
// UNGUARDED: return

// Tests of lib/Conversion/ObsToGPU and lib/KernelLowering for launches whose
// sizes are known only at run time: one instance per kernel (@k_any) for
// every grid and length, its memrefs of nominal length 2^31 - 1 followed by
// their real lengths; every global load is guarded by its place being
// before its memref's length (else the argument's absent value) and every
// store too; the launch runs no block for a grid of 0.

// CHECK-LABEL: func.func @run(
// CHECK-SAME: %[[IN:.*]]: memref<?xi32>, %[[OUT:.*]]: memref<?xi32>, %[[GRID:.*]]: index)
// CHECK-DAG: %[[INN:.*]] = memref.reinterpret_cast %[[IN]] to offset: [0], sizes: [2147483647], strides: [1] : memref<?xi32> to memref<2147483647xi32>
// CHECK-DAG: %[[OUTN:.*]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [2147483647], strides: [1] : memref<?xi32> to memref<2147483647xi32>
// CHECK-DAG: %[[LEN_IN:.*]] = memref.dim %[[IN]], %c0
// CHECK-DAG: %[[LEN_OUT:.*]] = memref.dim %[[OUT]], %c0
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[GRID]], %c0 : index
// CHECK: scf.if %[[ANY]] {
// CHECK: gpu.launch_func @obs_kernels::@double_any blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in (%c4, {{.*}}) args(%[[INN]] : memref<2147483647xi32>, %[[OUTN]] : memref<2147483647xi32>, %[[LEN_IN]] : index, %[[LEN_OUT]] : index)
// A static memref too: its length is a constant.
// CHECK-LABEL: func.func @run_static(
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2147483647], strides: [1] : memref<6xi32> to memref<2147483647xi32>
// CHECK: gpu.launch_func @obs_kernels::@double_any {{.*}} %c6 : index

// CHECK-LABEL: gpu.func @double_any(
// CHECK-SAME: %[[A:[^:]*]]: memref<2147483647xi32> {llvm.align = 16 : i64, llvm.noalias}, %[[B:[^:]*]]: memref<2147483647xi32> {llvm.align = 16 : i64, llvm.noalias}, %[[LA:.*]]: index, %[[LB:.*]]: index) kernel
// CHECK-NOT: known_grid_size
// CHECK-SAME: known_block_size = array<i32: 4, 1, 1>
// CHECK-DAG: %[[ABSENT:.*]] = arith.constant 7 : i32
// CHECK: %[[PLACE:.*]] = arith.addi
// CHECK: %[[PRESENT:.*]] = arith.cmpi ult, %[[PLACE]], %[[LA]] : index
// CHECK: %[[X:.*]] = scf.if %[[PRESENT]] -> (i32) {
// CHECK:   memref.load %[[A]][%[[PLACE]]]
// CHECK: } else {
// CHECK:   scf.yield %[[ABSENT]] : i32
// CHECK: %[[Y:.*]] = arith.muli %[[X]]
// CHECK: %[[WRITTEN:.*]] = arith.cmpi ult, %[[PLACE]], %[[LB]] : index
// CHECK: scf.if %[[WRITTEN]] {
// CHECK:   memref.store %[[Y]], %[[B]][%[[PLACE]]]
obs.kernel @double(%a: !obs.arr<4 x i32> {obs.absent = 7 : i32}) -> !obs.arr<4 x i32> {
  %c2 = arith.constant 2 : i32
  %0 = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %c2 : i32
    obs.yield %y : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}
func.func @run(%in: memref<?xi32>, %out: memref<?xi32>, %grid: index) {
  obs.launch @double grid(%grid) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}
func.func @run_static(%in: memref<6xi32>, %out: memref<?xi32>) {
  obs.launch @double grid(2) ins(%in : memref<6xi32>) outs(%out : memref<?xi32>)
  return
}

// -----

// Where a block is: obs.block_id is the block's index, which the proofs
// take to be any (obs.data); obs.extent the places of the argument's chunk
// before the end of its memrefs, clamped to [0, N]. In a launch of static
// sizes every chunk is whole: the extent folds to N.
// CHECK-LABEL: gpu.func @where(
// CHECK-NOT: obs.data
// CHECK: arith.constant 16 : i32
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @where_any(
// CHECK-SAME: %{{[^:]*}}: memref<2147483647xi32> {llvm.align = 16 : i64, llvm.noalias}, %{{[^:]*}}: memref<2147483647xf32> {llvm.align = 16 : i64, llvm.noalias}, %{{[^:]*}}: memref<2147483647xi32> {llvm.align = 16 : i64, llvm.noalias}, %[[LI:[^:]*]]: index, %[[LF:[^:]*]]: index, %{{[^:]*}}: index)
// CHECK: %[[BLOCK:.*]] = gpu.block_id x {obs.data}
// CHECK: %[[START:.*]] = arith.muli %[[BLOCK]], %c4
// CHECK: %[[END:.*]] = arith.minsi %[[LI]], %[[LF]]
// CHECK: %[[LEFT:.*]] = arith.subi %[[END]], %[[START]]
// CHECK: %[[POSITIVE:.*]] = arith.maxsi %[[LEFT]], %c0
// CHECK: arith.minsi %[[POSITIVE]], %c4
obs.kernel @where(%a: !obs.arr<4 x tuple<i32, f32>> {obs.absent = [0 : i32, 0.0 : f32]}) -> !obs.arr<4 x i32> {
  %block = obs.block_id
  %present = obs.extent %a : !obs.arr<4 x tuple<i32, f32>>
  %0 = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %p = arith.muli %present, %present : index
    %s = arith.addi %block, %p : index
    %x = arith.index_cast %s : index to i32
    obs.yield %x : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}
func.func @run(%a: memref<?xi32>, %b: memref<?xf32>, %out: memref<?xi32>, %grid: index) {
  obs.launch @where grid(%grid) ins(%a, %b : memref<?xi32>, memref<?xf32>) outs(%out : memref<?xi32>)
  return
}

// -----

// A view at a run-time place: the instance that takes offsets
// (@k_any_offsets) gets every memref from its base, at offset 0, as the
// others do (a kernel's pointers are bare), then the lengths, then each
// memref's offset; it views each memref from its offset before anything
// else, and reads and writes through those views.
// CHECK-LABEL: func.func @split(
// CHECK-SAME: %[[BUF:.*]]: memref<?xi32>, %[[K:.*]]: index, %[[G:.*]]: index)
// CHECK-DAG: %[[HI:.*]] = memref.subview %[[BUF]][%[[K]]] [%[[K]]] [1]
// CHECK-DAG: %[[LON:.*]] = memref.reinterpret_cast %[[BUF]] to offset: [0], sizes: [2147483647], strides: [1] : memref<?xi32> to memref<2147483647xi32>
// CHECK-DAG: %[[HIN:.*]] = memref.reinterpret_cast %[[HI]] to offset: [0], sizes: [2147483647], strides: [1] : memref<?xi32, strided<[1], offset: ?>> to memref<2147483647xi32>
// CHECK-DAG: %{{.*}}, %[[HI_OFFSET:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[HI]]
// CHECK: gpu.launch_func @obs_kernels::@double_any_offsets {{.*}} args(%[[LON]] : memref<2147483647xi32>, %[[HIN]] : memref<2147483647xi32>, %[[K]] : index, %[[K]] : index, %c0 : index, %[[HI_OFFSET]] : index)
// The kernel gets no plain instance (@double_any) that no launch uses.
// CHECK-NOT: gpu.func @double_any(
// The second memref's offset is known only at run time: only its
// elements' alignment is known. Neither is noalias (one allocation).
// CHECK-LABEL: gpu.func @double_any_offsets(
// CHECK-SAME: %[[A:[^:]*]]: memref<2147483647xi32> {llvm.align = 16 : i64}, %[[B:[^:]*]]: memref<2147483647xi32> {llvm.align = 4 : i64}, %{{.*}}: index, %{{.*}}: index, %[[OA:[^:]*]]: index, %[[OB:[^:]*]]: index) kernel
// CHECK-DAG: %[[VA:.*]] = memref.reinterpret_cast %[[A]] to offset: [%[[OA]]], sizes: [2147483647], strides: [1] : memref<2147483647xi32> to memref<2147483647xi32, strided<[1], offset: ?>>
// CHECK-DAG: %[[VB:.*]] = memref.reinterpret_cast %[[B]] to offset: [%[[OB]]], sizes: [2147483647], strides: [1] : memref<2147483647xi32> to memref<2147483647xi32, strided<[1], offset: ?>>
// CHECK: memref.load %[[VA]]
// CHECK: memref.store %{{.*}}, %[[VB]]
obs.kernel @double(%a: !obs.arr<4 x i32> {obs.absent = 7 : i32}) -> !obs.arr<4 x i32> {
  %c2 = arith.constant 2 : i32
  %0 = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %c2 : i32
    obs.yield %y : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}
func.func @split(%buf: memref<?xi32>, %k: index, %grid: index) {
  %lo = memref.subview %buf[0][%k][1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %hi = memref.subview %buf[%k][%k][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  obs.launch @double grid(%grid) ins(%lo : memref<?xi32, strided<[1]>>) outs(%hi : memref<?xi32, strided<[1], offset: ?>>)
  return
}
