// Device ops over the other element types, whose tiles differ (8-byte
// elements: 4,096; 1- and 2-byte ones: 8,192): test/obs-run/device-types.test.

// The inclusive sum in i64 (the numbers times 2^20: the sums pass 32 bits).
func.func @scan_i64(%in: memref<?xi64>, %out: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xi64>
  %wide = memref.alloc(%n) : memref<?xi64>
  obs.device_map ins(%in : memref<?xi64>) outs(%wide : memref<?xi64>) {
  ^bb0(%x: i64):
    %shift = arith.constant 20 : i64
    %y = arith.shli %x, %shift : i64
    obs.yield %y : i64
  }
  obs.device_scan inclusive ins(%wide : memref<?xi64>) outs(%out : memref<?xi64>) identity [0 : i64] {
  ^bb0(%x: i64, %y: i64):
    %s = arith.addi %x, %y : i64
    obs.yield %s : i64
  }
  memref.dealloc %wide : memref<?xi64>
  return
}

// The sum in f64.
func.func @reduce_f64(%in: memref<?xf64>, %out: memref<1xf64>) {
  obs.device_reduce ins(%in : memref<?xf64>) outs(%out : memref<1xf64>) identity [-0.0 : f64] {
  ^bb0(%x: f64, %y: f64):
    %s = arith.addf %x, %y : f64
    obs.yield %s : f64
  }
  return
}

// The running maximum in i16.
func.func @max_i16(%in: memref<?xi16>, %out: memref<?xi16>) {
  obs.device_scan inclusive ins(%in : memref<?xi16>) outs(%out : memref<?xi16>) identity [-32768 : i16] {
  ^bb0(%x: i16, %y: i16):
    %m = arith.maxsi %x, %y : i16
    obs.yield %m : i16
  }
  return
}

// Whether any number is a multiple of 997: a map to i1, then an or.
func.func @any_i1(%in: memref<?xi32>, %out: memref<1xi1>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %flags = memref.alloc(%n) : memref<?xi1>
  obs.device_map ins(%in : memref<?xi32>) outs(%flags : memref<?xi1>) {
  ^bb0(%x: i32):
    %p = arith.constant 997 : i32
    %zero = arith.constant 0 : i32
    %r = arith.remsi %x, %p : i32
    %is = arith.cmpi eq, %r, %zero : i32
    obs.yield %is : i1
  }
  obs.device_reduce ins(%flags : memref<?xi1>) outs(%out : memref<1xi1>) identity [false] {
  ^bb0(%x: i1, %y: i1):
    %o = arith.ori %x, %y : i1
    obs.yield %o : i1
  }
  memref.dealloc %flags : memref<?xi1>
  return
}
