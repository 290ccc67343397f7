// Host code no target runs as written (test/obs-run/host-flags.test).

// expected-error @+1 {{'func.func' op takes a memref in a memory space: host code's memrefs are in the default one}}
func.func @argument_in_a_memory_space(%in: memref<4xi32, 257>, %out: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %in[%c0] : memref<4xi32, 257>
  memref.store %x, %out[%c0] : memref<4xi32>
  return
}

// -----

func.func @allocation_in_a_memory_space(%out: memref<4xi32>) {
  // expected-error @+1 {{'memref.alloc' op makes a memref in a memory space: host code's memrefs are in the default one}}
  %a = memref.alloc() : memref<4xi32, 3>
  memref.dealloc %a : memref<4xi32, 3>
  return
}

// -----

func.func @rounding_down(%in: memref<1xf64>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %in[%c0] : memref<1xf64>
  // expected-error @+1 {{'arith.truncf' op rounds downward, which no target's lowering honours (they round to nearest)}}
  %r = arith.truncf %x downward : f64 to f32
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}
