// RUN: obs-opt %s --obs-optimize="threads=32" | FileCheck %s
// RUN: obs-opt %s --obs-optimize="threads=32 strategy=compact passes=assign-work" | FileCheck %s --check-prefix=ONLY
// RUN: obs-opt %s --obs-optimize="threads=32 passes=assign-work,inplace,plan-shared,elide-warp-syncs" | FileCheck %s --check-prefix=SHARED
// RUN: not obs-opt %s --obs-optimize="passes=inplace,elide-warp-sync" 2>&1 | FileCheck %s --check-prefix=MISSPELT
// RUN: not obs-opt %s --obs-optimize="strategy=strode" 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not obs-run %s --passes=inplace,plan-shred 2>&1 | FileCheck %s --check-prefix=RUN-MISSPELT

// A misspelt pass or strategy is an error, not a pipeline that quietly runs
// less than was asked.
// MISSPELT: for the --passes option: Cannot find option named 'elide-warp-sync'!
// STRATEGY: for the --strategy option: Cannot find option named 'strode'!
// RUN-MISSPELT: for the --passes option: Cannot find option named 'plan-shred'!

// obs-optimize: flatten, assign work, registers and shuffles, in place,
// warp syncs, shared memory plan, verify. With 32 threads (one warp) every
// barrier can be a warp barrier, and the second stage's array, read
// reversed within the warp, is exchanged by shuffles: no buffer and no
// barrier. Without obs-promote-registers, the second stage overwrites the
// first in place, and the strategy the simulated cost picks (none is given)
// is compact: fan leaves the first half as it is, so compact deals out only
// the 32 elements of the second half, one round where strided has two.
// CHECK-LABEL: obs.kernel @two_stages
// CHECK-SAME: obs.shared_bytes = 256
// CHECK-SAME: threads = 32
// CHECK: obs.sync plan(warp strided<32>) %{{.*}} {obs.shared_offsets = array<i64: 0>}
// CHECK: obs.sync plan(strided<32> shuffle) %{{.*}} : !obs.arr<64 x i32>
// SHARED-LABEL: obs.kernel @two_stages
// SHARED-SAME: obs.shared_bytes = 256
// SHARED: obs.sync plan(warp compact<32>) %{{.*}} {obs.shared_offsets = array<i64: 0>}
// SHARED: obs.sync plan(warp inplace compact<32>) %{{.*}} : !obs.arr<64 x i32>
// ONLY: obs.sync plan(compact<32>) %{{.*}} : !obs.arr<64 x i32>
// ONLY: obs.sync plan(compact<32>) %{{.*}} : !obs.arr<64 x i32>
obs.kernel @two_stages(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.two %a : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%h: !obs.arr<32 x i32>):
    %r = obs.rev %h : !obs.arr<32 x i32>
    %s = obs.sync %r : !obs.arr<32 x i32>
    obs.yield %s : !obs.arr<32 x i32>
  }
  %1 = obs.fan %0 : !obs.arr<64 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  %3 = obs.rev %2 : !obs.arr<64 x i32>
  obs.return %3 : !obs.arr<64 x i32>
}
