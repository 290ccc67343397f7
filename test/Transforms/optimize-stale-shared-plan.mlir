// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs-optimize)' | FileCheck %s
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-verify-sync))' -verify-diagnostics -o /dev/null

// A shared-memory plan made for other buffers (hand-written, or from
// obs-plan-shared before the kernel changed) is stale. obs-optimize plans
// shared memory itself, after registers and in place: those passes take the
// plan before they simulate anything (lib/Transforms/PromoteRegisters.cpp,
// InPlace.cpp), and obs-plan-shared makes a new one. They simulated the
// stale plan first, and obs-optimize stopped on it (found by an adversarial
// run), while obs-plan-shared alone replanned the same kernel. Where no pass
// replans, the stale plan is still an error.

// An arena of 16 bytes, and a second buffer with no place in it.
// CHECK-LABEL: obs.kernel @stale_arena
// CHECK-SAME: obs.shared_bytes = 256
// CHECK: obs.sync %{{.*}} {obs.shared_offsets = array<i64: 0>} : !obs.arr<64 x i32>
// CHECK: obs.sync plan(registers) %{{.*}} : !obs.arr<64 x i32>
obs.kernel @stale_arena(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {obs.shared_bytes = 16 : i64} {
  %c1 = arith.constant 1 : i32
  %m = obs.map %a : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  // expected-error @+1 {{'obs.sync' op has no place for its buffer in the shared-memory plan (obs.shared_offsets within the kernel's 16-byte arena): the plan is stale; run obs-plan-shared again}}
  %s1 = obs.sync %m {obs.shared_offsets = array<i64: 0>} : !obs.arr<64 x i32>
  %r = obs.rev %s1 : !obs.arr<64 x i32>
  %s2 = obs.sync %r : !obs.arr<64 x i32>
  %z = obs.map %s1, %s2 : !obs.arr<64 x i32>, !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32, %y: i32):
    %c100 = arith.constant 100 : i32
    %p = arith.muli %x, %c100 : i32
    %q = arith.addi %p, %y : i32
    obs.yield %q : i32
  }
  obs.return %z : !obs.arr<64 x i32>
}
