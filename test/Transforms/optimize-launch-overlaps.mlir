// RUN: obs-opt %s --pass-pipeline='builtin.module(obs-optimize)' -verify-diagnostics -o /dev/null

// A launch that passes one memory as an input and an output puts their
// elements at one place (obs-collect-launch-overlaps), and obs-optimize's
// simulations order those accesses as they order shared ones (alone,
// obs-verify-sync leaves them to obs-verify-launches). A hazard there is named
// as what it is: elements of an input and an output in global memory, not
// "a shared buffer" (lib/Analysis/KernelSimulation.cpp, reportHazard; the
// warp scope is what fails: a block barrier would order thread 63's read
// before thread 0's write).
obs.kernel @reversed_in_place(%input: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %r = obs.rev %input : !obs.arr<64 x i32>
  // expected-error @+1 {{'obs.sync' op warp scope is unsafe: thread 63 (warp 1) reads element 0 of an input in global memory, which the launch places at element 0 of an output in global memory, before the barrier and thread 0 (warp 0) writes it after it (write after read); only a block barrier orders threads of different warps}}
  %s = obs.sync plan(warp) %r : !obs.arr<64 x i32>
  %g = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %j = arith.xori %i, %c1 : index
    %u = obs.index %s[%j] : !obs.arr<64 x i32>
    obs.yield %u : i32
  }
  obs.return %g : !obs.arr<64 x i32>
}
func.func @run(%in: memref<64xi32>) {
  obs.launch @reversed_in_place grid(1) ins(%in : memref<64xi32>) outs(%in : memref<64xi32>)
  return
}
