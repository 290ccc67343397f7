// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-rename-library-symbols | FileCheck %s

// Functions the program defines under C library names (erf, round, free)
// are renamed with their uses; a declaration (the library's own, called
// by name) and names the library does not have keep theirs.

// CHECK-LABEL: func.func @obs.erf(%{{.*}}: f64) -> f64
// CHECK-LABEL: func.func private @obs.round
// CHECK-LABEL: func.func @obs.free
// CHECK: call @obs.round
// CHECK-LABEL: func.func private @sqrt(f64) -> f64
// CHECK-LABEL: func.func @scale
// CHECK: call @obs.erf
// CHECK: call @sqrt
// CHECK: call @obs.free
func.func @erf(%x: f64) -> f64 {
  %c = arith.constant 42.0 : f64
  return %c : f64
}
func.func private @round(%x: f64) -> f64 {
  return %x : f64
}
func.func @free(%x: f64) -> f64 {
  %r = call @round(%x) : (f64) -> f64
  return %r : f64
}
func.func private @sqrt(f64) -> f64
func.func @scale(%x: f64) -> f64 {
  %e = call @erf(%x) : (f64) -> f64
  %s = call @sqrt(%e) : (f64) -> f64
  %f = call @free(%s) : (f64) -> f64
  return %f : f64
}

// -----

// expected-error @+1 {{'func.func' op is named like the C library's function 'erf' and is renamed 'obs.erf' on the host, but the program has a symbol of that name}}
func.func @erf(%x: f64) -> f64 {
  return %x : f64
}
func.func @obs.erf(%x: f64) -> f64 {
  return %x : f64
}
