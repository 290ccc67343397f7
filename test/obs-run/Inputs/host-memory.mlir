// Host functions that read and write their memrefs themselves
// (host-memory.test). Every line number below is named by the test.

// Stores 7 at places 8 to 63 of an 8-element memref.
func.func @store_past(%in: memref<8xi32>, %out: memref<8xi32>) {
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %seven = arith.constant 7 : i32
  scf.for %k = %c8 to %c64 step %c1 {
    memref.store %seven, %in[%k] : memref<8xi32>
  }
  return
}

// out[0] = in[in[0]]: a place that comes from data.
func.func @load_from_data(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %first = memref.load %in[%c0] : memref<?xi32>
  %place = arith.index_cast %first : i32 to index
  %x = memref.load %in[%place] : memref<?xi32>
  memref.store %x, %out[%c0] : memref<?xi32>
  return
}

// Copies a scratch memref twice the input's length into the input.
func.func @copy_longer(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %twice = arith.muli %n, %c2 : index
  %scratch = memref.alloc(%twice) : memref<?xi32>
  memref.copy %scratch, %in : memref<?xi32> to memref<?xi32>
  memref.dealloc %scratch : memref<?xi32>
  return
}

// out = in[4, n + 4), through a subview that reaches 4 places past in.
func.func @subview_past(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %v = memref.subview %in[%c4] [%n] [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  memref.copy %v, %out : memref<?xi32, strided<[1], offset: ?>> to memref<?xi32>
  return
}

// n i32 viewed at byte 4 of 4 n bytes.
func.func @view_past(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %bytes = arith.muli %n, %c4 : index
  %raw = memref.alloc(%bytes) : memref<?xi8>
  %v = memref.view %raw[%c4][%n] : memref<?xi8> to memref<?xi32>
  memref.copy %in, %v : memref<?xi32> to memref<?xi32>
  memref.dealloc %raw : memref<?xi8>
  return
}

// out[i] = in[0] + ... + in[i], by a loop that stays inside.
func.func @prefix_sums(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %n = memref.dim %in, %c0 : memref<?xi32>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero) -> i32 {
    %x = memref.load %in[%i] : memref<?xi32>
    %next = arith.addi %sum, %x : i32
    memref.store %next, %out[%i] : memref<?xi32>
    scf.yield %next : i32
  }
  return
}

memref.global "private" constant @table : memref<4xi32> = dense<[1, 2, 3, 4]>

// Writes into a constant global.
func.func @write_constant(%in: memref<4xi32>, %out: memref<4xi32>) {
  %t = memref.get_global @table : memref<4xi32>
  memref.copy %in, %t : memref<4xi32> to memref<4xi32>
  memref.copy %t, %out : memref<4xi32> to memref<4xi32>
  return
}
