// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=32 strategy=compact}))' | FileCheck %s

// Tests of lib/Transforms/AssignWork.cpp run with no other pass: keeping an
// earlier pass's decision (the planned warp scope) safe simulates the kernel, and the
// simulation's lowering builds gpu, memref, scf and nvvm operations, so
// the pass must load those dialects itself. Without them the simulation's
// gpu.module came out unregistered and the lowering dereferenced null
// (found by obs-fuzz seed 200, program 2849, replayed through obs-opt).
// With 32 threads every thread is in warp 0, so the warp scope stays.
// CHECK-LABEL: obs.kernel @warp_decided
// CHECK-SAME: attributes {threads = 32 : i64}
// CHECK: %[[S:.*]] = obs.sync plan(compact<32>) %arg0
// CHECK: %[[R:.*]] = obs.rev %[[S]]
// CHECK: obs.sync plan(warp compact<32>) %[[R]]
obs.kernel @warp_decided(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.rev %0 : !obs.arr<64 x i32>
  %2 = obs.sync plan(warp) %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}
