// RUN: obs-opt %s --allow-unregistered-dialect -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(obs.kernel(obs-verify-sync))'

// Tests of lib/Analysis/BlockRun.cpp: the proof fails closed. An op that
// may touch memory in a way it cannot see (here an op of an unregistered
// dialect, which says nothing of its effects and which only tests allow
// into a kernel) is an error, never skipped.
obs.kernel @unknown_effects(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %s = obs.sync warp %a : !obs.arr<64 x i32>
  %m = obs.map %s : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    // expected-error @+1 {{'test.opaque' op has memory effects the analysis cannot see, so it cannot prove the kernel safe}}
    %y = "test.opaque"(%x) : (i32) -> i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<64 x i32>
}
