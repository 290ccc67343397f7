// Two memref.views of one buffer, of static places and sizes, bytes
// [0, 64) and [64, 128): a device map copies one into the other, as a
// launch whose sizes are known only at run time (its plan's). And the same
// with views 4 bytes apart, which meet.
func.func @disjoint(%in: memref<16xi32>, %out: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %buf = memref.alloc() : memref<128xi8>
  %v0 = memref.view %buf[%c0][] : memref<128xi8> to memref<16xi32>
  %v1 = memref.view %buf[%c64][] : memref<128xi8> to memref<16xi32>
  memref.copy %in, %v0 : memref<16xi32> to memref<16xi32>
  obs.device_map ins(%v0 : memref<16xi32>) outs(%v1 : memref<16xi32>) {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  memref.copy %v1, %out : memref<16xi32> to memref<16xi32>
  memref.dealloc %buf : memref<128xi8>
  return
}

func.func @overlapping(%in: memref<16xi32>, %out: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<68xi8>
  %v0 = memref.view %buf[%c0][] : memref<68xi8> to memref<16xi32>
  %v1 = memref.view %buf[%c4][] : memref<68xi8> to memref<16xi32>
  memref.copy %in, %v0 : memref<16xi32> to memref<16xi32>
  obs.device_map ins(%v0 : memref<16xi32>) outs(%v1 : memref<16xi32>) {
  ^bb0(%x: i32):
    obs.yield %x : i32
  }
  memref.copy %v1, %out : memref<16xi32> to memref<16xi32>
  memref.dealloc %buf : memref<68xi8>
  return
}
