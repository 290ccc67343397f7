// Host functions that carry obs-check-host-code's own mark, obs.host_checked,
// as if their run-time checks were in place (test/obs-run/host-checked-mark.test).

// Stores past the end of its memref<4xi32>: places 4 to 39.
func.func @store_past_end(%a: memref<4xi32>) attributes {obs.host_checked} {
  %c4 = arith.constant 4 : index
  %c40 = arith.constant 40 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 99 : i32
  scf.for %i = %c4 to %c40 step %c1 {
    memref.store %v, %a[%i] : memref<4xi32>
  }
  return
}

// Divides its first number by its second.
func.func @divide(%a: memref<2xi32>, %b: memref<1xi32>) attributes {obs.host_checked} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %a[%c0] : memref<2xi32>
  %y = memref.load %a[%c1] : memref<2xi32>
  %q = arith.divsi %x, %y : i32
  memref.store %q, %b[%c0] : memref<1xi32>
  return
}
