// Every lowering and proof after obs-expand-device relies on its halo
// arguments being expanded; given one that is not, each refuses it at the
// kernel instead of reading the memref as tiles of the halo's length.
// RUN: not obs-opt %s --obs-verify-launches 2>&1 | FileCheck %s
// RUN: not obs-opt %s --obs-collect-launch-overlaps 2>&1 | FileCheck %s
// RUN: not obs-opt %s --obs-lower-reference 2>&1 | FileCheck %s
// RUN: not obs-opt %s --convert-obs-to-gpu 2>&1 | FileCheck %s
// RUN: not obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-verify-sync))' 2>&1 | FileCheck %s
// CHECK: error: 'obs.kernel' op argument 0 has a halo, which obs-expand-device expands into a global argument and the reads of its places: run it first
// And after it, they all take it.
// RUN: obs-opt %s --obs-expand-device --obs-verify-launches --obs-lower-reference -o /dev/null

obs.kernel @rotate(%x: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, wrap>}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %v = obs.index %x[%i] : !obs.arr<6 x i32>
    obs.yield %v : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

func.func @run(%x: memref<8xi32>, %y: memref<8xi32>) {
  obs.launch @rotate grid(2) ins(%x : memref<8xi32>) outs(%y : memref<8xi32>)
  return
}
