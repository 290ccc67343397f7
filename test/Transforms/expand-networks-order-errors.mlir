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
  // expected-error @+1 {{'obs.sort' op sorts by a `less` that cannot be evaluated on constants, so whether it is a strict weak order cannot be checked: every op of it must fold on constants, and every loop end within 4096 iterations}}
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
