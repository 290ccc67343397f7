// A func.func that a hand-written gpu.func calls, in its gpu.module, which
// cuda compiles (the cpu target refuses it): its i8 loop from 0 to 120 by
// 100 runs twice (iv = 0, 100), as MLIR means; upstream's lowering ran it
// 14 times.
module attributes {gpu.container_module} {
  func.func @run(%out: memref<1xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<1xi32>)
    return
  }
  gpu.module @m {
    func.func @trips() -> i32 {
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %a0 = arith.constant 0 : i8
      %a1 = arith.constant 120 : i8
      %a2 = arith.constant 100 : i8
      %t0 = scf.for %k = %a0 to %a1 step %a2 iter_args(%n = %z) -> (i32) : i8 {
        %n2 = arith.addi %n, %one : i32
        scf.yield %n2 : i32
      }
      return %t0 : i32
    }
    gpu.func @k(%out: memref<1xi32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %t = func.call @trips() : () -> i32
      %i0 = arith.constant 0 : index
      memref.store %t, %out[%i0] : memref<1xi32>
      gpu.return
    }
  }
}
