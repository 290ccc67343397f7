// RUN: obs-opt %s --test-obs-integer-evaluation | FileCheck %s

// Tests of lib/Support/IntegerEvaluation.cpp: integer ops on known values,
// as the block simulation and the in-place probe evaluate index arithmetic.
// Every expected value is two's complement arithmetic at the op's width;
// where arith's result is poison or undefined (a shift by the width or
// more, division by zero, the one signed overflow of division) the value
// is unknown, as arith's folders leave it, never C++'s undefined behaviour.

// CHECK-LABEL: func.func @wrapping
func.func @wrapping() -> (i8, i32, i64, index) {
  %i8_127 = arith.constant 127 : i8
  %i8_1 = arith.constant 1 : i8
  // CHECK: arith.addi {{.*}} {test.value = -128 : i64} : i8
  %a = arith.addi %i8_127, %i8_1 : i8
  %i32_big = arith.constant 65536 : i32
  // CHECK: arith.muli {{.*}} {test.value = 0 : i64} : i32
  %b = arith.muli %i32_big, %i32_big : i32
  %i64_max = arith.constant 9223372036854775807 : i64
  %i64_1 = arith.constant 1 : i64
  // CHECK: arith.addi {{.*}} {test.value = -9223372036854775808 : i64} : i64
  %c = arith.addi %i64_max, %i64_1 : i64
  %idx_0 = arith.constant 0 : index
  %idx_5 = arith.constant 5 : index
  // CHECK: arith.subi {{.*}} {test.value = -5 : i64} : index
  %d = arith.subi %idx_0, %idx_5 : index
  return %a, %b, %c, %d : i8, i32, i64, index
}

// CHECK-LABEL: func.func @shifts
func.func @shifts() -> (i32, i32, i64, i64, i32, i64, i8, i32, i32) {
  %one = arith.constant 1 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  // CHECK: arith.shli {{.*}} {test.value = -2147483648 : i64} : i32
  %a = arith.shli %one, %c31 : i32
  // CHECK: arith.shli {{.*}} {test.value = "unknown"} : i32
  %b = arith.shli %one, %c32 : i32
  %one64 = arith.constant 1 : i64
  %c63 = arith.constant 63 : i64
  %c64 = arith.constant 64 : i64
  // CHECK: arith.shli {{.*}} {test.value = -9223372036854775808 : i64} : i64
  %c = arith.shli %one64, %c63 : i64
  // CHECK: arith.shli {{.*}} {test.value = "unknown"} : i64
  %d = arith.shli %one64, %c64 : i64
  %minus8 = arith.constant -8 : i32
  // CHECK: arith.shrsi {{.*}} {test.value = -4 : i64} : i32
  %e = arith.shrsi %minus8, %one : i32
  %minus1 = arith.constant -1 : i64
  %c70 = arith.constant 70 : i64
  // CHECK: arith.shrsi {{.*}} {test.value = "unknown"} : i64
  %f = arith.shrsi %minus1, %c70 : i64
  %i8_min = arith.constant -128 : i8
  %i8_7 = arith.constant 7 : i8
  // CHECK: arith.shrsi {{.*}} {test.value = -1 : i64} : i8
  %g = arith.shrsi %i8_min, %i8_7 : i8
  %c28 = arith.constant 28 : i32
  // 0xfffffff8 >> 28
  // CHECK: arith.shrui {{.*}} {test.value = 15 : i64} : i32
  %h = arith.shrui %minus8, %c28 : i32
  // CHECK: arith.shrui {{.*}} {test.value = "unknown"} : i32
  %i = arith.shrui %minus8, %c32 : i32
  return %a, %b, %c, %d, %e, %f, %g, %h, %i : i32, i32, i64, i64, i32, i64, i8, i32, i32
}

