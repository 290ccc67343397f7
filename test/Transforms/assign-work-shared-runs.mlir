// RUN: obs-opt %s --obs-optimize --obs-statistics -o /dev/null 2>&1 | FileCheck %s
// RUN: obs-opt %s --obs-optimize --obs-statistics -o /dev/null --mlir-disable-threading 2>&1 | FileCheck %s

// Tests of lib/Analysis/KernelSimulation.cpp's shared runs, through
// obs-assign-work's cost strategy: each strategy's copy of the kernel is
// dealt out and refined, and a copy whose refinement lowers to code another
// copy ran takes that run over. A Kogge-Stone scan of 64 elements on 64
// threads computes every element of every stage: compact deals each stage
// out one element per thread, as strided does (blocked<1> is strided, and
// not costed), so the two copies refine alike, and the one refined second
// (with or without threads) takes the other's runs over.
// CHECK-LABEL: obs-assign-work
// CHECK: 2 strategies-costed
// CHECK-NEXT: 1 strategy-runs-shared
obs.kernel @scan(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %r = obs.scan %a network(kogge_stone) : !obs.arr<64 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<64 x i32>
}
