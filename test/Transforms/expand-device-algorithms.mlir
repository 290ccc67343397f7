// Each device algorithm is a pattern (Obs/Transforms/DeviceExpansion.h) that
// an embedder may take or leave; obs-expand-device's `algorithms` chooses
// them as an embedder would. Without the radix sort, a sort by one
// comparison of its keys is merged like any other; without any sort, it is
// an error at the op, as is an unknown algorithm.
// RUN: obs-opt %s --obs-expand-device -split-input-file --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// RUN: obs-opt %s --obs-expand-device=algorithms=merge-sort,map -split-input-file --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=MERGE
// RUN: obs-opt %s --obs-expand-device=algorithms=merge-sort -split-input-file | FileCheck %s --check-prefix=MERGE-IR
// RUN: obs-opt %s --obs-expand-device=algorithms=map,scan -split-input-file -verify-diagnostics
// RUN: not obs-opt %s --obs-expand-device=algorithms=bubble-sort 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// The options are checked before any module is touched: a module without
// a device op took a misspelled algorithm without a word.
// RUN: echo 'module {}' | not obs-opt --obs-expand-device=algorithms=bubble-sort 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// ALL: 1 radix-sorts
// ALL-NOT: merge-sorts
// MERGE: 1 device-ops
// MERGE-NOT: radix-sorts
// MERGE: 1 merge-sorts
// MERGE-IR-LABEL: obs.kernel private @sort_device_sort_sort_tile
// MERGE-IR-NOT: _device_sort_count
// MERGE-IR-NOT: _device_sort_scatter
// MERGE-IR: obs.kernel private @sort_device_sort_merge
// MERGE-IR-NOT: obs.device_sort
// UNKNOWN: obs-expand-device: unknown algorithm 'bubble-sort': expected map, reduce, scan, radix-sort or merge-sort

func.func @sort(%keys: memref<?xi32>, %sorted: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_sort' op has no device algorithm to expand it}}
  obs.device_sort ins(%keys : memref<?xi32>) outs(%sorted : memref<?xi32>) {
  ^bb0(%a: i32, %b: i32):
    %lt = arith.cmpi slt, %a, %b : i32
    obs.yield %lt : i1
  }
  return
}
