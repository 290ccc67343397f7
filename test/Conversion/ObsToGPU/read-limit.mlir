// RUN: obs-opt %s --split-input-file --convert-obs-to-gpu --verify-diagnostics | FileCheck %s

// Tests of lib/Conversion/ObsToGPU's read limit (kMaxFusedReads, 2^13):
// fused element code grows with the product of the reads of every step
// since the last sync. Each `odds` reads its input three times (the
// pass-through branch and the pair), and every read counts, of the arrays
// computed on the way and of the kernel's argument in memory alike, so n
// unsynced odds inline 1 + 3 + ... + 3^n = (3^(n+1) - 1) / 2 reads: 3,280
// for seven, 9,841 for eight.

// Eight are over the limit: one located error, not minutes of lowering.
obs.kernel @eight(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %o0 = obs.odds %a : !obs.arr<64 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  %o1 = obs.odds %o0 : !obs.arr<64 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  %o2 = obs.odds %o1 : !obs.arr<64 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  %o3 = obs.odds %o2 : !obs.arr<64 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  %o4 = obs.odds %o3 : !obs.arr<64 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  %o5 = obs.odds %o4 : !obs.arr<64 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  %o6 = obs.odds %o5 : !obs.arr<64 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  // expected-error @+1 {{the code that computes this array inlines more than the limit of 8192 reads of the arrays it is computed from (each step since the last sync multiplies them); an obs.sync between the steps materializes an array and ends the chain}}
  %o7 = obs.odds %o6 : !obs.arr<64 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  obs.return %o7 : !obs.arr<64 x i32>
}

// -----

// Six inline 1,093 reads per round. 32 threads on 256 elements take 8
// rounds, which are unrolled when they fit: 8,744 reads do not, so the
// rounds become a loop, which fits.
// CHECK-LABEL: gpu.func @six_in_eight_rounds
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK-NOT: ub.poison
// CHECK: gpu.return
obs.kernel @six_in_eight_rounds(%a: !obs.arr<256 x i32>) -> !obs.arr<256 x i32> attributes {threads = 32} {
  %o0 = obs.odds %a : !obs.arr<256 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  %o1 = obs.odds %o0 : !obs.arr<256 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  %o2 = obs.odds %o1 : !obs.arr<256 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  %o3 = obs.odds %o2 : !obs.arr<256 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  %o4 = obs.odds %o3 : !obs.arr<256 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  %o5 = obs.odds %o4 : !obs.arr<256 x i32> {
  ^bb0(%p: i32, %q: i32):
    obs.yield %q, %p : i32, i32
  }
  obs.return %o5 : !obs.arr<256 x i32>
}
