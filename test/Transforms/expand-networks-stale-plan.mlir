// obs-expand-networks run after obs-plan-shared (here on a reduce in a
// sub-program, at program level, which takes the serial network by
// default) adds stages that the plan has no place for, so the plan is
// dropped (obs-fuzz --seed=5151, program 1442, failed in the lowering on
// the stale plan, when the pass ran again after flattening; obs-flatten
// now expands the networks before it lifts anything, so this order is the
// one that can leave a plan stale).
// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-plan-shared))' | FileCheck %s --check-prefix=PLANNED
// PLANNED: obs.shared_bytes
// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-plan-shared,obs-expand-networks))' | FileCheck %s
// CHECK-LABEL: obs.kernel @stale
// CHECK-NOT: obs.shared_bytes
// CHECK-NOT: obs.shared_offsets
// CHECK: obs.sync
// CHECK-NOT: obs.reduce
// CHECK-NOT: obs.shared_offsets
// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-plan-shared),obs-to-cpu)' > /dev/null

obs.kernel @stale(%input: !obs.arr<4 x i8>) -> !obs.arr<4 x i8> {
  %v0 = obs.one %input : !obs.arr<4 x i8> -> !obs.arr<4 x i8> {
  ^bb0(%p1: !obs.arr<2 x i8>):
    %v2 = obs.sync %p1 : !obs.arr<2 x i8>
    %r4 = obs.reduce %v2 : !obs.arr<2 x i8> -> i8 {
    ^bb0(%x5: i8, %x6: i8):
      %v7 = arith.addi %x5, %x6 : i8
      obs.yield %v7 : i8
    }
    %v3 = obs.map %v2 : !obs.arr<2 x i8> -> !obs.arr<2 x i8> {
    ^bb0(%x8: i8):
      %v9 = arith.addi %x8, %r4 : i8
      obs.yield %v9 : i8
    }
    obs.yield %v3 : !obs.arr<2 x i8>
  }
  obs.return %v0 : !obs.arr<4 x i8>
}
