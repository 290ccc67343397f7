// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-flatten, obs-report-cost))' --verify-diagnostics -o /dev/null
// A report is its remarks, one line each, without the kernel printed after
// them.
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-flatten, obs-report-cost))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: remark: one block:
// PLAIN-NOT: see current operation

// Tests of lib/Transforms/ReportCost.cpp and computePhaseCosts
// (lib/Analysis/BlockRun.cpp): the numbers follow from the access pattern
// and the lowered gpu.func by hand. Warp ops: each access, barrier, branch
// (scf.if) and op on data, once per warp that runs it; index arithmetic on
// the thread id is not counted (LLVM folds and shares it). Issue slots:
// the warp ops, each wavefront and line past an access's first, and 16 per
// warp per block barrier.

// 64 threads, two warps. Stage 1: thread t loads element t (each warp 128
// consecutive bytes: one line) and stores it at word t of shared memory
// (32 banks, one word each: one wavefront); per warp a guard, the load, the
// store and the barrier. The last stage, after the barrier: thread t reads
// word 63 - t (a warp reads 32 consecutive words: one wavefront) and
// writes element t (one line); per warp a guard, the load and the store.
// Slots: 14 ops and 2 warps waiting at one block barrier, 14 + 32.
// expected-remark @+1 {{one block: 1 block barriers, 0 warp barriers; shared memory: 4 warp accesses in 4 wavefronts (1.00 each); global memory: 4 warp accesses touching 4 128-byte lines (1.00 each); 14 warp ops issued (0.22 per element); about 46 issue slots}}
obs.kernel @rev64(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  // expected-remark @+1 {{the stage this sync ends: 1 block barriers, 0 warp barriers; shared memory: 2 warp accesses in 2 wavefronts (1.00 each); global memory: 2 warp accesses touching 2 128-byte lines (1.00 each); 8 warp ops issued}}
  %s = obs.sync %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  // expected-remark @+1 {{the last stage: 0 block barriers, 0 warp barriers; shared memory: 2 warp accesses in 2 wavefronts (1.00 each); global memory: 2 warp accesses touching 2 128-byte lines (1.00 each); 6 warp ops issued}}
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// 32 threads, one warp, two elements each. The sync's stage is blocked:
// thread t handles elements 2t and 2t + 1. Its two loads, of elements 2t
// and 2t + 1, are one 8-byte vector load, and so are its two stores, of
// words 2t and 2t + 1 (as LLVM's load-store vectorizer makes them, the
// pointers aligned to 16 bytes: the PTX of this kernel has one
// ld.global.nc.v2 and one st.shared.v2): the warp's load touches two
// 128-byte lines, and its store of 64 words takes 2 wavefronts. Issued:
// two guards, one load, one store and the barrier. The last stage (rev,
// returned) has the default strided assignment: its two reads and two
// writes are conflict free and coalesced, each behind a guard. Shared:
// 2 + 1 + 1 wavefronts; global: 2 + 1 + 1 lines. Slots: 11 ops, one
// wavefront and one line past the first, 16 for the barrier.
// expected-remark @+1 {{one block: 1 block barriers, 0 warp barriers; shared memory: 3 warp accesses in 4 wavefronts (1.33 each); global memory: 3 warp accesses touching 4 128-byte lines (1.33 each); 11 warp ops issued (0.17 per element); about 29 issue slots}}
obs.kernel @blocked(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  // expected-remark @+1 {{the stage this sync ends: 1 block barriers, 0 warp barriers; shared memory: 1 warp accesses in 2 wavefronts (2.00 each); global memory: 1 warp accesses touching 2 128-byte lines (2.00 each); 5 warp ops issued}}
  %s = obs.sync plan(blocked<2>) %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  // expected-remark @+1 {{the last stage: 0 block barriers, 0 warp barriers; shared memory: 2 warp accesses in 2 wavefronts (1.00 each); global memory: 2 warp accesses touching 2 128-byte lines (1.00 each); 6 warp ops issued}}
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// The same with strided<32> (thread t handles t and t + 32, words 128
// bytes apart: no vector access): conflict free and coalesced, two guards,
// two loads and two stores in each stage.
// expected-remark @+1 {{one block: 1 block barriers, 0 warp barriers; shared memory: 4 warp accesses in 4 wavefronts (1.00 each); global memory: 4 warp accesses touching 4 128-byte lines (1.00 each); 13 warp ops issued (0.20 per element); about 29 issue slots}}
obs.kernel @strided(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  // expected-remark @+1 {{the stage this sync ends: 1 block barriers, 0 warp barriers; shared memory: 2 warp accesses in 2 wavefronts (1.00 each); global memory: 2 warp accesses touching 2 128-byte lines (1.00 each); 7 warp ops issued}}
  %s = obs.sync plan(strided<32>) %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  // expected-remark @+1 {{the last stage: 0 block barriers, 0 warp barriers; shared memory: 2 warp accesses in 2 wavefronts (1.00 each); global memory: 2 warp accesses touching 2 128-byte lines (1.00 each); 6 warp ops issued}}
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// One thread reads one word that all others read too (a broadcast: one
// wavefront), after a stage that writes it.
// expected-remark @+1 {{one block: 1 block barriers, 0 warp barriers; shared memory: 2 warp accesses in 2 wavefronts (1.00 each); global memory: 2 warp accesses touching 2 128-byte lines (1.00 each); 7 warp ops issued (0.22 per element); about 23 issue slots}}
obs.kernel @broadcast(%a: !obs.arr<32 x i32>) -> !obs.arr<32 x i32> attributes {threads = 32} {
  // expected-remark @+1 {{the stage this sync ends: 1 block barriers, 0 warp barriers; shared memory: 1 warp accesses in 1 wavefronts (1.00 each); global memory: 1 warp accesses touching 1 128-byte lines (1.00 each); 4 warp ops issued}}
  %s = obs.sync %a : !obs.arr<32 x i32>
  %b = obs.generate : !obs.arr<32 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %x = obs.index %s[%c0] : !obs.arr<32 x i32>
    obs.yield %x : i32
  }
  // expected-remark @+1 {{the last stage: 0 block barriers, 0 warp barriers; shared memory: 1 warp accesses in 1 wavefronts (1.00 each); global memory: 1 warp accesses touching 1 128-byte lines (1.00 each); 3 warp ops issued}}
  obs.return %b : !obs.arr<32 x i32>
}

// -----

// Registers: the first stage keeps its elements in its threads (no buffer,
// no barrier), so its work is the next stage's, up to the one barrier the
// second sync ends. 32 threads, one element each: stage 1 is a guard and a
// load, stage 2 reads the thread's own value (no access; its check is on
// thread ids), adds 1 (an op on data), stores word t behind a guard, and
// passes the barrier: 6 ops; the last stage a guard, a load and a store.
// expected-remark @+1 {{one block: 1 block barriers, 0 warp barriers; shared memory: 2 warp accesses in 2 wavefronts (1.00 each); global memory: 2 warp accesses touching 2 128-byte lines (1.00 each); 9 warp ops issued (0.28 per element); about 25 issue slots}}
obs.kernel @registers(%a: !obs.arr<32 x i32>) -> !obs.arr<32 x i32> attributes {threads = 32} {
  %s = obs.sync registers %a : !obs.arr<32 x i32>
  %m = obs.map %s : !obs.arr<32 x i32> -> !obs.arr<32 x i32> {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  // expected-remark @+1 {{the stage this sync ends: 1 block barriers, 0 warp barriers; shared memory: 1 warp accesses in 1 wavefronts (1.00 each); global memory: 1 warp accesses touching 1 128-byte lines (1.00 each); 6 warp ops issued}}
  %t = obs.sync %m : !obs.arr<32 x i32>
  %r = obs.rev %t : !obs.arr<32 x i32>
  // expected-remark @+1 {{the last stage: 0 block barriers, 0 warp barriers; shared memory: 1 warp accesses in 1 wavefronts (1.00 each); global memory: 1 warp accesses touching 1 128-byte lines (1.00 each); 3 warp ops issued}}
  obs.return %r : !obs.arr<32 x i32>
}
