// RUN: obs-opt %examples/paper/sklansky.mlir --pass-pipeline='builtin.module(obs.kernel(obs-flatten,canonicalize,obs-assign-work{threads=256},obs-elide-warp-syncs))' | FileCheck %s --check-prefix=SKLANSKY
// RUN: obs-opt %examples/paper/sklansky.mlir --pass-pipeline='builtin.module(obs.kernel(obs-flatten,canonicalize,obs-assign-work{threads=256},obs-elide-warp-syncs))' --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-elide-warp-syncs))' | FileCheck %s

// Tests of lib/Transforms/ElideWarpSyncs.cpp.

// Seed 002's sklansky on 512 elements with pairNth 256: the syncs after
// levels 1 to 4 order only dependences inside 32-element blocks, which
// strided<256> gives to one warp; from level 5 on, the fan reaches across
// warps. The last sync writes the result and has no barrier.
// SKLANSKY-LABEL: obs.kernel @sklansky9
// SKLANSKY: obs.sync plan(warp strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY: obs.sync plan(warp strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY: obs.sync plan(warp strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY: obs.sync plan(warp strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY: obs.sync plan(strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY: obs.sync plan(strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY: obs.sync plan(strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY: obs.sync plan(strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY: obs.sync plan(strided<256>) %{{.*}} : !obs.arr<512 x i32>
// SKLANSKY-NEXT: obs.return
// In sklansky3 (8 threads, one warp) every barrier can be a warp barrier.
// STATS: obs-elide-warp-syncs
// STATS-NEXT: 6 syncs-downgraded
// STATS-NEXT: 4 block-syncs-kept

// -----

// Reversing 64 elements: thread t reads what thread 63 - t wrote, in the
// other warp. The block barrier stays.
// CHECK-LABEL: obs.kernel @across_warps
// CHECK: obs.sync %{{.*}} : !obs.arr<64 x i32>
obs.kernel @across_warps(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.rev %0 : !obs.arr<64 x i32>
  obs.return %1 : !obs.arr<64 x i32>
}

// -----

// Reversing each 32-element half: every dependence stays in a warp.
// CHECK-LABEL: obs.kernel @within_warps
// CHECK: obs.sync plan(warp) %{{.*}} : !obs.arr<64 x i32>
obs.kernel @within_warps(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.two %0 : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%h: !obs.arr<32 x i32>):
    %r = obs.rev %h : !obs.arr<32 x i32>
    obs.yield %r : !obs.arr<32 x i32>
  }
  obs.return %1 : !obs.arr<64 x i32>
}

// -----

// An index that depends on data may be anywhere: the block barrier stays,
// even though thread t's own element is its only likely read.
// CHECK-LABEL: obs.kernel @gather
// CHECK: obs.sync %{{.*}} : !obs.arr<64 x i32>
obs.kernel @gather(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.map %0 : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %c63 = arith.constant 63 : i32
    %masked = arith.andi %x, %c63 : i32
    %i = arith.index_cast %masked : i32 to index
    %y = obs.index %0[%i] : !obs.arr<64 x i32>
    obs.yield %y : i32
  }
  obs.return %1 : !obs.arr<64 x i32>
}

// -----

// A scope the user wrote is kept, even where a warp barrier would do.
// CHECK-LABEL: obs.kernel @written
// CHECK: obs.sync block %{{.*}} : !obs.arr<64 x i32>
obs.kernel @written(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.sync block %a : !obs.arr<64 x i32>
  %1 = obs.map %0 : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    obs.yield %x : i32
  }
  obs.return %1 : !obs.arr<64 x i32>
}

// -----

// A repeat's wrap-around: each iteration doubles its array into one buffer
// and reverses it into the next. The first barrier orders the reversal's
// reads across warps; the second, only because the next iteration writes
// the first buffer again while the other warp may still be reading it
// (write after read across iterations), must stay a block barrier too.
// CHECK-LABEL: obs.kernel @rounds
// CHECK: obs.sync %{{.*}} : !obs.arr<64 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<64 x i32>
obs.kernel @rounds(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.repeat 3 %a : !obs.arr<64 x i32> {
  ^bb0(%x: !obs.arr<64 x i32>):
    %y = obs.map %x : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
    ^bb0(%v: i32):
      %w = arith.addi %v, %v : i32
      obs.yield %w : i32
    }
    %s = obs.sync %y : !obs.arr<64 x i32>
    %r = obs.rev %s : !obs.arr<64 x i32>
    %t = obs.sync %r : !obs.arr<64 x i32>
    obs.yield %t : !obs.arr<64 x i32>
  }
  obs.return %0 : !obs.arr<64 x i32>
}
