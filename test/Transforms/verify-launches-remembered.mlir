// RUN: obs-opt %s -split-input-file --pass-pipeline='builtin.module(obs-collect-launch-overlaps,obs.kernel(obs-elide-warp-syncs),obs-verify-launches)' -verify-diagnostics --obs-statistics -o /dev/null 2>&1 | FileCheck %s

// Tests of LaunchPlaceProofs (lib/Analysis/LaunchProof.cpp): the places of
// a large static launch (2^16 or more, which the proof visits one by one)
// are proved once between obs-collect-launch-overlaps and
// obs-verify-launches, which takes the first's proof, overlaps included,
// and still judges them on the kernel. Each launch below puts a block's 64
// elements reversed over its input, in 1,024 blocks: 131,072 places.

// The kernel learned its overlaps, and keeps the barrier they need.
obs.kernel @copy(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.sync %0 : !obs.arr<64 x i32>
  obs.return %1 : !obs.arr<64 x i32>
}

func.func @reversed_in_place(%buf: memref<65536xi32>) {
  obs.launch @copy grid(1024) ins(%buf : memref<65536xi32>) outs(%buf : memref<65536xi32>)
      layouts [affine_map<(b, i) -> (b * 64 + i)>, affine_map<(b, i) -> (b * 64 + 63 - i)>]
  return
}

// -----

// A kernel whose written warp scopes cannot keep the order: the overlaps
// taken from the first proof still reject it.
obs.kernel @copy(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  // expected-note @+1 {{the kernel reads it here}}
  %0 = obs.sync plan(warp) %a : !obs.arr<64 x i32>
  // expected-note @+1 {{the kernel writes it here}}
  %1 = obs.sync plan(warp) %0 : !obs.arr<64 x i32>
  obs.return %1 : !obs.arr<64 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @racy_in_place(%buf: memref<65536xi32>) {
  // expected-error @+1 {{in block 0, thread 0 (warp 0) reads element 0 through ins 0 and thread 63 (warp 1) writes that place as element 63 through outs 0, with no barrier between them that orders both}}
  obs.launch @copy grid(1024) ins(%buf : memref<65536xi32>) outs(%buf : memref<65536xi32>)
      layouts [affine_map<(b, i) -> (b * 64 + i)>, affine_map<(b, i) -> (b * 64 + 63 - i)>]
  return
}

// CHECK: obs-verify-launches
// CHECK-NEXT: 1 launches
// CHECK-NEXT: 2 launch-places-reused
