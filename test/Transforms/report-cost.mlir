// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-flatten, obs-report-cost))' --verify-diagnostics -o /dev/null

// Tests of lib/Transforms/ReportCost.cpp and computeBlockCost
// (lib/Analysis/BlockRun.cpp): the numbers follow from the access pattern
// by hand.

// 64 threads, two warps. Stage 1: thread t loads element t (each warp 128
// consecutive bytes: one line) and stores it at word t of shared memory
// (32 banks, one word each: one wavefront). Stage 2, after the barrier:
// thread t reads word 63 - t (a warp reads 32 consecutive words: one
// wavefront) and writes element t (one line). 4 + 4 warp accesses.
// expected-remark @+1 {{one block: 1 block barriers, 0 warp barriers; shared memory: 4 warp accesses in 4 wavefronts (1.00 each); global memory: 4 warp accesses touching 4 128-byte lines (1.00 each)}}
obs.kernel @rev64(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// 32 threads, one warp, two elements each. The sync's stage is blocked:
// thread t handles elements 2t and 2t + 1. Its first store writes word 2t:
// the warp's 32 words fall in the 16 even banks, two in each: 2 wavefronts
// (a 2-way bank conflict), and likewise its second store (the odd banks).
// Its global loads of elements 2t touch two lines (256 bytes with gaps),
// as do those of 2t + 1. The last stage (rev, returned) has the default
// strided assignment: its two reads and two writes are conflict free and
// coalesced. Shared: 2 + 2 + 1 + 1 wavefronts; global: 2 + 2 + 1 + 1
// lines.
// expected-remark @+1 {{one block: 1 block barriers, 0 warp barriers; shared memory: 4 warp accesses in 6 wavefronts (1.50 each); global memory: 4 warp accesses touching 6 128-byte lines (1.50 each)}}
obs.kernel @blocked(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %s = obs.sync plan(blocked<2>) %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// The same with strided<32> (thread t handles t and t + 32): conflict free
// and coalesced.
// expected-remark @+1 {{one block: 1 block barriers, 0 warp barriers; shared memory: 4 warp accesses in 4 wavefronts (1.00 each); global memory: 4 warp accesses touching 4 128-byte lines (1.00 each)}}
obs.kernel @strided(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %s = obs.sync plan(strided<32>) %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// One thread reads one word that all others read too (a broadcast: one
// wavefront), after a stage that writes it.
// expected-remark @+1 {{one block: 1 block barriers, 0 warp barriers; shared memory: 2 warp accesses in 2 wavefronts (1.00 each); global memory: 2 warp accesses touching 2 128-byte lines (1.00 each)}}
obs.kernel @broadcast(%a: !obs.arr<32 x i32>) -> !obs.arr<32 x i32> attributes {threads = 32} {
  %s = obs.sync %a : !obs.arr<32 x i32>
  %b = obs.generate : !obs.arr<32 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %x = obs.index %s[%c0] : !obs.arr<32 x i32>
    obs.yield %x : i32
  }
  obs.return %b : !obs.arr<32 x i32>
}
