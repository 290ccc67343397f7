// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-promote-registers))' | FileCheck %s --check-prefix=CHOSEN
// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-promote-registers,obs-assign-work{threads=64 strategy=strided},obs-verify-sync))' | FileCheck %s --check-prefix=WIDER
// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-promote-registers,obs-assign-work{threads=64 strategy=strided}))' --obs-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// Tests of lib/Transforms/AssignWork.cpp: a kernel whose every sync has a
// written work assignment still gets a block size, and choices made for
// the block it had before are re-decided (obs-fuzz seed 6262 #2528 and
// #787, which obs-verify-sync rejected).
//
// Without `threads`, the block is as wide as its widest stage: blocked<8>
// of 16 elements needs 2 threads, and obs-promote-registers exchanges the
// reversed array between those 2 lanes by a shuffle. On 64 threads, lanes
// 2 to 63 would not run that shuffle, yet its warp's mask names every lane
// that runs the stage: the storage is taken back to shared memory.
// CHOSEN: obs.sync blocked<8> plan(shuffle)
// WIDER: obs.kernel @blocked_reversed({{.*}} attributes {threads = 64 : i64}
// WIDER-NOT: shuffle
// WIDER: obs.sync blocked<8> %{{.*}} : !obs.arr<16 x f64>
// STATS: 1 decisions-taken-back
obs.kernel @blocked_reversed(%input: !obs.arr<16 x f64>) -> !obs.arr<16 x f64> {
  %blocked = obs.sync blocked<8> %input : !obs.arr<16 x f64>
  %reversed = obs.rev %blocked : !obs.arr<16 x f64>
  obs.return %reversed : !obs.arr<16 x f64>
}
