// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=256}))' | FileCheck %s --check-prefix=STRIDED
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=256 strategy=blocked}))' | FileCheck %s --check-prefix=BLOCKED
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=256 strategy=compact}))' | FileCheck %s --check-prefix=COMPACT
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=256}))' --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work))' | FileCheck %s --check-prefix=NONE

// Tests of lib/Transforms/AssignWork.cpp.

// Syncs without a work assignment get one for the option's 256 threads,
// which become the kernel's, in their plan; a written one is kept.
// STRIDED-LABEL: obs.kernel @open
// STRIDED-SAME: threads = 256
// STRIDED: obs.sync plan(strided<256>) %{{.*}} : !obs.arr<512 x i32>
// STRIDED: obs.sync blocked<4> %{{.*}} : !obs.arr<512 x i32>
// BLOCKED-LABEL: obs.kernel @open
// BLOCKED: obs.sync plan(blocked<2>) %{{.*}} : !obs.arr<512 x i32>
// BLOCKED: obs.sync blocked<4> %{{.*}} : !obs.arr<512 x i32>
// COMPACT-LABEL: obs.kernel @open
// COMPACT: obs.sync plan(compact<256>) %{{.*}} : !obs.arr<512 x i32>
// COMPACT: obs.sync blocked<4> %{{.*}} : !obs.arr<512 x i32>
// NONE-LABEL: obs.kernel @open
// NONE-NOT: threads =
// NONE: obs.sync %{{.*}} : !obs.arr<512 x i32>
obs.kernel @open(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> {
  %0 = obs.sync %a : !obs.arr<512 x i32>
  %1 = obs.rev %0 : !obs.arr<512 x i32>
  %2 = obs.sync blocked<4> %1 : !obs.arr<512 x i32>
  obs.return %2 : !obs.arr<512 x i32>
}

// -----

// The kernel's own `threads` wins over the option.
// STRIDED-LABEL: obs.kernel @own
// STRIDED-SAME: threads = 64
// STRIDED: obs.sync plan(strided<64>) %{{.*}} : !obs.arr<512 x i32>
// BLOCKED-LABEL: obs.kernel @own
// BLOCKED: obs.sync plan(blocked<8>) %{{.*}} : !obs.arr<512 x i32>
// STATS: obs-assign-work
// STATS-NEXT: 2 syncs-assigned
// STATS-NEXT: 8 max-elements-per-thread
obs.kernel @own(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> attributes {threads = 64} {
  %0 = obs.sync %a : !obs.arr<512 x i32>
  obs.return %0 : !obs.arr<512 x i32>
}

