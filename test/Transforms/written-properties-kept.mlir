// RUN: obs-opt %s -split-input-file --obs-optimize="threads=32" | FileCheck %s --check-prefix=T32
// RUN: obs-opt %s -split-input-file --obs-optimize="threads=64 strategy=strided" | FileCheck %s --check-prefix=T64
// RUN: obs-opt %s -split-input-file --obs-optimize="threads=128 strategy=blocked" | FileCheck %s --check-prefix=T128

// Tests of the rule that a property the user writes is kept: safe written
// properties, under several thread counts, come out as written, with only
// the open ones in the sync's plan. written-properties.mlir has the racy
// ones.

// With 32 threads (the kernel's own, whatever the option), every thread of
// the block is in warp 0: the written warp scope of a 64-element reversal
// is safe, and kept. With more, it is rejected (written-properties.mlir).
// T32-LABEL: obs.kernel @reverse
// T32: obs.sync warp plan(strided<32>) %{{.*}} : !obs.arr<64 x i32>
// T64-LABEL: obs.kernel @reverse
// T64: obs.sync warp plan(strided<32>) %{{.*}} : !obs.arr<64 x i32>
// T128-LABEL: obs.kernel @reverse
// T128: obs.sync warp plan(blocked<2>) %{{.*}} : !obs.arr<64 x i32>
obs.kernel @reverse(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %s = obs.sync warp %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// Each element is read back by the thread that wrote it under strided<T>
// and one thread per element: the written warp scope is safe and kept.
// T32-LABEL: obs.kernel @written_warp
// T32: obs.sync warp plan(strided<32>) %{{.*}} : !obs.arr<128 x i32>
// T64-LABEL: obs.kernel @written_warp
// T64: obs.sync warp plan(strided<64>) %{{.*}} : !obs.arr<128 x i32>
// T128-LABEL: obs.kernel @written_warp
// T128: obs.sync warp plan(blocked<1>) %{{.*}} : !obs.arr<128 x i32>
obs.kernel @written_warp(%a: !obs.arr<128 x i32>) -> !obs.arr<128 x i32> {
  %0 = obs.sync warp %a : !obs.arr<128 x i32>
  %c2 = arith.constant 2 : i32
  %1 = obs.map %0 : !obs.arr<128 x i32> -> !obs.arr<128 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %c2 : i32
    obs.yield %y : i32
  }
  obs.return %1 : !obs.arr<128 x i32>
}

// -----

// A written block scope where a warp barrier would do, and a written fresh
// placement where the stage could go in place: both kept; the passes plan
// only the open work assignment.
// T64-LABEL: obs.kernel @written_block_fresh
// T64: obs.sync plan({{(warp )?}}strided<64>{{( registers)?}}) %{{.*}} : !obs.arr<64 x i32>
// T64: obs.sync block fresh plan(strided<64>) %{{.*}} : !obs.arr<64 x i32>
obs.kernel @written_block_fresh(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.map %0 : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  %2 = obs.sync block fresh %1 : !obs.arr<64 x i32>
  %3 = obs.map %2 : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  obs.return %3 : !obs.arr<64 x i32>
}
