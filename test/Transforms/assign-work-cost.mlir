// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=64 strategy=cost refine-with=promote-registers}))' | FileCheck %s
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=64 strategy=cost refine-with=promote-registers}))' --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: not obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{strategy=cost refine-with=promote-registers,in-place}))' 2>&1 | FileCheck %s --check-prefix=MISSPELT

// With keep-refined, the kernel leaves the pass as if the refinements ran
// after it, and they count as if they had: under the cost strategy the
// chosen copy, already refined, takes the kernel's place (@pairs, @one_each);
// where nothing is costed (@written) or under another strategy, the
// refinements run on the kernel.
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=64 strategy=cost refine-with=promote-registers,inplace keep-refined=true}))' --obs-statistics > %t.kept 2> %t.kept.stats
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=64 strategy=cost refine-with=promote-registers,inplace},obs-promote-registers,obs-inplace))' --obs-statistics > %t.after 2> %t.after.stats
// RUN: diff %t.kept %t.after
// RUN: FileCheck %s --check-prefix=KEPT < %t.kept
// RUN: grep -A2 -e obs-promote-registers -e obs-inplace %t.after.stats | grep -v simulations > %t.after.counts
// RUN: grep -A2 -e obs-promote-registers -e obs-inplace %t.kept.stats | grep -v simulations | diff - %t.after.counts
// RUN: FileCheck %s --check-prefix=KEPT-STATS < %t.kept.stats
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=64 strategy=strided refine-with=promote-registers,inplace keep-refined=true}))' > %t.kept
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=64 strategy=strided},obs-promote-registers,obs-inplace))' > %t.after
// RUN: diff %t.kept %t.after
// KEPT-LABEL: obs.kernel @pairs
// KEPT: obs.sync plan(blocked<4> registers) %{{.*}} : !obs.arr<256 x i32>
// KEPT-STATS: obs-promote-registers
// KEPT-STATS-NEXT: 1 syncs-in-registers

// Tests of lib/Transforms/AssignWork.cpp's cost strategy: each strategy is
// dealt out on a copy, refined by the passes refine-with names, and
// simulated; the cheapest (obs-report-cost's issue slots) goes into the
// kernel's plan, and (without keep-refined) only the assignment: the
// refinements are the pipeline's to make on the kernel itself.

// Pairwise addition of 256 elements on 64 threads after a map. Blocked
// gives thread t elements 4t .. 4t + 3, so the pairs the second stage reads
// are its own: the first stage stays in registers (no shared memory, no
// barrier). Strided and compact give a pair's elements to two threads:
// shared memory and a barrier, or shuffles.
// CHECK-LABEL: obs.kernel @pairs
// CHECK: obs.sync plan(blocked<4>) %{{.*}} : !obs.arr<256 x i32>
// CHECK: obs.sync plan(blocked<4>) %{{.*}} : !obs.arr<256 x i32>
obs.kernel @pairs(%a: !obs.arr<256 x i32>) -> !obs.arr<256 x i32> {
  %m = obs.map %a : !obs.arr<256 x i32> -> !obs.arr<256 x i32> {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  %s = obs.sync %m : !obs.arr<256 x i32>
  %pairs = obs.pair %s : !obs.arr<256 x i32>
  %sums = obs.map %pairs : !obs.arr<128 x tuple<i32, i32>> -> !obs.arr<128 x tuple<i32, i32>> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %x, %z : i32, i32
  }
  %flat = obs.unpair %sums : !obs.arr<128 x tuple<i32, i32>>
  %r = obs.sync %flat : !obs.arr<256 x i32>
  obs.return %r : !obs.arr<256 x i32>
}

// -----

// One element per thread: blocked<1> is strided, so two strategies are
// costed (STATS counts 3 + 2 over the two kernels). The reversed read
// crosses warps: shared memory under either, and strided's assignment is
// kept on the tie (the first candidate wins one).
// CHECK-LABEL: obs.kernel @one_each
// CHECK: obs.sync plan(strided<64>) %{{.*}} : !obs.arr<64 x i32>
obs.kernel @one_each(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// Every assignment written: nothing to cost.
// CHECK-LABEL: obs.kernel @written
// CHECK: obs.sync strided<64> %{{.*}} : !obs.arr<128 x i32>
obs.kernel @written(%a: !obs.arr<128 x i32>) -> !obs.arr<128 x i32> {
  %s = obs.sync strided<64> %a : !obs.arr<128 x i32>
  %r = obs.rev %s : !obs.arr<128 x i32>
  obs.return %r : !obs.arr<128 x i32>
}

// STATS: obs-assign-work
// STATS: 5 strategies-costed

// MISSPELT: obs-assign-work: unknown refinement 'in-place' in refine-with (promote-registers, inplace, plan-shared or elide-warp-syncs)
