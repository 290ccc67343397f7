// RUN: obs-opt %s --obs-expand-device -split-input-file -verify-diagnostics

// A reduce or scan's combine must be associative, and its identity an
// identity of it: the plans reassociate the combine, absent elements of a
// partial last tile read as the identity, and an exclusive scan starts
// with it, so either mistake is a wrong answer for most lengths. Where the
// combine folds to constants, obs-expand-device tries both on a few
// elements.

func.func @product_with_zero(%in: memref<?xi32>, %out: memref<1xi32>) {
  // expected-error @+1 {{'obs.device_reduce' op identity [0 : i32] is not an identity of its combine: (0 : i32) combined with (1 : i32) is (0 : i32), not (1 : i32)}}
  obs.device_reduce ins(%in : memref<?xi32>) outs(%out : memref<1xi32>) identity [0 : i32] {
  ^bb0(%a: i32, %x: i32):
    %p = arith.muli %a, %x : i32
    obs.yield %p : i32
  }
  return
}

// -----

func.func @minimum_with_zero(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-error @+1 {{'obs.device_scan' op identity [0.000000e+00 : f32] is not an identity of its combine: (0.000000e+00 : f32) combined with (1.250000e+00 : f32) is (0.000000e+00 : f32), not (1.250000e+00 : f32)}}
  obs.device_scan exclusive ins(%in : memref<?xf32>) outs(%out : memref<?xf32>) identity [0.0 : f32] {
  ^bb0(%a: f32, %x: f32):
    %m = arith.minimumf %a, %x : f32
    obs.yield %m : f32
  }
  return
}

// -----

// (flag, value) pairs, "the last flagged value": (0, 0) is no identity,
// since (0, 0) combined with (0, 1) keeps the 0. Samples whose scalars are
// all equal ((1, 1), (2, 2), ...) never show it; the samples also rotate
// the numbers across a tuple's scalars, and (0, 1) is one of them.
func.func @last_flagged(%f: memref<?xi32>, %v: memref<?xi32>, %fo: memref<?xi32>, %vo: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_scan' op identity [0 : i32, 0 : i32] is not an identity of its combine: (0 : i32, 0 : i32) combined with (0 : i32, 1 : i32) is (0 : i32, 0 : i32), not (0 : i32, 1 : i32)}}
  obs.device_scan inclusive ins(%f, %v : memref<?xi32>, memref<?xi32>) outs(%fo, %vo : memref<?xi32>, memref<?xi32>) identity [0 : i32, 0 : i32] {
  ^bb0(%f1: i32, %v1: i32, %f2: i32, %v2: i32):
    %z = arith.constant 0 : i32
    %flagged = arith.cmpi ne, %f2, %z : i32
    %rf = arith.ori %f1, %f2 : i32
    %rv = arith.select %flagged, %v2, %v1 : i32
    obs.yield %rf, %rv : i32, i32
  }
  return
}

// -----

// Pairs: the identity of the second scalar is wrong.
func.func @pairs(%k: memref<?xi32>, %v: memref<?xi32>, %ko: memref<1xi32>, %vo: memref<1xi32>) {
  // expected-error @+1 {{'obs.device_reduce' op identity [0 : i32, 5 : i32] is not an identity of its combine: (0 : i32, 5 : i32) combined with (1 : i32, 1 : i32) is (1 : i32, 6 : i32), not (1 : i32, 1 : i32)}}
  obs.device_reduce ins(%k, %v : memref<?xi32>, memref<?xi32>) outs(%ko, %vo : memref<1xi32>, memref<1xi32>) identity [0 : i32, 5 : i32] {
  ^bb0(%k1: i32, %v1: i32, %k2: i32, %v2: i32):
    %ks = arith.addi %k1, %k2 : i32
    %vs = arith.addi %v1, %v2 : i32
    obs.yield %ks, %vs : i32, i32
  }
  return
}

// -----

// A branch on a constant is followed: this minimum by scf.if is tried, and
// its identity 0 is wrong.
func.func @branching(%in: memref<?xi32>, %out: memref<1xi32>) {
  // expected-error @+1 {{'obs.device_reduce' op identity [0 : i32] is not an identity of its combine: (0 : i32) combined with (1 : i32) is (0 : i32), not (1 : i32)}}
  obs.device_reduce ins(%in : memref<?xi32>) outs(%out : memref<1xi32>) identity [0 : i32] {
  ^bb0(%a: i32, %x: i32):
    %less = arith.cmpi slt, %a, %x : i32
    %m = scf.if %less -> (i32) {
      scf.yield %a : i32
    } else {
      scf.yield %x : i32
    }
    obs.yield %m : i32
  }
  return
}

