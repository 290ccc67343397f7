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

// The same views given to a function that launches kernels, whose memref
// arguments its proof takes as distinct allocations (hunt 27): bytes
// [0, 64) and [64, 128) are; bytes [0, 64) and [4, 68) are not.
func.func private @increment(%x: memref<16xi32>, %y: memref<16xi32>) {
  obs.device_map ins(%x : memref<16xi32>) outs(%y : memref<16xi32>) {
  ^bb0(%v: i32):
    %one = arith.constant 1 : i32
    %w = arith.addi %v, %one : i32
    obs.yield %w : i32
  }
  return
}

func.func @disjoint_to_call(%in: memref<16xi32>, %out: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %buf = memref.alloc() : memref<128xi8>
  %v0 = memref.view %buf[%c0][] : memref<128xi8> to memref<16xi32>
  %v1 = memref.view %buf[%c64][] : memref<128xi8> to memref<16xi32>
  memref.copy %in, %v0 : memref<16xi32> to memref<16xi32>
  call @increment(%v0, %v1) : (memref<16xi32>, memref<16xi32>) -> ()
  memref.copy %v1, %out : memref<16xi32> to memref<16xi32>
  memref.dealloc %buf : memref<128xi8>
  return
}

func.func @overlapping_to_call(%in: memref<16xi32>, %out: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<68xi8>
  %v0 = memref.view %buf[%c0][] : memref<68xi8> to memref<16xi32>
  %v1 = memref.view %buf[%c4][] : memref<68xi8> to memref<16xi32>
  memref.copy %in, %v0 : memref<16xi32> to memref<16xi32>
  call @increment(%v0, %v1) : (memref<16xi32>, memref<16xi32>) -> ()
  memref.copy %v1, %out : memref<16xi32> to memref<16xi32>
  memref.dealloc %buf : memref<68xi8>
  return
}

// A scalar (an `obs.global` argument every block reads anywhere in it) at
// bytes [0, 4), beside the output at [64, 128) or over its first element.
func.func @scalar_beside(%in: memref<16xi32>, %k: memref<1xi32>, %out: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %buf = memref.alloc() : memref<128xi8>
  %s = memref.view %buf[%c0][] : memref<128xi8> to memref<1xi32>
  %o = memref.view %buf[%c64][] : memref<128xi8> to memref<16xi32>
  memref.copy %k, %s : memref<1xi32> to memref<1xi32>
  obs.device_map ins(%in : memref<16xi32>) scalars(%s : memref<1xi32>) outs(%o : memref<16xi32>) {
  ^bb0(%x: i32, %m: i32):
    %y = arith.addi %x, %m : i32
    obs.yield %y : i32
  }
  memref.copy %o, %out : memref<16xi32> to memref<16xi32>
  memref.dealloc %buf : memref<128xi8>
  return
}

func.func @scalar_over(%in: memref<16xi32>, %k: memref<1xi32>, %out: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<64xi8>
  %s = memref.view %buf[%c0][] : memref<64xi8> to memref<1xi32>
  %o = memref.view %buf[%c0][] : memref<64xi8> to memref<16xi32>
  memref.copy %k, %s : memref<1xi32> to memref<1xi32>
  obs.device_map ins(%in : memref<16xi32>) scalars(%s : memref<1xi32>) outs(%o : memref<16xi32>) {
  ^bb0(%x: i32, %m: i32):
    %y = arith.addi %x, %m : i32
    obs.yield %y : i32
  }
  memref.copy %o, %out : memref<16xi32> to memref<16xi32>
  memref.dealloc %buf : memref<64xi8>
  return
}

// A key-value sort (whose plan scatters into its outputs from any block)
// into keys at bytes [0, 64) and values at [64, 128).
func.func @sort_into_halves(%k: memref<16xi32>, %v: memref<16xi32>, %ko: memref<16xi32>, %vo: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %buf = memref.alloc() : memref<128xi8>
  %keys = memref.view %buf[%c0][] : memref<128xi8> to memref<16xi32>
  %values = memref.view %buf[%c64][] : memref<128xi8> to memref<16xi32>
  obs.device_sort ins(%k, %v : memref<16xi32>, memref<16xi32>)
      outs(%keys, %values : memref<16xi32>, memref<16xi32>) {
  ^bb0(%k1: i32, %v1: i32, %k2: i32, %v2: i32):
    %less = arith.cmpi slt, %k1, %k2 : i32
    obs.yield %less : i1
  }
  memref.copy %keys, %ko : memref<16xi32> to memref<16xi32>
  memref.copy %values, %vo : memref<16xi32> to memref<16xi32>
  memref.dealloc %buf : memref<128xi8>
  return
}
