// RUN: obs-opt %s --obs-expand-device -split-input-file -verify-diagnostics

// A sort needs a strict weak order. A `less` that is not one on sample
// elements (where it folds to constants) is rejected with a
// counterexample, not sorted in an order that depends on the plan. (Any
// strict weak order sorts: one the radix sort cannot follow merges,
// test/Transforms/expand-device-sort.mlir.)

func.func @not_strict(%in: memref<?xi32>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_sort' op sorts by a `less` that is not a strict weak order, which a sort needs (without one, each plan sorts its own way): (-3 : i32) comes before itself}}
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi sle, %x, %y : i32
    obs.yield %less : i1
  }
  return
}

// -----

func.func @both_ways(%k: memref<?xf32>, %v: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_sort' op sorts by a `less` that is not a strict weak order, which a sort needs (without one, each plan sorts its own way): (-3.750000e+00 : f32, -3 : i32) and (-3.750000e+00 : f32, 0 : i32) each come before the other}}
  obs.device_sort ins(%k, %v : memref<?xf32>, memref<?xi32>) outs(%k, %v : memref<?xf32>, memref<?xi32>) {
  ^bb0(%k1: f32, %v1: i32, %k2: f32, %v2: i32):
    %less = arith.cmpi ne, %v1, %v2 : i32
    obs.yield %less : i1
  }
  return
}

// -----

// Rock, paper, scissors: x comes before y when y - x is 1 mod 3, which
// goes round in a circle.
func.func @circular(%in: memref<?xi32>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_sort' op sorts by a `less` that is not a strict weak order, which a sort needs (without one, each plan sorts its own way): (-3 : i32) comes before (1 : i32), which comes before (2 : i32), but (-3 : i32) does not come before (2 : i32)}}
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %d = arith.subi %y, %x : i32
    %r = arith.remsi %d, %c3 : i32
    %p = arith.addi %r, %c3 : i32
    %m = arith.remsi %p, %c3 : i32
    %less = arith.cmpi eq, %m, %c1 : i32
    obs.yield %less : i1
  }
  return
}

// -----

// Ahead by two or more: strict, but its ties do not chain (0 ties with 1,
// 1 with 2, but 0 comes before 2), so the sorted order depends on the plan.
func.func @ties_do_not_chain(%in: memref<?xi32>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_sort' op sorts by a `less` that is not a strict weak order, which a sort needs (without one, each plan sorts its own way): (0 : i32) ties with (1 : i32), and (1 : i32) with (2 : i32), but (0 : i32) and (2 : i32) do not tie}}
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %c1 = arith.constant 1 : i32
    %x1 = arith.addi %x, %c1 : i32
    %less = arith.cmpi slt, %x1, %y : i32
    obs.yield %less : i1
  }
  return
}
