// RUN: obs-opt %s -split-input-file --obs-collect-launch-overlaps | FileCheck %s --check-prefix=PAIRS
// RUN: obs-opt %s -split-input-file --pass-pipeline='builtin.module(obs-collect-launch-overlaps,obs.kernel(obs-elide-warp-syncs),obs-verify-launches)' | FileCheck %s --check-prefix=ELIDE
// RUN: obs-opt %s -split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-elide-warp-syncs),obs-verify-launches)' -verify-diagnostics -o /dev/null

// Tests of obs-collect-launch-overlaps (lib/Transforms/VerifyLaunches.cpp):
// a kernel launched in place, with its output reversed over its input,
// learns which of its elements share a place, and obs-elide-warp-syncs then
// keeps the block barrier that orders thread t's read of place t before
// thread 63 - t, in the other warp, writes it. Without the pass (third
// run), the elision makes both barriers warp barriers, which is right for
// shared memory alone, and the launch proof rejects the result: the
// refinement broke what the launch needs (found by obs-fuzz).
// PAIRS-LABEL: obs.kernel @copy
// PAIRS-SAME: obs.launch_overlaps = array<i64: 0, 0, 1, 63, 0, 1, 1, 62,
// ELIDE-LABEL: obs.kernel @copy
// ELIDE: obs.sync
// ELIDE-NOT: plan(warp)
// ELIDE: obs.return
// expected-note @+1 {{the kernel's plan was made without this launch's overlaps: run obs-collect-launch-overlaps before the refinement passes, as obs-optimize does}}
obs.kernel @copy(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  // expected-note @+1 {{the kernel reads it here}}
  %0 = obs.sync %a : !obs.arr<64 x i32>
  // expected-note @+1 {{the kernel writes it here}}
  %1 = obs.sync %0 : !obs.arr<64 x i32>
  obs.return %1 : !obs.arr<64 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @reversed_in_place(%buf: memref<64xi32>) {
  // expected-error @+1 {{'obs.launch' op in block 0, thread 0 (warp 0) reads element 0 through ins 0 and thread 63 (warp 1) writes that place as element 63 through outs 0, with no barrier between them that orders both}}
  obs.launch @copy grid(1) ins(%buf : memref<64xi32>) outs(%buf : memref<64xi32>)
      layouts [affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (63 - i)>]
  return
}

// -----

// Launched on separate memrefs, the kernel has no pairs, and the barriers
// become warp barriers.
// PAIRS-LABEL: obs.kernel @copy
// PAIRS-NOT: obs.launch_overlaps
// ELIDE-LABEL: obs.kernel @copy
// ELIDE: obs.sync plan(warp)
obs.kernel @copy(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.sync %0 : !obs.arr<64 x i32>
  obs.return %1 : !obs.arr<64 x i32>
}

func.func @separate(%in: memref<64xi32>, %out: memref<64xi32>) {
  obs.launch @copy grid(1) ins(%in : memref<64xi32>) outs(%out : memref<64xi32>)
      layouts [affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (63 - i)>]
  return
}
