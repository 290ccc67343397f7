// A hand-written gpu.func has the meaning obs gives element code and host
// code (convert-obs-to-gpu rewrites it once): loops run while
// lb <= iv < ub, MLIR's meaning, where upstream's lowering wraps the
// counter; a shift by the width or more is 0.
//   out[0]: i8 from 0 to 120 by 100: iv = 0, 100, 2 trips (wrapped: 14)
//   out[1]: unsigned i8 from 0 to 250 by 200: iv = 0, 200, 2 trips (wrapped:
//           never ends)
//   out[2]: i64 from 0 to 2^63 - 1 by 2^62: iv = 0, 2^62, 2 trips (wrapped:
//           never ends)
//   out[3]: 5 << 40 as i32: 0
module attributes {gpu.container_module} {
  func.func @run(%out: memref<4xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@defined blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<4xi32>)
    return
  }
  gpu.module @m {
    gpu.func @defined(%out: memref<4xi32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %a0 = arith.constant 0 : i8
      %a1 = arith.constant 120 : i8
      %a2 = arith.constant 100 : i8
      %t0 = scf.for %k = %a0 to %a1 step %a2 iter_args(%n = %z) -> (i32) : i8 {
        %n2 = arith.addi %n, %one : i32
        scf.yield %n2 : i32
      }
      %b1 = arith.constant 250 : i8
      %b2 = arith.constant 200 : i8
      %t1 = scf.for unsigned %k = %a0 to %b1 step %b2 iter_args(%n = %z) -> (i32) : i8 {
        %n2 = arith.addi %n, %one : i32
        scf.yield %n2 : i32
      }
      %c0 = arith.constant 0 : i64
      %c1 = arith.constant 9223372036854775807 : i64
      %c2 = arith.constant 4611686018427387904 : i64
      %t2 = scf.for %k = %c0 to %c1 step %c2 iter_args(%n = %z) -> (i32) : i64 {
        %n2 = arith.addi %n, %one : i32
        scf.yield %n2 : i32
      }
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i3 = arith.constant 3 : index
      memref.store %t0, %out[%i0] : memref<4xi32>
      memref.store %t1, %out[%i1] : memref<4xi32>
      memref.store %t2, %out[%i2] : memref<4xi32>
      %five = arith.constant 5 : i32
      %forty = arith.constant 40 : i32
      %y = arith.shli %five, %forty : i32
      memref.store %y, %out[%i3] : memref<4xi32>
      gpu.return
    }
  }
}