// -----

// A combine with a loop runs on the samples (it was not tried, and this
// wrong identity for a sum passed).
func.func @unfolded(%in: memref<?xi32>, %out: memref<1xi32>) {
  // expected-error @+1 {{'obs.device_reduce' op identity [3 : i32] is not an identity of its combine: (3 : i32) combined with (1 : i32) is (4 : i32), not (1 : i32)}}
  obs.device_reduce ins(%in : memref<?xi32>) outs(%out : memref<1xi32>) identity [3 : i32] {
  ^bb0(%a: i32, %x: i32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %a) -> (i32) {
      %next = arith.addi %acc, %x : i32
      scf.yield %next : i32
    }
    obs.yield %s : i32
  }
  return
}

// -----

// A combine that is not associative gives an answer that depends on the
// plan: rejected, with the three elements that show it. Here
// a ⊕ x = a + x + a x (a - x), for which 0 is an identity.
func.func @not_associative(%in: memref<?xi32>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_scan' op combine is not associative, which every plan assumes: (1 : i32), (1 : i32) and (1 : i32) combine to (5 : i32) from the left but to (1 : i32) from the right}}
  obs.device_scan inclusive ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) identity [0 : i32] {
  ^bb0(%a: i32, %x: i32):
    %sum = arith.addi %a, %x : i32
    %product = arith.muli %a, %x : i32
    %difference = arith.subi %a, %x : i32
    %twist = arith.muli %product, %difference : i32
    %r = arith.addi %sum, %twist : i32
    obs.yield %r : i32
  }
  return
}

// -----

// A one-element input next to a longer first input reads as zeros past its
// element: rarely meant, so the expansion says where a broadcast goes.
func.func @one_element_input(%x: memref<?xf32>, %s: memref<1xf32>, %y: memref<?xf32>) {
  // expected-warning @+1 {{ins 1 holds one element, and reads as zeros past it; a value for every element is passed in `scalars(...)`}}
  obs.device_map ins(%x, %s : memref<?xf32>, memref<1xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%v: f32, %m: f32):
    %d = arith.subf %v, %m : f32
    obs.yield %d : f32
  }
  return
}

// -----

// Identities an adversarial run found accepted. A float maximum's -4.0:
// floats take their extremes on the right of the identity, and the numbers
// next to it (a reduce of -10 gave -4).
func.func @float_max_minus_four(%in: memref<?xf32>, %out: memref<1xf32>) {
  // expected-error @+1 {{'obs.device_reduce' op identity [-4.000000e+00 : f32] is not an identity of its combine: (-4.000000e+00 : f32) combined with (-5.000000e+00 : f32) is (-4.000000e+00 : f32), not (-5.000000e+00 : f32)}}
  obs.device_reduce ins(%in : memref<?xf32>) outs(%out : memref<1xf32>) identity [-4.0 : f32] {
  ^bb0(%x: f32, %y: f32):
    %m = arith.maximumf %x, %y : f32
    obs.yield %m : f32
  }
  return
}

// -----

// A window behind constants that only shift the sum: the constants that
// decide a comparison or a select are sampled near first.
func.func @window_behind_decoys(%in: memref<?xi32>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_scan' op identity [0 : i32] is not an identity of its combine: (0 : i32) combined with (1001 : i32) is (1000 : i32), not (1001 : i32)}}
  obs.device_scan inclusive ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) identity [0 : i32] {
  ^bb0(%x: i32, %y: i32):
    %a = arith.constant 10 : i32
    %b = arith.constant 20 : i32
    %c = arith.constant 30 : i32
    %x1 = arith.addi %x, %a : i32
    %x2 = arith.addi %x1, %b : i32
    %x3 = arith.addi %x2, %c : i32
    %y1 = arith.subi %x3, %a : i32
    %y2 = arith.subi %y1, %b : i32
    %y3 = arith.subi %y2, %c : i32
    %s = arith.addi %y3, %y : i32
    %lo = arith.constant 1000 : i32
    %hi = arith.constant 2000 : i32
    %g = arith.cmpi sgt, %s, %lo : i32
    %l = arith.cmpi slt, %s, %hi : i32
    %w = arith.andi %g, %l : i1
    %m = arith.select %w, %lo, %s : i32
    obs.yield %m : i32
  }
  return
}
