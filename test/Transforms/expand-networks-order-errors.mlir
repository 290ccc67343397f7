// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks))' --verify-diagnostics
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks{mark-defaults=true}))' --verify-diagnostics

// A sort by an order that is not a strict weak order has no one answer: the
// ranks each element's thread computes (no network named), a network and
// the reference target's merge sort each sort their own way (`sle` sorted
// 5,1,7,2,6,0,4,3 as 0..7 on ref and as 5,0,1,2,3,4,5,6 on cpu, which is
// not a permutation). Every sort is checked, without a network too, and
// also in mark-defaults mode, which the reference target runs.
obs.kernel @sort_not_strict(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.sort' op sorts by a `less` that is not a strict weak order, which a sort needs (without one, each plan sorts its own way): (-3 : i32) comes before itself}}
  %r = obs.sort %a : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %le = arith.cmpi sle, %x, %y : i32
    obs.yield %le : i1
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// A sort inside element code, by `ne`: each of two elements before the
// other.
obs.kernel @sort_in_element_code(%a: !obs.arr<4 x !obs.arr<8 x i32>>) -> !obs.arr<4 x !obs.arr<8 x i32>> {
  %r = obs.map %a : !obs.arr<4 x !obs.arr<8 x i32>> -> !obs.arr<4 x !obs.arr<8 x i32>> {
  ^bb0(%row: !obs.arr<8 x i32>):
    // expected-error @+1 {{sorts by a `less` that is not a strict weak order, which a sort needs (without one, each plan sorts its own way): (-3 : i32) and (0 : i32) each come before the other}}
    %s = obs.sort %row : !obs.arr<8 x i32> {
    ^bb0(%x: i32, %y: i32):
      %ne = arith.cmpi ne, %x, %y : i32
      obs.yield %ne : i1
    }
    obs.yield %s : !obs.arr<8 x i32>
  }
  obs.return %r : !obs.arr<4 x !obs.arr<8 x i32>>
}

// -----

// The same `sle`, inside a loop: the check used to skip what it could not
// fold (a loop), and accepted it; ref and cpu then sorted differently.
// Loops are run on the samples now.
obs.kernel @sort_in_loop(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.sort' op sorts by a `less` that is not a strict weak order, which a sort needs (without one, each plan sorts its own way): (-3 : i32) comes before itself}}
  %s = obs.sort %a : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %f = arith.constant false
    %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %f) -> (i1) {
      %l = arith.cmpi sle, %x, %y : i32
      scf.yield %l : i1
    }
    obs.yield %r : i1
  }
  obs.return %s : !obs.arr<8 x i32>
}

// -----

// A `less` the samples cannot evaluate (a loop past 4,096 trips) is not
// checked, and so not accepted.
obs.kernel @sort_unevaluated(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.sort' op sorts by a `less` that cannot be evaluated on constants, so whether it is a strict weak order cannot be checked: every op of it must fold on constants, and its loops end within 4096 iterations in all}}
  %s = obs.sort %a : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %many = arith.constant 100000 : index
    %f = arith.constant false
    %r = scf.for %k = %c0 to %many step %c1 iter_args(%acc = %f) -> (i1) {
      %l = arith.cmpi slt, %x, %y : i32
      scf.yield %l : i1
    }
    obs.yield %r : i1
  }
  obs.return %s : !obs.arr<8 x i32>
}

// -----

// Orders an adversarial run found accepted, and sorts on cpu that lost
// elements: each is now tried where it fails. A second key ordered by a
// difference, which wraps at its extremes (every scalar takes its type's
// least and largest values, not the first only).
obs.kernel @second_key_difference(%a: !obs.arr<4 x tuple<i32, i32>>) -> !obs.arr<4 x tuple<i32, i32>> {
  // expected-error @+1 {{(0 : i32, 0 : i32) and (0 : i32, -2147483648 : i32) each come before the other}}
  %r = obs.sort %a : !obs.arr<4 x tuple<i32, i32>> {
  ^bb0(%x0: i32, %x1: i32, %y0: i32, %y1: i32):
    %lt0 = arith.cmpi slt, %x0, %y0 : i32
    %eq0 = arith.cmpi eq, %x0, %y0 : i32
    %d = arith.subi %x1, %y1 : i32
    %c0 = arith.constant 0 : i32
    %lt1 = arith.cmpi slt, %d, %c0 : i32
    %tie = arith.andi %eq0, %lt1 : i1
    %c = arith.ori %lt0, %tie : i1
    obs.yield %c : i1
  }
  obs.return %r : !obs.arr<4 x tuple<i32, i32>>
}

