// Device sorts whose arrays differ in length (test/obs-run/sort-lengths.test).

// Keys and values at run-time lengths: the radix sort's plan.
func.func @pairs(%k: memref<?xi32>, %v: memref<?xi32>, %ko: memref<?xi32>, %vo: memref<?xi32>) {
  obs.device_sort ins(%k, %v : memref<?xi32>, memref<?xi32>) outs(%ko, %vo : memref<?xi32>, memref<?xi32>) {
  ^bb0(%a: i32, %b: i32, %c: i32, %d: i32):
    %l = arith.cmpi slt, %a, %c : i32
    obs.yield %l : i1
  }
  return
}

// By x >> 1, then x: the merge sort's plan, into an output of 10.
func.func @halves_into_ten(%in: memref<?xi32>, %out: memref<10xi32>) {
  %o = memref.cast %out : memref<10xi32> to memref<?xi32>
  obs.device_sort ins(%in : memref<?xi32>) outs(%o : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %c1 = arith.constant 1 : i32
    %hx = arith.shrsi %x, %c1 : i32
    %hy = arith.shrsi %y, %c1 : i32
    %lt = arith.cmpi slt, %hx, %hy : i32
    %eq = arith.cmpi eq, %hx, %hy : i32
    %xy = arith.cmpi slt, %x, %y : i32
    %tie = arith.andi %eq, %xy : i1
    %l = arith.ori %lt, %tie : i1
    obs.yield %l : i1
  }
  return
}
// 2^31 bytes, one more than a sort takes: refused before the first launch,
// so the buffer's pages are never touched.
func.func @too_long(%r: memref<1xi8>) {
  %c0 = arith.constant 0 : index
  %n = arith.constant 2147483648 : index
  %buf = memref.alloc(%n) : memref<?xi8>
  obs.device_sort ins(%buf : memref<?xi8>) outs(%buf : memref<?xi8>) {
  ^bb0(%x: i8, %y: i8):
    %less = arith.cmpi slt, %x, %y : i8
    obs.yield %less : i1
  }
  %x0 = memref.load %buf[%c0] : memref<?xi8>
  memref.store %x0, %r[%c0] : memref<1xi8>
  memref.dealloc %buf : memref<?xi8>
  return
}
