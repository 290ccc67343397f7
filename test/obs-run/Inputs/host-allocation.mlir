// A host allocation of 2^32 - 1 i64 (32 GiB), its size known when
// compiling (test/obs-run/ref-allocation.test).
func.func @main(%out: memref<1xi64>) {
  %m = memref.alloc() : memref<4294967295xi64>
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : i64
  memref.store %c7, %m[%c0] : memref<4294967295xi64>
  %v = memref.load %m[%c0] : memref<4294967295xi64>
  memref.store %v, %out[%c0] : memref<1xi64>
  memref.dealloc %m : memref<4294967295xi64>
  return
}
