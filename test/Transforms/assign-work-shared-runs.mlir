// RUN: obs-opt %s --obs-optimize --obs-statistics -o /dev/null 2>&1 | FileCheck %s
// RUN: obs-opt %s --obs-optimize --obs-statistics -o /dev/null --mlir-disable-threading 2>&1 | FileCheck %s

// Tests of lib/Analysis/KernelSimulation.cpp's shared runs, through
// obs-assign-work's cost strategy: each strategy's copy of the kernel is
// dealt out and simulated before it is refined. A bitonic sort's stages are
// fresh, and compact deals out a fresh stage as strided does, so the two
// copies lower to the same code: one of them takes the other's run over
// (whichever lowers second, with or without threads). blocked<2> gives a
// thread elements 2t and 2t + 1 instead, other code, which is run.
// CHECK-LABEL: obs-assign-work
// CHECK: 3 strategies-costed
// CHECK-NEXT: 1 strategy-runs-shared
obs.kernel @sort(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %r = obs.sort %a network(bitonic) : !obs.arr<64 x i32> {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    obs.yield %less : i1
  }
  obs.return %r : !obs.arr<64 x i32>
}
