// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-elide-warp-syncs,obs-assign-work{threads=64 strategy=blocked},obs-verify-sync))' | FileCheck %s --check-prefix=BLOCKED
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-elide-warp-syncs,obs-assign-work{threads=64 strategy=strided},obs-verify-sync))' | FileCheck %s --check-prefix=STRIDED
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-elide-warp-syncs,obs-assign-work{threads=64 strategy=blocked},obs-verify-sync))' --obs-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS-BLOCKED
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-elide-warp-syncs,obs-assign-work{threads=64 strategy=strided},obs-verify-sync))' --obs-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS-STRIDED

// Tests of lib/Transforms/AssignWork.cpp (and of refineSyncs in
// lib/Transforms/KernelSimulation.cpp, which takes unsafe decisions back):
// a warp scope an earlier pass planned before work was assigned (a warp
// scope the user wrote is never taken back: see written-properties.mlir).
// With one thread per element, thread e writes element e and reads it back, so obs-elide-warp-syncs makes the sync warp-scoped. For
// 64 threads, blocked<2> has thread e/2 write element e, which the output
// stage (one element per thread) reads from thread e mod 64, another warp
// for e >= 64 half the time: the warp scope is taken back (found by
// obs-fuzz: the kernel used to reach obs-verify-sync and be rejected).
// strided<64> writes element e from thread e mod 64, which also reads it:
// the warp scope stays.
// BLOCKED-LABEL: obs.kernel @elided_then_assigned
// BLOCKED: obs.sync plan(blocked<2>) %{{.*}} : !obs.arr<128 x i32>
// STRIDED-LABEL: obs.kernel @elided_then_assigned
// STRIDED: obs.sync plan(warp strided<64>) %{{.*}} : !obs.arr<128 x i32>
obs.kernel @elided_then_assigned(%a: !obs.arr<128 x i32>) -> !obs.arr<128 x i32> {
  %0 = obs.sync %a : !obs.arr<128 x i32>
  %c2 = arith.constant 2 : i32
  %1 = obs.map %0 : !obs.arr<128 x i32> -> !obs.arr<128 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %c2 : i32
    obs.yield %y : i32
  }
  obs.return %1 : !obs.arr<128 x i32>
}

// STATS-BLOCKED: obs-assign-work
// STATS-BLOCKED: 1 decisions-taken-back
// STATS-STRIDED: obs-assign-work
// STATS-STRIDED-NOT: decisions-taken-back
// STATS-STRIDED: obs-verify-sync
