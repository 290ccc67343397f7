// RUN: obs-opt %s --pass-pipeline='builtin.module(gpu.module(obs-precise-gpu-math))' --obs-statistics 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats

// Tests of lib/Transforms/GPU/PreciseGPUMath.cpp: libdevice's f32 square
// root is sqrt.approx.f32 and its rsqrt rsqrt.approx, where the host's are
// IEEE's (an adversarial run read them in the PTX). f32 and f16 square
// roots become inline sqrt.rn.f32 (f16 and bf16 through f32); every rsqrt is 1
// divided by the root; an f64 root stays math.sqrt (libdevice's
// sqrt.rn.f64). An absf, negf or copysign, which NVPTX computes through
// f32 for 16-bit floats (making a NaN's payload the canonical one) and
// PTX's neg.f32, neg.f64 and abs.f32 leave unspecified for a NaN, clears,
// flips or copies the sign bit as the host does, at every width. A 16-bit
// or f32 remf, whose libdevice fmodf divides approximately, is computed in
// f64, exactly.

// STATS: obs-precise-gpu-math
// STATS: 17 rewritten

gpu.module @kernels {
  // CHECK-LABEL: func.func @roots(
  func.func @roots(%x: f32, %h: f16, %d: f64, %g: bf16) -> (f32, f16, f64, f32, f64, bf16) {
    // CHECK: %[[X:.*]] = llvm.inline_asm "sqrt.rn.f32 $0, $1;", "=f,f" %arg0 : (f32) -> f32
    %a = math.sqrt %x : f32
    // CHECK: %[[WIDE:.*]] = arith.extf %arg1 : f16 to f32
    // CHECK: %[[HROOT:.*]] = llvm.inline_asm "sqrt.rn.f32 $0, $1;", "=f,f" %[[WIDE]] : (f32) -> f32
    // CHECK: %[[H:.*]] = arith.truncf %[[HROOT]] : f32 to f16
    %b = math.sqrt %h : f16
    // CHECK: %[[D:.*]] = math.sqrt %arg2 : f64
    %c = math.sqrt %d : f64
    // CHECK: %[[XROOT:.*]] = llvm.inline_asm "sqrt.rn.f32 $0, $1;", "=f,f" %arg0 : (f32) -> f32
    // CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
    // CHECK: %[[R:.*]] = arith.divf %[[ONE]], %[[XROOT]] : f32
    %e = math.rsqrt %x : f32
    // CHECK: %[[DROOT:.*]] = math.sqrt %arg2 : f64
    // CHECK: %[[DONE:.*]] = arith.constant 1.000000e+00 : f64
    // CHECK: %[[RD:.*]] = arith.divf %[[DONE]], %[[DROOT]] : f64
    %f = math.rsqrt %d : f64
    // CHECK: %[[GWIDE:.*]] = arith.extf %arg3 : bf16 to f32
    // CHECK: %[[GROOT:.*]] = llvm.inline_asm "sqrt.rn.f32 $0, $1;", "=f,f" %[[GWIDE]] : (f32) -> f32
    // CHECK: %[[G:.*]] = arith.truncf %[[GROOT]] : f32 to bf16
    %g2 = math.sqrt %g : bf16
    // CHECK: return %[[X]], %[[H]], %[[D]], %[[R]], %[[RD]], %[[G]]
    return %a, %b, %c, %e, %f, %g2 : f32, f16, f64, f32, f64, bf16
  }
  // CHECK-LABEL: func.func @magnitudes(
  func.func @magnitudes(%h: f16, %g: bf16, %x: f32) -> (f16, bf16, f32) {
    // CHECK: %[[HBITS:.*]] = arith.bitcast %arg0 : f16 to i16
    // CHECK: %[[MASK:.*]] = arith.constant 32767 : i16
    // CHECK: %[[HCLEARED:.*]] = arith.andi %[[HBITS]], %[[MASK]] : i16
    // CHECK: %[[HABS:.*]] = arith.bitcast %[[HCLEARED]] : i16 to f16
    %a = math.absf %h : f16
    // CHECK: %[[GBITS:.*]] = arith.bitcast %arg1 : bf16 to i16
    // CHECK: %[[GCLEARED:.*]] = arith.andi %[[GBITS]], %{{.*}} : i16
    // CHECK: %[[GABS:.*]] = arith.bitcast %[[GCLEARED]] : i16 to bf16
    %b = math.absf %g : bf16
    // CHECK: %[[XBITS:.*]] = arith.bitcast %arg2 : f32 to i32
    // CHECK: %[[XMASK:.*]] = arith.constant 2147483647 : i32
    // CHECK: %[[XCLEARED:.*]] = arith.andi %[[XBITS]], %[[XMASK]] : i32
    // CHECK: %[[XABS:.*]] = arith.bitcast %[[XCLEARED]] : i32 to f32
    %c = math.absf %x : f32
    // CHECK: return %[[HABS]], %[[GABS]], %[[XABS]]
    return %a, %b, %c : f16, bf16, f32
  }
  // CHECK-LABEL: func.func @remainders(
  func.func @remainders(%h: f16, %g: bf16, %x: f32, %w: f64) -> (f16, bf16, f32, f64) {
    // CHECK: %[[HX:.*]] = arith.extf %arg0 : f16 to f64
    // CHECK: %[[HY:.*]] = arith.extf %arg0 : f16 to f64
    // CHECK: %[[HWIDE:.*]] = arith.remf %[[HX]], %[[HY]] : f64
    // CHECK: %[[H:.*]] = arith.truncf %[[HWIDE]] : f64 to f16
    %a = arith.remf %h, %h : f16
    // CHECK: %[[G:.*]] = arith.truncf %{{.*}} : f64 to bf16
    %b = arith.remf %g, %g : bf16
    // CHECK: %[[X:.*]] = arith.truncf %{{.*}} : f64 to f32
    %c = arith.remf %x, %x : f32
    // CHECK: %[[W:.*]] = arith.remf %arg3, %arg3 : f64
    %d = arith.remf %w, %w : f64
    // CHECK: return %[[H]], %[[G]], %[[X]], %[[W]]
    return %a, %b, %c, %d : f16, bf16, f32, f64
  }
  // CHECK-LABEL: func.func @signs(
  func.func @signs(%h: f16, %k: f16, %g: bf16, %x: f32, %y: f32, %w: f64) -> (f16, f16, bf16, f32, f32, f64) {
    // CHECK: %[[NBITS:.*]] = arith.bitcast %arg0 : f16 to i16
    // CHECK: %[[SIGN:.*]] = arith.constant -32768 : i16
    // CHECK: %[[FLIPPED:.*]] = arith.xori %[[NBITS]], %[[SIGN]] : i16
    // CHECK: %[[HNEG:.*]] = arith.bitcast %[[FLIPPED]] : i16 to f16
    %a = arith.negf %h : f16
    // CHECK: %[[XBITS:.*]] = arith.bitcast %arg0 : f16 to i16
    // CHECK: %[[MAGNITUDE:.*]] = arith.constant 32767 : i16
    // CHECK: %[[CLEARED:.*]] = arith.andi %[[XBITS]], %[[MAGNITUDE]] : i16
    // CHECK: %[[YBITS:.*]] = arith.bitcast %arg1 : f16 to i16
    // CHECK: %[[YSIGNMASK:.*]] = arith.constant -32768 : i16
    // CHECK: %[[YSIGN:.*]] = arith.andi %[[YBITS]], %[[YSIGNMASK]] : i16
    // CHECK: %[[COPIED:.*]] = arith.ori %[[CLEARED]], %[[YSIGN]] : i16
    // CHECK: %[[HCOPY:.*]] = arith.bitcast %[[COPIED]] : i16 to f16
    %b = math.copysign %h, %k : f16
    // CHECK: %[[GCOPY:.*]] = arith.bitcast %{{.*}} : i16 to bf16
    %c = math.copysign %g, %g : bf16
    // CHECK: %[[XNEGBITS:.*]] = arith.bitcast %arg3 : f32 to i32
    // CHECK: %[[XSIGN:.*]] = arith.constant -2147483648 : i32
    // CHECK: %[[XFLIPPED:.*]] = arith.xori %[[XNEGBITS]], %[[XSIGN]] : i32
    // CHECK: %[[XNEG:.*]] = arith.bitcast %[[XFLIPPED]] : i32 to f32
    %d = arith.negf %x : f32
    // CHECK: %[[XCOPY:.*]] = arith.bitcast %{{.*}} : i32 to f32
    %e = math.copysign %x, %y : f32
    // CHECK: %[[DBITS:.*]] = arith.bitcast %arg5 : f64 to i64
    // CHECK: %[[DSIGN:.*]] = arith.constant -9223372036854775808 : i64
    // CHECK: %[[DFLIPPED:.*]] = arith.xori %[[DBITS]], %[[DSIGN]] : i64
    // CHECK: %[[DNEG:.*]] = arith.bitcast %[[DFLIPPED]] : i64 to f64
    %f = arith.negf %w : f64
    // CHECK: return %[[HNEG]], %[[HCOPY]], %[[GCOPY]], %[[XNEG]], %[[XCOPY]], %[[DNEG]]
    return %a, %b, %c, %d, %e, %f : f16, f16, bf16, f32, f32, f64
  }
}
