// RUN: obs-opt %s --split-input-file --convert-obs-to-gpu | FileCheck %s

// Tests of the index checks lib/Dialect/Obs/ElementEmitter.cpp emits: a
// place whose range the thread ids bound inside its array (integer range
// inference, each thread id below the block's threads) needs no check;
// one from data keeps its check, `index < length`.

// Element i reads x[min(i + 1, 63)]: below 64 for every thread id.
// CHECK-LABEL: gpu.func @clamped_by_min
// CHECK-NOT: index_bounds
// CHECK: gpu.return
obs.kernel @clamped_by_min(%x: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %r = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %ip1 = arith.addi %i, %c1 : index
    %h = arith.minui %ip1, %c63 : index
    %v = obs.index %x[%h] : !obs.arr<64 x i32>
    obs.yield %v : i32
  }
  %s = obs.sync %r : !obs.arr<64 x i32>
  obs.return %s : !obs.arr<64 x i32>
}

// -----

// Element i reads x[(i + 1) mod 64] of 64 elements, on 32 threads (two
// elements each): the range is [0, 63] whatever the thread.
// CHECK-LABEL: gpu.func @rotated
// CHECK-NOT: index_bounds
// CHECK: gpu.return
obs.kernel @rotated(%x: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %r = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %ip1 = arith.addi %i, %c1 : index
    %h = arith.remui %ip1, %c64 : index
    %v = obs.index %x[%h] : !obs.arr<64 x i32>
    obs.yield %v : i32
  }
  %s = obs.sync %r : !obs.arr<64 x i32>
  obs.return %s : !obs.arr<64 x i32>
}

// -----

// A gather's place comes from data: checked as it runs.
// CHECK-LABEL: gpu.func @gather
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} {obs.index_bounds} : index
obs.kernel @gather(%x: !obs.arr<64 x i32>, %p: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %r = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %q = obs.index %p[%i] : !obs.arr<64 x i32>
    %j = arith.index_cast %q : i32 to index
    %v = obs.index %x[%j] : !obs.arr<64 x i32>
    obs.yield %v : i32
  }
  %s = obs.sync %r : !obs.arr<64 x i32>
  obs.return %s : !obs.arr<64 x i32>
}