// CHECK-LABEL: func.func @division
func.func @division() -> (i32, i64, i32, i32, i32, i32, i32, i32, i32, i8, i32) {
  %minus7 = arith.constant -7 : i32
  %two = arith.constant 2 : i32
  %minus2 = arith.constant -2 : i32
  %seven = arith.constant 7 : i32
  %zero = arith.constant 0 : i32
  // CHECK: arith.divsi {{.*}} {test.value = -3 : i64} : i32
  %a = arith.divsi %minus7, %two : i32
  %i64_min = arith.constant -9223372036854775808 : i64
  %i64_minus1 = arith.constant -1 : i64
  // CHECK: arith.divsi {{.*}} {test.value = "unknown"} : i64
  %b = arith.divsi %i64_min, %i64_minus1 : i64
  // CHECK: arith.divsi {{.*}} {test.value = "unknown"} : i32
  %c = arith.divsi %seven, %zero : i32
  // CHECK: arith.ceildivsi {{.*}} {test.value = -3 : i64} : i32
  %d = arith.ceildivsi %minus7, %two : i32
  // CHECK: arith.ceildivsi {{.*}} {test.value = 4 : i64} : i32
  %e = arith.ceildivsi %seven, %two : i32
  // CHECK: arith.floordivsi {{.*}} {test.value = -4 : i64} : i32
  %f = arith.floordivsi %minus7, %two : i32
  // CHECK: arith.floordivsi {{.*}} {test.value = -4 : i64} : i32
  %g = arith.floordivsi %seven, %minus2 : i32
  // CHECK: arith.remsi {{.*}} {test.value = -1 : i64} : i32
  %h = arith.remsi %minus7, %two : i32
  // CHECK: arith.remui {{.*}} {test.value = "unknown"} : i32
  %i = arith.remui %seven, %zero : i32
  %i8_minus1 = arith.constant -1 : i8
  %i8_2 = arith.constant 2 : i8
  // 255 / 2
  // CHECK: arith.divui {{.*}} {test.value = 127 : i64} : i8
  %j = arith.divui %i8_minus1, %i8_2 : i8
  // CHECK: arith.ceildivsi {{.*}} {test.value = "unknown"} : i32
  %i32_min = arith.constant -2147483648 : i32
  %i32_minus1 = arith.constant -1 : i32
  %k = arith.ceildivsi %i32_min, %i32_minus1 : i32
  return %a, %b, %c, %d, %e, %f, %g, %h, %i, %j, %k : i32, i64, i32, i32, i32, i32, i32, i32, i32, i8, i32
}

// CHECK-LABEL: func.func @comparisons_and_casts
func.func @comparisons_and_casts() -> (i1, i1, i32, i8, i32, i32, index, index, i32, i32) {
  %minus1 = arith.constant -1 : i32
  %zero = arith.constant 0 : i32
  // CHECK: arith.cmpi slt, {{.*}} {test.value = 1 : i64} : i32
  %a = arith.cmpi slt, %minus1, %zero : i32
  // CHECK: arith.cmpi ult, {{.*}} {test.value = 0 : i64} : i32
  %b = arith.cmpi ult, %minus1, %zero : i32
  %true = arith.constant true
  // CHECK: arith.select {{.*}} {test.value = -1 : i64} : i32
  %c = arith.select %true, %minus1, %zero : i32
  %c300 = arith.constant 300 : i32
  // CHECK: arith.trunci {{.*}} {test.value = 44 : i64} : i32 to i8
  %d = arith.trunci %c300 : i32 to i8
  %i8_minus1 = arith.constant -1 : i8
  // CHECK: arith.extsi {{.*}} {test.value = -1 : i64} : i8 to i32
  %e = arith.extsi %i8_minus1 : i8 to i32
  // CHECK: arith.extui {{.*}} {test.value = 255 : i64} : i8 to i32
  %f = arith.extui %i8_minus1 : i8 to i32
  // CHECK: arith.index_cast {{.*}} {test.value = -1 : i64} : i32 to index
  %g = arith.index_cast %minus1 : i32 to index
  // CHECK: arith.index_castui {{.*}} {test.value = 4294967295 : i64} : i32 to index
  %h = arith.index_castui %minus1 : i32 to index
  // CHECK: arith.minsi {{.*}} {test.value = -1 : i64} : i32
  %i = arith.minsi %minus1, %zero : i32
  // CHECK: arith.maxui {{.*}} {test.value = -1 : i64} : i32
  %j = arith.maxui %minus1, %zero : i32
  return %a, %b, %c, %d, %e, %f, %g, %h, %i, %j : i1, i1, i32, i8, i32, i32, index, index, i32, i32
}
