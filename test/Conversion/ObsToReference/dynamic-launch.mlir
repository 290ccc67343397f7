// RUN: obs-opt %s --obs-lower-reference | FileCheck %s

// Tests of lib/Conversion/ObsToReference (ReferenceLaunch.cpp, the launches;
// ObsToReference.cpp, the block functions) for launches whose sizes are known
// only at run time, and kernels that ask where their block is: a launch
// calls a function of its kind, which loops over its grid value; a block's
// chunk is copied in place by place, an absent place (at or past its
// memref's length) as the argument's absent value, and copied out only
// where present. A kernel that asks where its block is becomes @k.block,
// which takes the block's index and each argument's present elements, and
// @k, which runs it as block 0, whole.

// CHECK-LABEL: func.func @where(
// CHECK-SAME: %[[A:.*]]: memref<4xi32>, %[[R:.*]]: memref<4xi32>)
// CHECK: call @where.block(%[[A]], %[[R]], %c0, %c4)
// CHECK-LABEL: func.func private @where.block(
// CHECK-SAME: %{{.*}}: memref<4xi32>, %{{.*}}: memref<4xi32>, %[[BLOCK:.*]]: index, %[[EXTENT:.*]]: index)
// CHECK: arith.addi %[[BLOCK]], %[[EXTENT]]
obs.kernel @where(%a: !obs.arr<4 x i32> {obs.absent = -1 : i32}) -> !obs.arr<4 x i32> {
  %block = obs.block_id
  %present = obs.extent %a : !obs.arr<4 x i32>
  %0 = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %s = arith.addi %block, %present : index
    %y = arith.index_cast %s : index to i32
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}

// A launch is a call of a function that runs the blocks: one function for
// the launches of a kernel with the same operand types and layouts.
// CHECK-LABEL: func.func @run(
// CHECK-SAME: %[[IN0:.*]]: memref<?xi32>, %[[OUT0:.*]]: memref<?xi32>, %[[GRID0:.*]]: index, %[[S:.*]]: memref<8xi32>, %[[T:.*]]: memref<8xi32>)
// CHECK-NEXT: call @where.launch(%[[GRID0]], %[[IN0]], %[[OUT0]])
// CHECK-NEXT: call @where.launch(%[[GRID0]], %[[OUT0]], %[[IN0]])
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: call @where.launch_0(%[[C2]], %[[S]], %[[T]])
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @where.launch(
// CHECK-SAME: %[[GRID:.*]]: index, %[[IN:.*]]: memref<?xi32>, %[[OUT:.*]]: memref<?xi32>)
// CHECK-DAG: %[[LEN_IN:.*]] = memref.dim %[[IN]]
// CHECK-DAG: %[[LEN_OUT:.*]] = memref.dim %[[OUT]]
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %[[GRID]]
// CHECK:   scf.for %[[I:.*]] =
// CHECK:     %[[PLACE:.*]] = arith.addi
// CHECK:     %[[PRESENT:.*]] = arith.cmpi ult, %[[PLACE]], %[[LEN_IN]]
// CHECK:     scf.if %[[PRESENT]] {
// CHECK:       memref.load %[[IN]][%[[PLACE]]]
// CHECK:     } else {
// CHECK:       %[[ABSENT:.*]] = arith.constant -1 : i32
// CHECK:       memref.store %[[ABSENT]]
// CHECK:   %[[LEFT:.*]] = arith.subi %[[LEN_IN]]
// CHECK:   %[[POSITIVE:.*]] = arith.maxsi %[[LEFT]]
// CHECK:   %[[EXTENT:.*]] = arith.minsi %[[POSITIVE]]
// CHECK:   call @where.block(%{{.*}}, %{{.*}}, %[[B]], %[[EXTENT]])
// CHECK:   scf.for
// CHECK:     %[[WRITTEN:.*]] = arith.cmpi ult, %{{.*}}, %[[LEN_OUT]]
// CHECK:     scf.if %[[WRITTEN]] {
// CHECK:       memref.store %{{.*}}, %[[OUT]]
// CHECK-LABEL: func.func private @where.launch_0(
// CHECK-SAME: %{{.*}}: index, %{{.*}}: memref<8xi32>, %{{.*}}: memref<8xi32>)
// CHECK: scf.for %[[BLOCK:.*]] =
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[FIRST:.*]] = arith.muli %[[BLOCK]], %{{.*}}
// CHECK: %[[BACK:.*]] = arith.muli %[[I]], %{{.*}}-1
// CHECK: %[[PLACE:.*]] = arith.addi %[[FIRST]], %[[BACK]]
// CHECK: arith.addi %[[PLACE]], %{{.*}}3
func.func @run(%in: memref<?xi32>, %out: memref<?xi32>, %grid: index, %s: memref<8xi32>, %t: memref<8xi32>) {
  obs.launch @where grid(%grid) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  obs.launch @where grid(%grid) ins(%out : memref<?xi32>) outs(%in : memref<?xi32>)
  obs.launch @where grid(2) ins(%s : memref<8xi32>) outs(%t : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + 3 - i)>, affine_map<(b, i) -> (b * 4 + 3 - i)>]
  return
}
