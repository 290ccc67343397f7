// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-promote-registers,obs-assign-work{threads=8 strategy=compact},obs-verify-sync))' | FileCheck %s --check-prefix=COMPACT
// RUN: not obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-promote-registers,obs-assign-work{threads=1 strategy=strided},obs-verify-sync))' 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-promote-registers,obs-assign-work{threads=8 strategy=blocked},obs-verify-sync))' | FileCheck %s --check-prefix=BLOCKED
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-promote-registers,obs-assign-work{threads=8 strategy=compact},obs-verify-sync))' --obs-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// Tests of lib/Transforms/AssignWork.cpp: a registers or shuffle storage
// chosen before the work is dealt out, which the new assignment cannot
// keep at all, is taken back (the lowering would refuse it: found by
// obs-fuzz, seed 7, whose pipelines ran obs-promote-registers first); a
// written one is kept, and its stage dealt out by position where the
// strategy would break it.

// With one thread per element, each thread reads back the element it
// computed: obs-promote-registers keeps the first stage in registers.
// Compact positions cannot index registers, and one thread would need 16
// rounds where registers hold 8: the storage goes, the assignment stays.
// COMPACT-LABEL: obs.kernel @planned
// COMPACT: obs.sync plan(compact<8>) %{{.*}} : !obs.arr<16 x i32>
// ONE-DAG: obs.sync plan(strided<1>) %{{.*}} : !obs.arr<16 x i32>
// STATS: obs-assign-work
// STATS: 1 decisions-taken-back
obs.kernel @planned(%a: !obs.arr<16 x i32>) -> !obs.arr<16 x i32> {
  %m = obs.map %a : !obs.arr<16 x i32> -> !obs.arr<16 x i32> {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  %s = obs.sync %m : !obs.arr<16 x i32>
  %n = obs.map %s : !obs.arr<16 x i32> -> !obs.arr<16 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %x : i32
    obs.yield %y : i32
  }
  %r = obs.sync %n : !obs.arr<16 x i32>
  obs.return %r : !obs.arr<16 x i32>
}

// -----

// Written registers: compact would make the claim impossible, so the stage
// that computes the array and the one that reads it are dealt out strided
// (thread t computes t, t + 8, t + 16 and t + 24 and reads them back itself), and the
// claim is proved and kept. With one thread, no
// assignment can keep it: it is rejected, not replaced.
// COMPACT-LABEL: obs.kernel @written
// COMPACT: obs.sync registers plan(strided<8>) %{{.*}} : !obs.arr<32 x i32>
// COMPACT: obs.sync plan(strided<8>) %{{.*}} : !obs.arr<32 x i32>
// Blocked keeps it (each thread reads back what it computed) and stays.
// BLOCKED-LABEL: obs.kernel @written
// BLOCKED: obs.sync registers plan(blocked<4>) %{{.*}} : !obs.arr<32 x i32>
// BLOCKED: obs.sync plan(blocked<4>) %{{.*}} : !obs.arr<32 x i32>
// ONE-DAG: error: 'obs.sync' op cannot keep its array in registers: each thread computes 32 rounds of it, and registers hold at most 16
obs.kernel @written(%a: !obs.arr<32 x i32>) -> !obs.arr<32 x i32> {
  %m = obs.map %a : !obs.arr<32 x i32> -> !obs.arr<32 x i32> {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  %s = obs.sync registers %m : !obs.arr<32 x i32>
  %n = obs.map %s : !obs.arr<32 x i32> -> !obs.arr<32 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %x : i32
    obs.yield %y : i32
  }
  %r = obs.sync %n : !obs.arr<32 x i32>
  obs.return %r : !obs.arr<32 x i32>
}

// -----

// Written shuffles: the stage that reads them is dealt out by position too,
// since a compact stage reads under a branch, where no shuffle may be (the
// cost strategy had picked compact for it, and the kernel was rejected).
// 8 threads in one warp; out[i] = a[i xor 1].
// COMPACT-LABEL: obs.kernel @read_from_shuffles
// COMPACT: obs.sync shuffle plan(strided<8>) %{{.*}} : !obs.arr<8 x i32>
// COMPACT: obs.sync plan(strided<8>) %{{.*}} : !obs.arr<8 x i32>
obs.kernel @read_from_shuffles(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %s = obs.sync shuffle %a : !obs.arr<8 x i32>
  %g = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %j = arith.xori %i, %c1 : index
    %x = obs.index %s[%j] : !obs.arr<8 x i32>
    obs.yield %x : i32
  }
  %r = obs.sync %g : !obs.arr<8 x i32>
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// Written registers that blocked would make false: the claim is of the
// stages as written, dealt out by position (thread t computes t and t + 32
// and reads t + 32 and t back, which ref proves). Blocked<2> would give
// thread t the elements 2t and 2t + 1, and the GPU targets refused what ref
// ran (found by an adversarial run: a kernel's `strategy = blocked`).
// BLOCKED-LABEL: obs.kernel @written_rotation
// BLOCKED: obs.sync registers plan(strided<8>) %{{.*}} : !obs.arr<64 x i32>
// BLOCKED: obs.sync plan(strided<8>) %{{.*}} : !obs.arr<64 x i32>
obs.kernel @written_rotation(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %m = obs.map %a : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  %s = obs.sync registers %m : !obs.arr<64 x i32>
  %g = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %j0 = arith.addi %i, %c32 : index
    %j = arith.remui %j0, %c64 : index
    %u = obs.index %s[%j] : !obs.arr<64 x i32>
    obs.yield %u : i32
  }
  %t = obs.sync %g : !obs.arr<64 x i32>
  obs.return %t : !obs.arr<64 x i32>
}
