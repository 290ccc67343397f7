// Launches through views of one allocation: the launch proof follows each
// memref to its allocation and compares places, not SSA values
// (test/obs-run/launch-views.test runs these on every target and block
// order).

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

obs.kernel @inc(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %c1 = arith.constant 1 : i32
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// Safe: out = in + 1, incremented in place through out reshaped to 2 x 4
// and back: every block reads and writes its own chunk.
func.func @reshaped(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  %grid = memref.expand_shape %out [[0, 1]] output_shape [2, 4] : memref<8xi32> into memref<2x4xi32>
  %flat = memref.collapse_shape %grid [[0, 1]] : memref<2x4xi32> into memref<8xi32>
  obs.launch @inc grid(2) ins(%out : memref<8xi32>) outs(%flat : memref<8xi32>)
  return
}

// Safe: out = in + 1 through the front half of a buffer (a subview) and a
// view of its back half, which do not overlap.
func.func @halves(%in: memref<8xi32>, %out: memref<8xi32>) {
  %c32 = arith.constant 32 : index
  %bytes = memref.alloc() : memref<64xi8>
  %whole = memref.view %bytes[%c32][] : memref<64xi8> to memref<8xi32>
  %front = memref.alloc() : memref<16xi32>
  %lo = memref.subview %front[0] [8] [1] : memref<16xi32> to memref<8xi32, strided<[1]>>
  %lo_flat = memref.cast %lo : memref<8xi32, strided<[1]>> to memref<8xi32>
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%lo_flat : memref<8xi32>)
  obs.launch @inc grid(2) ins(%lo_flat : memref<8xi32>) outs(%whole : memref<8xi32>)
  obs.launch @copy grid(2) ins(%whole : memref<8xi32>) outs(%out : memref<8xi32>)
  memref.dealloc %front : memref<16xi32>
  memref.dealloc %bytes : memref<64xi8>
  return
}
