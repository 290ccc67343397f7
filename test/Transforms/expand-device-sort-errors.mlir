// RUN: obs-opt %s --obs-expand-device -split-input-file -verify-diagnostics

// The radix sort follows a `less` that compares the elements' first
// scalars as numbers; any other order is rejected, not sorted wrongly.

func.func @by_value(%k: memref<?xi32>, %v: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_sort' op sorts by a `less` that is not one comparison of the elements' first scalars (arith.cmpi slt, ult, sgt or ugt, arith.cmpf olt, ult, ogt or ugt); obs-expand-device builds a radix sort only, and a merge sort for any order is not built yet}}
  obs.device_sort ins(%k, %v : memref<?xi32>, memref<?xi32>) outs(%k, %v : memref<?xi32>, memref<?xi32>) {
  ^bb0(%k1: i32, %v1: i32, %k2: i32, %v2: i32):
    %less = arith.cmpi slt, %v1, %v2 : i32
    obs.yield %less : i1
  }
  return
}

// -----

func.func @not_strict(%in: memref<?xi32>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_sort' op sorts by a `less` that is not one comparison}}
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi sle, %x, %y : i32
    obs.yield %less : i1
  }
  return
}

// -----

func.func @by_magnitude(%in: memref<?xi32>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_sort' op sorts by a `less` that is not one comparison}}
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %c0 = arith.constant 0 : i32
    %ax = arith.maxsi %x, %c0 : i32
    %less = arith.cmpi slt, %ax, %y : i32
    obs.yield %less : i1
  }
  return
}
