// RUN: obs-opt %s --obs-expand-device | FileCheck %s --check-prefix=WRITTEN
// RUN: obs-opt %s --obs-expand-device | sed -e 's/strategy = #obs.strategy<strided>, //' | obs-opt --pass-pipeline='builtin.module(obs-optimize)' | FileCheck %s

// The radix sort's scatter kernel (one for every pass) carries the
// strategy obs-assign-work's cost strategy chooses for it
// (lib/Transforms/DeviceExpansion/RadixSort.cpp), so that obs-optimize
// deals it out once instead of refining and simulating three copies.
// Without it, the cost strategy still chooses strided: every stage of the
// kernel is dealt out strided<256>, none blocked or compact.
// WRITTEN-LABEL: obs.kernel private @sort_device_sort_scatter(
// WRITTEN-SAME: attributes {strategy = #obs.strategy<strided>, threads = 256 : i64}

// CHECK-LABEL: obs.kernel private @sort_device_sort_scatter(
// CHECK-NOT: strategy
// CHECK: plan({{.*}}strided<256>
// CHECK-NOT: {{blocked<|compact<}}
// CHECK-LABEL: func.func @sort(
func.func @sort(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    obs.yield %less : i1
  }
  return
}
