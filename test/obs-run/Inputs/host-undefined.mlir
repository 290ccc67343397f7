// Host code whose meaning LLVM leaves undefined, defined as element code's
// is (test/obs-run/host-undefined.test).

func.func @shift_place(%in: memref<4xi64>, %out: memref<4xi64>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : i64
  %x = memref.load %in[%c0] : memref<4xi64>
  %p = arith.shrui %x, %c64 : i64
  %i = arith.index_cast %p : i64 to index
  %v = memref.load %in[%i] : memref<4xi64>
  memref.store %v, %out[%c0] : memref<4xi64>
  return
}
func.func @shift_value(%in: memref<4xi32>, %out: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = memref.load %in[%c0] : memref<4xi32>
  %a = memref.load %in[%c1] : memref<4xi32>
  %l = arith.shli %x, %a : i32
  %r = arith.shrui %x, %a : i32
  %s = arith.shrsi %x, %a : i32
  memref.store %l, %out[%c0] : memref<4xi32>
  memref.store %r, %out[%c1] : memref<4xi32>
  memref.store %s, %out[%c2] : memref<4xi32>
  return
}

func.func @trips32(%in: memref<3xi32>, %out: memref<3xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %a = memref.load %in[%c0] : memref<3xi32>
  %b = memref.load %in[%c1] : memref<3xi32>
  %s = memref.load %in[%c2] : memref<3xi32>
  %n = scf.for %i = %a to %b step %s iter_args(%k = %z) -> (i32) : i32 {
    %k1 = arith.addi %k, %one : i32
    scf.yield %k1 : i32
  }
  memref.store %n, %out[%c0] : memref<3xi32>
  return
}

// fptosi of the data's floats: saturated, NaN 0.
func.func @fptosi_data(%in: memref<4xf64>, %out: memref<4xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %in[%i] : memref<4xf64>
    %y = arith.fptosi %x : f64 to i64
    memref.store %y, %out[%i] : memref<4xi64>
  }
  return
}
