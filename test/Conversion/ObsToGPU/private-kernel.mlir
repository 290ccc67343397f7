// RUN: obs-opt %s --split-input-file --obs-to-gpu | FileCheck %s

// A private kernel is compiled only for the launches that use it: no
// one-block instance and no host function of its name (a public kernel has
// both, for running it alone).

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK-NOT: func.func @tile(
// CHECK: func.func @public_copy(
// CHECK: gpu.launch_func @obs_kernels::@public_copy blocks in
// CHECK-LABEL: func.func @run(
// CHECK: gpu.launch_func @obs_kernels::@tile_any
// CHECK: gpu.launch_func @obs_kernels::@public_copy_grid2
// CHECK-LABEL: gpu.module @obs_kernels
// CHECK-NOT: gpu.func @tile(
// CHECK-DAG: gpu.func @tile_any(
// CHECK-DAG: gpu.func @public_copy(
// CHECK-DAG: gpu.func @public_copy_grid2(
// CHECK-NOT: gpu.func @tile(
obs.kernel private @tile(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

obs.kernel @public_copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @run(%in: memref<?xi32>, %out: memref<?xi32>, %x: memref<8xi32>, %y: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %blocks = arith.ceildivui %n, %c4 : index
  obs.launch @tile grid(%blocks) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  obs.launch @public_copy grid(2) ins(%x : memref<8xi32>) outs(%y : memref<8xi32>)
  return
}

// -----

// A private kernel nothing launches is compiled for nothing.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK-NOT: unused
obs.kernel private @unused(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}
obs.kernel @used(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}
