// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-verify-sync))' --verify-diagnostics

// Tests of the hazard search (lib/Analysis/BlockHazards.cpp) for a read at
// a place from data: the simulation cannot tell the place, so the read
// stands for its whole buffer, and the search judges it pair by pair
// against the writes of its epoch (a "wide" access) instead of at every
// place it covers. The report is the one a place-by-place search gives:
// the first place (element 0, which thread 0 writes) and there the first
// reader in another warp (thread 32, whose read may be of element 0).

// Rejected: a gather after a warp barrier. The other warp may still be
// writing the element a thread reads.
obs.kernel @racy_gather(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  // expected-note @+2 {{the buffer holds the array of this op}}
  // expected-error @+1 {{'obs.sync' op warp scope is unsafe: thread 0 (warp 0) writes element 0 of a shared buffer before the barrier and thread 32 (warp 1) reads it after it (read after write); only a block barrier orders threads of different warps}}
  %0 = obs.sync warp %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %x = obs.index %0[%i] : !obs.arr<64 x i32>
    %c63 = arith.constant 63 : i32
    %k = arith.andi %x, %c63 : i32
    %j = arith.index_castui %k : i32 to index
    %y = obs.index %0[%j] : !obs.arr<64 x i32>
    obs.yield %y : i32
  }
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// -----

// Kept: the same gather after a block barrier, which orders every write
// before every read.
obs.kernel @gather(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %x = obs.index %0[%i] : !obs.arr<64 x i32>
    %c63 = arith.constant 63 : i32
    %k = arith.andi %x, %c63 : i32
    %j = arith.index_castui %k : i32 to index
    %y = obs.index %0[%j] : !obs.arr<64 x i32>
    obs.yield %y : i32
  }
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// -----

// Kept: a gather within one warp's threads (32 of them) after a warp
// barrier: every thread that writes is in the reader's warp.
obs.kernel @warp_gather(%a: !obs.arr<32 x i32>) -> !obs.arr<32 x i32> {
  %0 = obs.sync warp %a : !obs.arr<32 x i32>
  %1 = obs.generate : !obs.arr<32 x i32> {
  ^bb0(%i: index):
    %x = obs.index %0[%i] : !obs.arr<32 x i32>
    %c31 = arith.constant 31 : i32
    %k = arith.andi %x, %c31 : i32
    %j = arith.index_castui %k : i32 to index
    %y = obs.index %0[%j] : !obs.arr<32 x i32>
    obs.yield %y : i32
  }
  %2 = obs.sync %1 : !obs.arr<32 x i32>
  obs.return %2 : !obs.arr<32 x i32>
}
