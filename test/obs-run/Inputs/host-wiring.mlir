// Host programs whose runs went wrong on some target
// (test/obs-run/host-wiring.test).

obs.kernel @add(%a: !obs.arr<4 x i32>, %b: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %z = obs.zip %a, %b : !obs.arr<4 x i32>, !obs.arr<4 x i32>
  %m = obs.map %z : !obs.arr<4 x tuple<i32, i32>> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// out (zeros as it starts) += in: a run that is not idempotent.
func.func @accumulate(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @add grid(2) ins(%out, %in : memref<8xi32>, memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// A grid past 2^32 blocks; the first 3 cover 12 elements.
func.func @huge_grid(%in: memref<?xi32>, %out: memref<?xi32>) {
  %g = arith.constant 4294967297 : index
  obs.launch @copy grid(%g) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// out = in, then out[0] counted up to 10 through copies to and from the
// device: a loop whose condition reads device data.
func.func @count_up(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  %h = memref.alloc() : memref<8xi32>
  %d = memref.alloc() : memref<8xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  %v0 = memref.load %out[%c0] : memref<8xi32>
  %r = scf.while (%v = %v0) : (i32) -> i32 {
    %lt = arith.cmpi slt, %v, %c10 : i32
    scf.condition(%lt) %v : i32
  } do {
  ^bb0(%v: i32):
    memref.copy %out, %h : memref<8xi32> to memref<8xi32>
    %nv = arith.addi %v, %c1 : i32
    memref.store %nv, %h[%c0] : memref<8xi32>
    memref.copy %h, %d : memref<8xi32> to memref<8xi32>
    memref.copy %d, %out : memref<8xi32> to memref<8xi32>
    %w = memref.load %out[%c0] : memref<8xi32>
    scf.yield %w : i32
  }
  memref.dealloc %h : memref<8xi32>
  memref.dealloc %d : memref<8xi32>
  return
}

// Every other element copied, through strided views.
func.func @strided_copy(%in: memref<8xi32>, %out: memref<8xi32>) {
  %a = memref.subview %in[0] [4] [2] : memref<8xi32> to memref<4xi32, strided<[2]>>
  %b = memref.subview %out[0] [4] [2] : memref<8xi32> to memref<4xi32, strided<[2]>>
  memref.copy %a, %b : memref<4xi32, strided<[2]>> to memref<4xi32, strided<[2]>>
  return
}

// out = in, through a temporary grown by memref.realloc.
func.func @grow(%in: memref<8xi32>, %out: memref<8xi32>) {
  %t = memref.alloc() : memref<8xi32>
  memref.copy %in, %t : memref<8xi32> to memref<8xi32>
  %t2 = memref.realloc %t : memref<8xi32> to memref<16xi32>
  %s = memref.subview %t2[0] [8] [1] : memref<16xi32> to memref<8xi32, strided<[1]>>
  memref.copy %s, %out : memref<8xi32, strided<[1]>> to memref<8xi32>
  memref.dealloc %t2 : memref<16xi32>
  return
}

// Host code that frees what it did not allocate: the caller's buffer, and
// a temporary twice (memref's undefined behaviour).
func.func @free_argument(%in: memref<8xi32>, %out: memref<8xi32>) {
  memref.copy %in, %out : memref<8xi32> to memref<8xi32>
  memref.dealloc %in : memref<8xi32>
  return
}
func.func @free_twice(%in: memref<8xi32>, %out: memref<8xi32>) {
  %t = memref.alloc() : memref<8xi32>
  memref.copy %in, %t : memref<8xi32> to memref<8xi32>
  memref.copy %t, %out : memref<8xi32> to memref<8xi32>
  memref.dealloc %t : memref<8xi32>
  memref.dealloc %t : memref<8xi32>
  return
}
