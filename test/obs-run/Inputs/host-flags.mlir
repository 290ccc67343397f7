// Host functions whose arithmetic carries flags that make overflow poison,
// or a poison itself, next to the run-time checks obs-check-host-code
// builds from those values (test/obs-run/host-flags.test).

// Loads in[n * k]: with k = 2^62 - 1 and n = 4 the place wraps to -4.
func.func @load_wrapped(%in: memref<?xi64>, %out: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %max = arith.constant 9223372036854775807 : i64
  %n = memref.dim %in, %c0 : memref<?xi64>
  %k0 = memref.load %in[%c1] : memref<?xi64>
  %k1 = arith.andi %k0, %max : i64
  %k = arith.index_cast %k1 : i64 to index
  %i = arith.muli %n, %k overflow<nsw> : index
  %v = memref.load %in[%i] : memref<?xi64>
  memref.store %v, %out[%c0] : memref<?xi64>
  return
}

// x / (a * b), a and b at least 1: 2^32 * 2^32 wraps to 0.
func.func @divide_wrapped(%in: memref<3xi64>, %out: memref<3xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i64
  %a0 = memref.load %in[%c0] : memref<3xi64>
  %b0 = memref.load %in[%c1] : memref<3xi64>
  %x = memref.load %in[%c2] : memref<3xi64>
  %a = arith.maxsi %a0, %one : i64
  %b = arith.maxsi %b0, %one : i64
  %d = arith.muli %a, %b overflow<nsw> : i64
  %q = arith.divsi %x, %d : i64
  memref.store %q, %out[%c0] : memref<3xi64>
  return
}

// A loop stepping by a * b, the same product.
func.func @step_wrapped(%in: memref<2xi64>, %out: memref<2xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %one = arith.constant 1 : i64
  %a0 = memref.load %in[%c0] : memref<2xi64>
  %b0 = memref.load %in[%c1] : memref<2xi64>
  %a = arith.maxsi %a0, %one : i64
  %b = arith.maxsi %b0, %one : i64
  %d = arith.muli %a, %b overflow<nsw> : i64
  %step = arith.index_cast %d : i64 to index
  scf.for %i = %c0 to %c10 step %step {
    %x = memref.load %out[%c0] : memref<2xi64>
    %y = arith.addi %x, %one : i64
    memref.store %y, %out[%c0] : memref<2xi64>
  }
  return
}

// A poison place: 0, as in element code.
func.func @poison_place(%in: memref<4xi64>, %out: memref<4xi64>) {
  %c0 = arith.constant 0 : index
  %p = ub.poison : index
  %v = memref.load %in[%p] : memref<4xi64>
  memref.store %v, %out[%c0] : memref<4xi64>
  return
}
