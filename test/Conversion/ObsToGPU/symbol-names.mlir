// RUN: obs-opt %s --convert-obs-to-gpu | FileCheck %s

// Tests of lib/Conversion/ObsToGPU: the names the lowering gives its
// gpu.module and instances are only hints. Here a kernel is called like the
// 4-block instance of another (@double_grid4) and another like the
// gpu.module (@obs_kernels); each launch must still reach its own kernel,
// which the element operation tells apart (addi doubles, muli squares).

// CHECK-LABEL: func.func @double_grid4(
// CHECK: gpu.launch_func @[[MOD:[a-z_0-9]+]]::@[[SQUARE:[a-z_0-9]+]] blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%c8
// CHECK-LABEL: func.func @obs_kernels(
// CHECK: gpu.launch_func @[[MOD]]::@{{[a-z_0-9]+}} blocks
// CHECK-LABEL: func.func @main(
// CHECK: gpu.launch_func @[[MOD]]::@[[DOUBLE4:[a-z_0-9]+]] blocks in (%c4{{(_[0-9]+)?}},
// CHECK: gpu.module @[[MOD]] {
// CHECK: gpu.func @[[DOUBLE4]](%{{[^:]*}}: memref<32xi32>{{( \{[^}]*\})?}}, %{{[^:]*}}: memref<32xi32>{{( \{[^}]*\})?}})
// CHECK-NOT: gpu.func
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NOT: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: gpu.func @[[SQUARE]](%{{[^:]*}}: memref<8xi32>{{( \{[^}]*\})?}}, %{{[^:]*}}: memref<8xi32>{{( \{[^}]*\})?}})
// CHECK-NOT: gpu.func
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32

obs.kernel @double(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  obs.return %0 : !obs.arr<8 x i32>
}
obs.kernel @double_grid4(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %x : i32
    obs.yield %y : i32
  }
  obs.return %0 : !obs.arr<8 x i32>
}
obs.kernel @obs_kernels(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  obs.return %a : !obs.arr<8 x i32>
}
func.func @main(%in: memref<32xi32>, %out: memref<32xi32>) {
  obs.launch @double grid(4) ins(%in : memref<32xi32>) outs(%out : memref<32xi32>)
  return
}
