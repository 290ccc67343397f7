// obs.device_sort over other key types (test/obs-run/device-sort-types.test):
// 8 passes for i64, 2 for i16, 1 for i8; signed, unsigned and IEEE orders,
// ascending and descending.

// The numbers times 2^40 plus themselves, so that the low and the high
// bytes vary, sorted in place: an even number of passes.
func.func @sort_i64(%in: memref<?xi64>, %out: memref<?xi64>) {
  obs.device_map ins(%in : memref<?xi64>) outs(%out : memref<?xi64>) {
  ^bb0(%x: i64):
    %shift = arith.constant 40 : i64
    %high = arith.shli %x, %shift : i64
    %y = arith.addi %high, %x : i64
    obs.yield %y : i64
  }
  obs.device_sort ins(%out : memref<?xi64>) outs(%out : memref<?xi64>) {
  ^bb0(%x: i64, %y: i64):
    %less = arith.cmpi slt, %x, %y : i64
    obs.yield %less : i1
  }
  return
}

// Descending doubles.
func.func @sort_f64_descending(%in: memref<?xf64>, %out: memref<?xf64>) {
  obs.device_sort ins(%in : memref<?xf64>) outs(%out : memref<?xf64>) {
  ^bb0(%x: f64, %y: f64):
    %first = arith.cmpf ogt, %x, %y : f64
    obs.yield %first : i1
  }
  return
}

// i16 ordered as unsigned: the negative numbers after the others.
func.func @sort_u16(%in: memref<?xi16>, %out: memref<?xi16>) {
  obs.device_sort ins(%in : memref<?xi16>) outs(%out : memref<?xi16>) {
  ^bb0(%x: i16, %y: i16):
    %less = arith.cmpi ult, %x, %y : i16
    obs.yield %less : i1
  }
  return
}

// i8 in place through a view of the same memory (a reinterpret_cast):
// one pass, from a copy, as for the same memref (it was refused, the plan
// deciding in place by value; an adversarial run).
func.func @sort_i8_through_view(%in: memref<?xi8>, %out: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xi8>
  obs.device_map ins(%in : memref<?xi8>) outs(%out : memref<?xi8>) {
  ^bb0(%x: i8):
    obs.yield %x : i8
  }
  %view = memref.reinterpret_cast %out to offset: [0], sizes: [%n], strides: [1] : memref<?xi8> to memref<?xi8>
  obs.device_sort ins(%out : memref<?xi8>) outs(%view : memref<?xi8>) {
  ^bb0(%x: i8, %y: i8):
    %less = arith.cmpi slt, %x, %y : i8
    obs.yield %less : i1
  }
  return
}

// i8 in place: one pass, from a copy.
func.func @sort_i8_in_place(%in: memref<?xi8>, %out: memref<?xi8>) {
  obs.device_map ins(%in : memref<?xi8>) outs(%out : memref<?xi8>) {
  ^bb0(%x: i8):
    obs.yield %x : i8
  }
  obs.device_sort ins(%out : memref<?xi8>) outs(%out : memref<?xi8>) {
  ^bb0(%x: i8, %y: i8):
    %less = arith.cmpi slt, %x, %y : i8
    obs.yield %less : i1
  }
  return
}
