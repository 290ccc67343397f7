// RUN: obs-opt %s --obs-precise-math-to-libm | FileCheck %s

// expm1 and log1p call libm (expm1f and log1pf for f32, expm1 and log1p
// for f64; f16 through f32), where convert-math-to-llvm would compute
// exp(x) - 1 and log(1 + x); every other math op is left to it.

// CHECK-DAG: func.func private @expm1f(f32) -> f32
// CHECK-DAG: func.func private @log1pf(f32) -> f32
// CHECK-DAG: func.func private @expm1(f64) -> f64
// CHECK-DAG: func.func private @log1p(f64) -> f64
// CHECK-LABEL: func.func @small
// CHECK-SAME: (%[[F:.*]]: f32, %[[D:.*]]: f64, %[[H:.*]]: f16)
// CHECK: call @expm1f(%[[F]]) : (f32) -> f32
// CHECK: call @log1pf(%[[F]]) : (f32) -> f32
// CHECK: call @expm1(%[[D]]) : (f64) -> f64
// CHECK: call @log1p(%[[D]]) : (f64) -> f64
// CHECK: %[[WIDE:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK: %[[CALLED:.*]] = call @expm1f(%[[WIDE]]) : (f32) -> f32
// CHECK: arith.truncf %[[CALLED]] : f32 to f16
// CHECK: math.exp %[[F]] : f32
// CHECK: math.log %[[D]] : f64
// CHECK-NOT: math.expm1
// CHECK-NOT: math.log1p
func.func @small(%f: f32, %d: f64, %h: f16) -> (f32, f32, f64, f64, f16, f32, f64) {
  %a = math.expm1 %f : f32
  %b = math.log1p %f : f32
  %c = math.expm1 %d : f64
  %e = math.log1p %d : f64
  %g = math.expm1 %h : f16
  %x = math.exp %f : f32
  %y = math.log %d : f64
  return %a, %b, %c, %e, %g, %x, %y : f32, f32, f64, f64, f16, f32, f64
}
