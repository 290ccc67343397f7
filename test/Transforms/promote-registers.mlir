// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=256 strategy=blocked},obs-promote-registers))' | FileCheck %s
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=256 strategy=strided},obs-promote-registers))' | FileCheck %s --check-prefix=STRIDED
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=256 strategy=blocked},obs-promote-registers))' --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: obs-opt %s --split-input-file --obs-optimize="threads=256 strategy=blocked" --convert-obs-to-gpu --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=LOWERED

// Tests of lib/Transforms/PromoteRegisters.cpp.

// Statistics are over the whole file: one sync in registers in each of
// @swap_and_shift, @not_candidates and @pairs, each lowered to a stage with
// no buffer and no barrier.
// STATS: obs-promote-registers
// STATS-NEXT: 3 syncs-in-registers
// LOWERED: convert-obs-to-gpu
// LOWERED: 11 stages
// LOWERED: 3 register-stages

// Under blocked<2>, thread t computes elements 2t and 2t+1 of every stage,
// and the swap reads element i xor 1: its own. The first array stays in
// registers. The reversal read at i - 1 is another thread's element half
// the time, so its array stays in shared memory; the last sync only
// returns its array. Under strided<256>, thread t computes t and t + 256,
// and i xor 1 is thread t xor 1's: nothing is promoted.
// CHECK-LABEL: obs.kernel @swap_and_shift
// CHECK: obs.sync plan(blocked<2> registers) %{{.*}} : !obs.arr<512 x i32>
// CHECK: obs.sync plan(blocked<2>) %{{.*}} : !obs.arr<512 x i32>
// CHECK: obs.sync plan(blocked<2>) %{{.*}} : !obs.arr<512 x i32>
// STRIDED-LABEL: obs.kernel @swap_and_shift
// STRIDED-NOT: registers
// STRIDED: obs.return
obs.kernel @swap_and_shift(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> {
  %c1 = arith.constant 1 : i32
  %c1000 = arith.constant 1000 : i32
  %0 = obs.map %a : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  %1 = obs.sync %0 : !obs.arr<512 x i32>
  %r = obs.rev %a : !obs.arr<512 x i32>
  %2 = obs.sync %r : !obs.arr<512 x i32>
  %3 = obs.generate : !obs.arr<512 x i32> {
  ^bb0(%i: index):
    %one = arith.constant 1 : index
    %zero = arith.constant 0 : index
    %j = arith.xori %i, %one : index
    %x = obs.index %1[%j] : !obs.arr<512 x i32>
    %k = arith.subi %i, %one : index
    %first = arith.cmpi eq, %i, %zero : index
    %kk = arith.select %first, %zero, %k : index
    %y = obs.index %2[%kk] : !obs.arr<512 x i32>
    %xm = arith.muli %x, %c1000 : i32
    %s = arith.addi %xm, %y : i32
    obs.yield %s : i32
  }
  %4 = obs.sync %3 : !obs.arr<512 x i32>
  obs.return %4 : !obs.arr<512 x i32>
}

// -----

// A written scope or placement is a claim about a buffer and a barrier,
// which registers would drop: such syncs are not candidates, however their
// elements are read. The copy with open properties is promoted (each
// thread reads back its own element).
// CHECK-LABEL: obs.kernel @not_candidates
// CHECK: obs.sync block plan(blocked<2>) %{{.*}} : !obs.arr<512 x i32>
// CHECK: obs.sync fresh plan(blocked<2>) %{{.*}} : !obs.arr<512 x i32>
// CHECK: obs.sync plan(blocked<2> registers) %{{.*}} : !obs.arr<512 x i32>
// CHECK: obs.sync plan(blocked<2>) %{{.*}} : !obs.arr<512 x i32>
obs.kernel @not_candidates(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> {
  %0 = obs.sync block %a : !obs.arr<512 x i32>
  %1 = obs.sync fresh %0 : !obs.arr<512 x i32>
  %2 = obs.sync %1 : !obs.arr<512 x i32>
  %3 = obs.sync %2 : !obs.arr<512 x i32>
  obs.return %3 : !obs.arr<512 x i32>
}

// -----

// Registers hold scalars and tuples: an array of arrays stays in shared
// memory, though each thread reads back only its own elements.
// CHECK-LABEL: obs.kernel @nested
// CHECK-NOT: registers
// CHECK: obs.return
obs.kernel @nested(%a: !obs.arr<256 x !obs.arr<2 x i32>>) -> !obs.arr<256 x !obs.arr<2 x i32>> {
  %0 = obs.sync %a : !obs.arr<256 x !obs.arr<2 x i32>>
  %1 = obs.sync %0 : !obs.arr<256 x !obs.arr<2 x i32>>
  obs.return %1 : !obs.arr<256 x !obs.arr<2 x i32>>
}

// -----

// Tuples are kept a scalar at a time.
// CHECK-LABEL: obs.kernel @pairs
// CHECK: obs.sync plan(blocked<1> registers) %{{.*}} : !obs.arr<256 x tuple<i32, f32>>
obs.kernel @pairs(%a: !obs.arr<256 x tuple<i32, f32>>) -> !obs.arr<256 x tuple<i32, f32>> {
  %0 = obs.sync %a : !obs.arr<256 x tuple<i32, f32>>
  %1 = obs.sync %0 : !obs.arr<256 x tuple<i32, f32>>
  obs.return %1 : !obs.arr<256 x tuple<i32, f32>>
}
