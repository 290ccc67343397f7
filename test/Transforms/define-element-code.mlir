// RUN: obs-opt %s --obs-define-element-code | FileCheck %s
// RUN: obs-opt %s --obs-define-element-code --obs-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// Element code loses what MLIR's folds would read their own way: overflow
// flags, `exact`, fast-math flags, and poison (0), in kernels and in device
// ops' regions; host code keeps its flags.

// CHECK-LABEL: obs.kernel @k
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: arith.addi %{{.*}}, %[[ZERO]] : i32
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: arith.divsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.shrui %{{.*}}, %{{.*}} : i32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: ub.poison
// CHECK-NOT: overflow
// CHECK-NOT: exact
// CHECK-NOT: fastmath
obs.kernel @k(%a: !obs.arr<4 x i32>, %f: !obs.arr<4 x f32>) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %m = obs.map %a, %f : !obs.arr<4 x i32>, !obs.arr<4 x f32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: f32):
    %p = ub.poison : i32
    %s = arith.addi %x, %p : i32
    %t = arith.muli %s, %x overflow<nsw, nuw> : i32
    %d = arith.divsi %t, %x exact : i32
    %u = arith.shrui %d, %x exact : i32
    %z = arith.constant 0.0 : f32
    %w = arith.mulf %y, %z fastmath<nnan,nsz> : f32
    %c = arith.fptosi %w : f32 to i32
    %r = arith.addi %u, %c : i32
    obs.yield %r : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// CHECK-LABEL: func.func @host
// CHECK: obs.device_map
// CHECK: arith.constant 0 : i32
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: arith.addi %{{.*}}, %{{.*}} overflow<nsw> : index
func.func @host(%in: memref<?xi32>, %out: memref<?xi32>, %n: index) -> index {
  obs.device_map ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32):
    %p = ub.poison : i32
    %r = arith.addi %x, %p overflow<nsw> : i32
    obs.yield %r : i32
  }
  %c1 = arith.constant 1 : index
  %m = arith.addi %n, %c1 overflow<nsw> : index
  return %m : index
}

// STATS: obs-define-element-code
// STATS-NEXT: 2 poison-replaced
