// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-optimize="threads=64 strategy=blocked"

// Tests of lib/Transforms/AssignWork.cpp: a written warp scope that the
// pass's own work assignment makes unsafe is not taken back (as a warp
// scope an earlier pass planned is, assign-work-earlier-decisions.mlir):
// blocked<2> has thread e/2 write element e, which the output stage reads
// from thread e mod 64, in another warp half the time. The kernel is
// rejected at the written sync. Under strided<64> the same scope is safe
// and kept (written-properties-kept.mlir).
obs.kernel @written_warp(%a: !obs.arr<128 x i32>) -> !obs.arr<128 x i32> {
  // expected-note @+2 {{the buffer holds the array of this op}}
  // expected-error-re @+1 {{'obs.sync' op warp scope is unsafe: {{.*}}; only a block barrier orders threads of different warps}}
  %0 = obs.sync warp %a : !obs.arr<128 x i32>
  %c2 = arith.constant 2 : i32
  %1 = obs.map %0 : !obs.arr<128 x i32> -> !obs.arr<128 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %c2 : i32
    obs.yield %y : i32
  }
  obs.return %1 : !obs.arr<128 x i32>
}
