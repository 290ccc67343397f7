// Launches whose memrefs or grids break what the launch proof takes as
// given, known only as they run (launch-contract.test); found by an
// adversarial run. Each was accepted, and ran past its buffers or raced.

obs.kernel @inc(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  %c1 = arith.constant 1 : i32
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// Writes out[4, n + 4): a subview 4 places past the end.
func.func @subview_past(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %g = arith.ceildivui %n, %c4 : index
  %v = memref.subview %out[%c4] [%n] [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  obs.launch @inc grid(%g) ins(%in : memref<?xi32>) outs(%v : memref<?xi32, strided<[1], offset: ?>>)
  return
}

// Reads in[4, n + 4) through a reinterpret_cast.
func.func @read_past(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %g = arith.ceildivui %n, %c4 : index
  %v = memref.reinterpret_cast %in to offset: [%c4], sizes: [%n], strides: [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  obs.launch @inc grid(%g) ins(%v : memref<?xi32, strided<[1], offset: ?>>) outs(%out : memref<?xi32>)
  return
}

// The same views within their memrefs: out[4, n) from in[0, n - 4).
func.func @within(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %m = arith.subi %n, %c4 : index
  %g = arith.ceildivui %m, %c4 : index
  %from = memref.subview %in[0] [%m] [1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %to = memref.subview %out[%c4] [%m] [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  obs.launch @inc grid(%g) ins(%from : memref<?xi32, strided<[1]>>) outs(%to : memref<?xi32, strided<[1], offset: ?>>)
  return
}

// Two subviews of one buffer proved apart symbolically: the second starts
// at n 2^61 + 1, which ValueBoundsConstraintSet takes to be past the
// first's n elements, but which wraps to 1 for n = 8.
func.func @wrapped_apart(%x: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %big = arith.constant 2305843009213693952 : index
  %n = memref.dim %x, %c0 : memref<?xi32>
  %len = arith.addi %n, %c1 : index
  %g = arith.ceildivui %n, %c4 : index
  %buf = memref.alloc(%len) : memref<?xi32>
  %head = memref.subview %buf[0] [%n] [1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  obs.launch @copy grid(%g) ins(%x : memref<?xi32>) outs(%head : memref<?xi32, strided<[1]>>)
  %nb = arith.muli %n, %big : index
  %o = arith.addi %nb, %c1 : index
  %b = memref.subview %buf[%o] [%n] [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  obs.launch @inc grid(%g) ins(%head : memref<?xi32, strided<[1]>>) outs(%b : memref<?xi32, strided<[1], offset: ?>>)
  obs.launch @copy grid(%g) ins(%head : memref<?xi32, strided<[1]>>) outs(%out : memref<?xi32>)
  memref.dealloc %buf : memref<?xi32>
  return
}

// A helper that launches, given two views that wrap around the same way.
func.func private @apply(%in: memref<?xi32, strided<[1]>>, %out: memref<?xi32, strided<[1], offset: ?>>, %g: index) {
  obs.launch @inc grid(%g) ins(%in : memref<?xi32, strided<[1]>>) outs(%out : memref<?xi32, strided<[1], offset: ?>>)
  return
}
func.func @call_wrapped_apart(%x: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %big = arith.constant 2305843009213693952 : index
  %n = memref.dim %x, %c0 : memref<?xi32>
  %g = arith.ceildivui %n, %c4 : index
  %nb = arith.muli %n, %big : index
  %o = arith.addi %nb, %c1 : index
  %m = arith.subi %n, %c1 : index
  %a = memref.subview %out[0] [%m] [1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %b = memref.subview %out[%o] [%m] [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  call @apply(%a, %b, %g) : (memref<?xi32, strided<[1]>>, memref<?xi32, strided<[1], offset: ?>>, index) -> ()
  return
}

// A grid of 2^32 + 1 blocks, past CUDA's 2^31 - 1, over 8 numbers.
func.func @huge_grid(%in: memref<?xi32>, %out: memref<?xi32>) {
  %g = arith.constant 4294967297 : index
  obs.launch @inc grid(%g) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// A subview of 2^62 elements of an 8-element buffer: its 2^64 bytes wrap
// to 0 in index arithmetic, and the check took it to lie within.
func.func @huge_view(%in: memref<?xi32>, %out: memref<?xi32>) {
  %g = arith.constant 64 : index
  %big = arith.constant 4611686018427387904 : index
  %t = memref.alloc() : memref<8xi32>
  %o = memref.subview %t[0] [%big] [1] : memref<8xi32> to memref<?xi32, strided<[1]>>
  obs.launch @copy grid(%g) ins(%in : memref<?xi32>) outs(%o : memref<?xi32, strided<[1]>>)
  memref.copy %t, %out : memref<8xi32> to memref<?xi32>
  memref.dealloc %t : memref<8xi32>
  return
}

// in[4, n) through a subview at a run-time offset, cast to memref<?xi32>,
// whose type says offset 0: the launch read in[0, n - 4), which the kernel
// computes with from the static type, and a device op over such casts in
// a loop sorted the first segment every time.
func.func @cast_claims_offset(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %m = arith.subi %n, %c4 : index
  %g = arith.ceildivui %m, %c4 : index
  // 4, known only at run time (from the output's length).
  %out_length = memref.dim %out, %c0 : memref<?xi32>
  %k = arith.subi %out_length, %m : index
  %v = memref.subview %in[%k] [%m] [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  %c = memref.cast %v : memref<?xi32, strided<[1], offset: ?>> to memref<?xi32>
  obs.launch @inc grid(%g) ins(%c : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// The same cast where the offset is 0: its claim holds, and it runs.
func.func @cast_holds(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %g = arith.ceildivui %n, %c4 : index
  %v = memref.subview %in[%c0] [%n] [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  %c = memref.cast %v : memref<?xi32, strided<[1], offset: ?>> to memref<?xi32>
  obs.launch @inc grid(%g) ins(%c : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}
