// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-verify-launches | FileCheck %s

// Tests of the launch proof's evaluation of layouts (CompiledLayout, which
// runs a layout over a block's elements at once, and LaunchProof.cpp, which
// goes through a block element by element again where a place is refused):
// floordiv and mod round towards minus infinity, by powers of two (shifts
// and masks) and by other divisors alike; a layout that overflows or leaves
// its memref is reported at the first element that does.

obs.kernel @copy8(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  obs.return %a : !obs.arr<8 x i32>
}

// Each layout is a permutation of each block's chunk only where floordiv
// rounds down and mod is never negative: (i - 1) floordiv 2 is -1 for
// i = 0, and (i + 1) mod 2 is (i - 1) mod 2, so the place is i (division
// rounding towards zero would put elements 0 and 2 at place 2); likewise by
// 3; (i - 4) mod 8 is i + 4 for i < 4 (a remainder of the sign of the
// dividend would leave the memref).
// CHECK-LABEL: func.func @floor_semantics
// CHECK: obs.launch @copy8 grid(2)
// CHECK: obs.launch @copy8 grid(2)
func.func @floor_semantics(%in: memref<16xi32>, %out: memref<16xi32>, %other: memref<16xi32>) {
  obs.launch @copy8 grid(2) ins(%in : memref<16xi32>) outs(%out : memref<16xi32>)
      layouts [affine_map<(b, i) -> ((i - 4) mod 8 + b * 8)>,
               affine_map<(b, i) -> (((i - 1) floordiv 2) * 2 + (i + 1) mod 2 + 1 + b * 8)>]
  obs.launch @copy8 grid(2) ins(%in : memref<16xi32>) outs(%other : memref<16xi32>)
      layouts [affine_map<(b, i) -> (b * 8 + i)>,
               affine_map<(b, i) -> (((i - 1) floordiv 3) * 3 + (i + 2) mod 3 + 1 + b * 8)>]
  return
}

// -----

obs.kernel @copy8(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  obs.return %a : !obs.arr<8 x i32>
}

// Block 1's element 4 leaves the memref; blocks 0 and 1's elements before
// it are inside.
func.func @outside(%in: memref<16xi32>, %out: memref<12xi32>) {
  // expected-error @+1 {{layout 1 places element 4 of block 1 at 12, outside 'memref<12xi32>'}}
  obs.launch @copy8 grid(2) ins(%in : memref<16xi32>) outs(%out : memref<12xi32>)
      layouts [affine_map<(b, i) -> (b * 8 + i)>, affine_map<(b, i) -> (b * 8 + i)>]
  return
}

// -----

obs.kernel @copy8(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  obs.return %a : !obs.arr<8 x i32>
}

// 2^62 * (i floordiv 2) twice (once through a mod, which keeps the two
// from being folded into one wrapped constant) overflows from element 2 on.
func.func @overflow(%in: memref<16xi32>, %out: memref<16xi32>) {
  // expected-error @+1 {{layout 0 places element 2 of block 0 at no index (its arithmetic overflows 64 bits, or divides by 0), outside 'memref<16xi32>'}}
  obs.launch @copy8 grid(2) ins(%in : memref<16xi32>) outs(%out : memref<16xi32>)
      layouts [affine_map<(b, i) -> ((i floordiv 2) * 4611686018427387904 + ((i floordiv 2) * 4611686018427387904) mod 9223372036854775807 + b * 8 + i)>,
               affine_map<(b, i) -> (b * 8 + i)>]
  return
}

// -----

obs.kernel @copy2(%a: !obs.arr<2 x i32>) -> !obs.arr<2 x i32> {
  obs.return %a : !obs.arr<2 x i32>
}

// A ceildiv of the least integer: the targets expand it as
// -((0 - a) / b) (affine::expandAffineExpr), which wraps, so its place is
// no place, as an overflow's (the proof took the exact quotient, -2^62,
// where every target computed 2^62: it proved a permutation while two
// blocks wrote one place and none wrote another; an adversarial run).
func.func @ceildiv_of_least(%in: memref<4xi32>, %out: memref<4xi32>) {
  // expected-error @+1 {{layout 1 places element 1 of block 0 at no index (its arithmetic overflows 64 bits, or divides by 0), outside 'memref<4xi32>'}}
  obs.launch @copy2 grid(2) ins(%in : memref<4xi32>) outs(%out : memref<4xi32>)
      layouts [affine_map<(b, i) -> (b * 2 + i)>,
               affine_map<(b, i) -> (b * 2 + ((i * -4611686018427387904 * 2 + b) ceildiv 2) floordiv 4611686018427387904 + 1)>]
  return
}
