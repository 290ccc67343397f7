// RUN: obs-opt %s --obs-int-range-optimizations | FileCheck %s

// Tests of lib/Transforms/IntRangeOptimizations.cpp: upstream's rewrites
// where MLIR's range analysis is right, and nothing where it bounds an
// unsigned loop's counter by its bounds read as signed integers, or a
// remainder by a divisor that may be zero as if it could not be.

// A signed loop from 2 to 10: its counter is never negative, so the
// comparison is false, as upstream's pass makes it.
// CHECK-LABEL: func.func @signed_loop
// CHECK: scf.for
// CHECK-NOT: arith.cmpi
// CHECK: scf.yield
func.func @signed_loop(%acc: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %one = arith.constant 1 : i32
  %hundred = arith.constant 100 : i32
  %s = scf.for %k = %c2 to %c10 step %c1 iter_args(%a = %acc) -> (i32) {
    %negative = arith.cmpi slt, %k, %c0 : index
    %add = arith.select %negative, %hundred, %one : i32
    %n = arith.addi %a, %add : i32
    scf.yield %n : i32
  }
  return %s : i32
}

// The same loop compared unsigned from 2^63 - 2 below 2^63 + 2 (or 2^63 - 1):
// its counter reaches 2^63, negative as a signed integer, and the
// comparison stays. (Upstream's pass folded it to false.)
// CHECK-LABEL: func.func @unsigned_loop
// CHECK: scf.for unsigned %[[K:[a-z0-9]+]] =
// CHECK: arith.cmpi slt, %[[K]], %{{.*}} : index
func.func @unsigned_loop(%acc: i32, %wide: i1) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lb = arith.constant 9223372036854775806 : index
  %beyond = arith.constant -9223372036854775806 : index
  %max = arith.constant 9223372036854775807 : index
  %one = arith.constant 1 : i32
  %hundred = arith.constant 100 : i32
  %ub = arith.select %wide, %beyond, %max : index
  %s = scf.for unsigned %k = %lb to %ub step %c1 iter_args(%a = %acc) -> (i32) : index {
    %negative = arith.cmpi slt, %k, %c0 : index
    %add = arith.select %negative, %hundred, %one : i32
    %n = arith.addi %a, %add : i32
    scf.yield %n : i32
  }
  return %s : i32
}

// A remainder by a divisor in [0, 7]: arith's inference bounds 8 rem d by
// 6, assuming d is not zero, and upstream's pass folds `< 7` to true; obs's
// 8 rem 0 is 8, so the comparison stays. By a divisor in [1, 8] it folds.
// CHECK-LABEL: func.func @remainder_by_zero
// CHECK: %[[BYZERO:.*]] = arith.remui
// CHECK: %[[STAYS:.*]] = arith.cmpi ult, %[[BYZERO]], %{{.*}} : index
// CHECK: return %[[STAYS]], %true
func.func @remainder_by_zero(%x: index) -> (i1, i1) {
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %d = arith.andi %x, %c7 : index
  %r = arith.remui %c8, %d : index
  %inside = arith.cmpi ult, %r, %c7 : index
  %nonzero = arith.addi %d, %c1 : index
  %s = arith.remui %c8, %nonzero : index
  %below = arith.cmpi ult, %s, %c8 : index
  return %inside, %below : i1, i1
}
