// RUN: obs-opt %s --obs-expand-device -split-input-file -verify-diagnostics

// A sort needs a strict weak order. A `less` that is one comparison but
// holds between equal elements, or both ways, is rejected, not sorted in
// an order that depends on the network. (Any strict order sorts: one the
// radix sort cannot follow merges, test/Transforms/expand-device-sort.mlir.)

func.func @not_strict(%in: memref<?xi32>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_sort' op sorts by a `less` that is one comparison but not a strict order (`sle`, `eq`, `ne`, `ole`, ...: it holds between equal elements, or both ways): a sort needs a strict weak order, in which no element comes before itself; use `slt`, `ult`, `olt` or their `gt` forms}}
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi sle, %x, %y : i32
    obs.yield %less : i1
  }
  return
}

// -----

func.func @both_ways(%k: memref<?xf32>, %v: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_sort' op sorts by a `less` that is one comparison but not a strict order}}
  obs.device_sort ins(%k, %v : memref<?xf32>, memref<?xi32>) outs(%k, %v : memref<?xf32>, memref<?xi32>) {
  ^bb0(%k1: f32, %v1: i32, %k2: f32, %v2: i32):
    %less = arith.cmpi ne, %v1, %v2 : i32
    obs.yield %less : i1
  }
  return
}
