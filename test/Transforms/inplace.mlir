// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-inplace))' | FileCheck %s
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-inplace))' --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: obs-opt %examples/paper/sklansky.mlir --pass-pipeline='builtin.module(obs.kernel(obs-flatten,canonicalize,obs-assign-work{threads=256},obs-inplace))' | FileCheck %s --check-prefix=SKLANSKY

// Tests of lib/Transforms/InPlace.cpp.

// fan in place: each thread reads the pivot a[3] and its own element and
// writes only its own element of the second half; the first half is copied
// unchanged, so those four writes are dropped.
// CHECK-LABEL: obs.kernel @fan
// CHECK: obs.sync %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync plan(inplace) %{{.*}} : !obs.arr<8 x i32>
obs.kernel @fan(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.sync %a : !obs.arr<8 x i32>
  %1 = obs.fan %0 : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %2 = obs.sync %1 : !obs.arr<8 x i32>
  %3 = obs.rev %2 : !obs.arr<8 x i32>
  obs.return %3 : !obs.arr<8 x i32>
}

// -----

// odds in place would overwrite elements that the other thread of the pair
// still reads: it stays in a fresh buffer. The first sync reads global
// memory only and has nothing to overwrite.
// CHECK-LABEL: obs.kernel @odds
// CHECK: obs.sync %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<8 x i32>
// CHECK-NOT: inplace
// STATS: obs-inplace
// STATS-NEXT: 1 syncs-in-place
// STATS-NEXT: 4 identity-writes-dropped
obs.kernel @odds(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.sync %a : !obs.arr<8 x i32>
  %1 = obs.odds %0 : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %lo = arith.minsi %x, %y : i32
    %hi = arith.maxsi %x, %y : i32
    obs.yield %lo, %hi : i32, i32
  }
  %2 = obs.sync %1 : !obs.arr<8 x i32>
  %3 = obs.rev %2 : !obs.arr<8 x i32>
  obs.return %3 : !obs.arr<8 x i32>
}

// -----

// A placement the user wrote is kept.
// CHECK-LABEL: obs.kernel @written
// CHECK: obs.sync fresh %{{.*}} : !obs.arr<8 x i32>
obs.kernel @written(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.sync %a : !obs.arr<8 x i32>
  %1 = obs.map %0 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  %2 = obs.sync fresh %1 : !obs.arr<8 x i32>
  %3 = obs.rev %2 : !obs.arr<8 x i32>
  obs.return %3 : !obs.arr<8 x i32>
}

// Sklansky's levels 2 to 8 overwrite the level before; level 1 reads global
// memory and level 9 writes the result.
// SKLANSKY-LABEL: obs.kernel @sklansky9
// SKLANSKY: obs.sync plan(strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY-COUNT-7: obs.sync plan(inplace strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY: obs.sync plan(strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY-NEXT: obs.return
