// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-inplace))' | FileCheck %s
// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-inplace))' --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: obs-opt %S/Inputs/inplace-warp-scope.mlir --pass-pipeline='builtin.module(obs.kernel(obs-inplace))' --obs-statistics 2>&1 | FileCheck %s --check-prefix=WARP

// Tests of lib/Transforms/InPlace.cpp's findFailingInPlace: the trials in
// place that the simulation of the kernel as it is already shows to fail
// are not made, and what comes out is what the trials would give.

// The first sync reads the kernel's argument from global memory: it has no
// array in shared memory to overwrite. rev in place would have thread t
// overwrite element t, which thread 7 - t reads in the same stage: it
// would race within itself. Neither is tried; the map, whose every thread
// reads only the element it writes, is tried and goes in place. So one
// trial: the simulation of the kernel as it was, and one of the map in
// place (before findFailingInPlace, a third undid rev's trial).
// CHECK-LABEL: obs.kernel @not_tried
// CHECK: obs.sync %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync plan(inplace) %{{.*}} : !obs.arr<8 x i32>
// STATS: obs-inplace
// STATS-NEXT: 1 syncs-in-place
// STATS-NEXT: 0 identity-writes-dropped
// STATS-NEXT: 2 syncs-not-tried
// STATS-NEXT: 2 simulations
obs.kernel @not_tried(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.sync %a : !obs.arr<8 x i32>
  %1 = obs.rev %0 : !obs.arr<8 x i32>
  %2 = obs.sync %1 : !obs.arr<8 x i32>
  %3 = obs.map %2 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %4 = obs.sync %3 : !obs.arr<8 x i32>
  %5 = obs.rev %4 : !obs.arr<8 x i32>
  obs.return %5 : !obs.arr<8 x i32>
}

// WARP: 1 syncs-in-place
// WARP-NEXT: 0 identity-writes-dropped
// WARP-NEXT: 1 syncs-not-tried
// WARP-NEXT: 3 simulations
// WARP: obs.sync warp %{{.*}} : !obs.arr<8 x i32>
// WARP: obs.sync %{{.*}} : !obs.arr<8 x i32>
// WARP: obs.sync plan(inplace) %{{.*}} : !obs.arr<8 x i32>
