// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks))' | FileCheck %s

// Tests of the serial reduce network (lib/Builder/Networks.cpp,
// serialReduce): whole warps of runs' totals fold by butterflies, element i
// combining its own with element i xor d for d = 1, 2, 4, 8 and 16, with no
// lane test (so that the PTX pipeline may make a warp's five stages one
// redux.sync); then one thread folds the warps' first elements, the warps'
// totals, left to right in a loop, as CUB's BlockReduce does.

// CHECK-LABEL: obs.kernel @sum_512_on_256
// CHECK: %[[RUNS:.*]] = obs.sync %{{.*}} : !obs.arr<256 x i32>
// CHECK: %[[W1:.*]] = obs.generate : !obs.arr<256 x i32>
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: %[[OWN:.*]] = obs.index %[[RUNS]][%[[I]]]
// CHECK-NEXT: %[[D:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[PARTNER:.*]] = arith.xori %[[I]], %[[D]]
// CHECK-NEXT: %[[OTHER:.*]] = obs.index %[[RUNS]][%[[PARTNER]]]
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[OWN]], %[[OTHER]]
// CHECK-NEXT: obs.yield %[[SUM]]
// CHECK: obs.sync %[[W1]] : !obs.arr<256 x i32>
// CHECK: arith.constant 2 : index
// CHECK-NEXT: arith.xori
// CHECK: arith.constant 4 : index
// CHECK-NEXT: arith.xori
// CHECK: arith.constant 8 : index
// CHECK-NEXT: arith.xori
// CHECK: arith.constant 16 : index
// CHECK-NEXT: arith.xori
// CHECK: %[[FOLDED:.*]] = obs.sync %{{.*}} : !obs.arr<256 x i32>
// CHECK-NOT: obs.sync
// CHECK: %[[FIRSTS:.*]] = obs.generate : !obs.arr<8 x i32>
// CHECK: %[[WARP:.*]] = arith.muli %{{.*}}, %c32
// CHECK: %[[AT:.*]] = arith.addi %[[WARP]], %{{.*}}
// CHECK: obs.index %[[FOLDED]][%[[AT]]]
// CHECK: %[[ONE:.*]] = obs.generate : !obs.arr<1 x i32>
// CHECK: %[[START:.*]] = obs.index %[[FIRSTS]][%c0]
// CHECK: scf.for %[[W:.*]] = %c1{{.*}} to %c8{{.*}} step %{{.*}} iter_args(%[[SOFAR:.*]] = %[[START]])
// CHECK: %[[NEXT:.*]] = obs.index %[[FIRSTS]][%[[W]]]
// CHECK: arith.addi %[[SOFAR]], %[[NEXT]]
// CHECK: %[[TOTAL:.*]] = obs.sync %[[ONE]] : !obs.arr<1 x i32>
// CHECK: obs.index %[[TOTAL]][%c0]
obs.kernel @sum_512_on_256(%a: !obs.arr<512 x i32>) -> !obs.arr<1 x i32>
    attributes {threads = 256} {
  %s = obs.reduce %a : !obs.arr<512 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  %t = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %s : i32
  }
  obs.return %t : !obs.arr<1 x i32>
}