// -----

// A fourth scalar compared with a third: pairs of scalars vary on their
// own (the fourth followed the third in every sample).
obs.kernel @fourth_against_third(%a: !obs.arr<4 x tuple<i32, i32, i32, i32>>) -> !obs.arr<4 x tuple<i32, i32, i32, i32>> {
  // expected-error @+1 {{comes before itself}}
  %r = obs.sort %a : !obs.arr<4 x tuple<i32, i32, i32, i32>> {
  ^bb0(%x0: i32, %x1: i32, %x2: i32, %x3: i32, %y0: i32, %y1: i32, %y2: i32, %y3: i32):
    %c = arith.cmpi slt, %x3, %y2 : i32
    obs.yield %c : i1
  }
  obs.return %r : !obs.arr<4 x tuple<i32, i32, i32, i32>>
}

// -----

// A tolerance, `x + 10 < y`: its incomparability is not transitive, which
// the numbers near the order's constant show (floats take them too).
obs.kernel @tolerance(%a: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> {
  // expected-error @+1 {{(-3.750000e+00 : f32) ties with (0.000000e+00 : f32), and (0.000000e+00 : f32) with (9.000000e+00 : f32), but (-3.750000e+00 : f32) and (9.000000e+00 : f32) do not tie}}
  %r = obs.sort %a : !obs.arr<8 x f32> {
  ^bb0(%x: f32, %y: f32):
    %t = arith.constant 10.0 : f32
    %xt = arith.addf %x, %t : f32
    %c = arith.cmpf olt, %xt, %y : f32
    obs.yield %c : i1
  }
  obs.return %r : !obs.arr<8 x f32>
}

// -----

// Irreflexive except at one value, taken from outside the region (the
// constants a region captures are sampled near as its own are).
obs.kernel @except_seven(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %seven = arith.constant 7 : i32
  // expected-error @+1 {{(7 : i32) comes before itself}}
  %r = obs.sort %a : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %lt = arith.cmpi slt, %x, %y : i32
    %e1 = arith.cmpi eq, %x, %seven : i32
    %e2 = arith.cmpi eq, %y, %seven : i32
    %e = arith.andi %e1, %e2 : i1
    %c = arith.ori %lt, %e : i1
    obs.yield %c : i1
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// A serial-number order (RFC 1982, 16 bits): cyclic.
obs.kernel @serial_numbers(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{(-3 : i32) comes before (0 : i32), which comes before (32767 : i32), but (-3 : i32) does not come before (32767 : i32)}}
  %r = obs.sort %a network(bitonic) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %d = arith.subi %x, %y : i32
    %m = arith.constant 65535 : i32
    %h = arith.constant 32768 : i32
    %w = arith.andi %d, %m : i32
    %c = arith.cmpi sgt, %w, %h : i32
    obs.yield %c : i1
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// Bounds the order computes from its constants (a third adversarial run):
// buckets of 16 by a shift (`x >> 4`), sampled near 16 and 32...
obs.kernel @buckets(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{(-3 : i32) ties with (0 : i32), and (0 : i32) with (16 : i32), but (-3 : i32) and (16 : i32) do not tie}}
  %r = obs.sort %a : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %c4 = arith.constant 4 : i32
    %c1 = arith.constant 1 : i32
    %bx = arith.shrsi %x, %c4 : i32
    %by = arith.shrsi %y, %c4 : i32
    %bx1 = arith.addi %bx, %c1 : i32
    %less = arith.cmpi slt, %bx1, %by : i32
    obs.yield %less : i1
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// ... and a tolerance computed as 4 * 4, sampled near 16.
obs.kernel @computed_tolerance(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{(-3 : i32) ties with (0 : i32), and (0 : i32) with (15 : i32), but (-3 : i32) and (15 : i32) do not tie}}
  %r = obs.sort %a : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %c4 = arith.constant 4 : i64
    %t = arith.muli %c4, %c4 : i64
    %xl = arith.extsi %x : i32 to i64
    %yl = arith.extsi %y : i32 to i64
    %xt = arith.addi %xl, %t : i64
    %less = arith.cmpi slt, %xt, %yl : i64
    obs.yield %less : i1
  }
  obs.return %r : !obs.arr<8 x i32>
}
