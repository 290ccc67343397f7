// Host functions that read and write their memrefs themselves
// (host-code.test). Every line number below is named by the test.

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

// Places from affine maps: n + 2 of an n-element memref.
func.func @affine_past(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %x = affine.load %in[%n + 2] : memref<?xi32>
  affine.store %x, %out[%n + 2] : memref<?xi32>
  return
}

// A transposed 4 x 4 view, its strides known only at run time (a subview
// with strides from data, in[0][0] = 1), collapsed to 16 places as if it
// were one run: place 15 is element 60 of 16.
func.func @collapse_transposed(%in: memref<4x4xi32>, %out: memref<4x4xi32>) {
  %c0 = arith.constant 0 : index
  %c15 = arith.constant 15 : index
  %one32 = memref.load %in[%c0, %c0] : memref<4x4xi32>
  %one = arith.index_cast %one32 : i32 to index
  %t = memref.transpose %in (i, j) -> (j, i) : memref<4x4xi32> to memref<4x4xi32, strided<[1, 4]>>
  %s = memref.subview %t[0, 0] [4, 4] [%one, %one] : memref<4x4xi32, strided<[1, 4]>> to memref<4x4xi32, strided<[?, ?]>>
  %f = memref.collapse_shape %s [[0, 1]] : memref<4x4xi32, strided<[?, ?]>> into memref<16xi32, strided<[?]>>
  %x = memref.load %f[%c15] : memref<16xi32, strided<[?]>>
  memref.store %x, %out[%c0, %c0] : memref<4x4xi32>
  return
}

// One element viewed in an empty allocation.
func.func @view_of_empty(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %empty = memref.alloc(%c0) : memref<?xi32>
  %one = memref.reinterpret_cast %empty to offset: [0], sizes: [1], strides: [1] : memref<?xi32> to memref<1xi32>
  %x = memref.load %one[%c0] : memref<1xi32>
  memref.store %x, %out[%c0] : memref<?xi32>
  memref.dealloc %empty : memref<?xi32>
  return
}

// A constant global that reaches a store through a call.
func.func private @write_first(%t: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 99 : i32
  memref.store %v, %t[%c0] : memref<4xi32>
  return
}
func.func @write_constant_in_call(%in: memref<4xi32>, %out: memref<4xi32>) {
  %t = memref.get_global @table : memref<4xi32>
  func.call @write_first(%t) : (memref<4xi32>) -> ()
  memref.copy %t, %out : memref<4xi32> to memref<4xi32>
  return
}

// A constant global or an argument, chosen as the program runs.
func.func @write_constant_chosen(%in: memref<4xi32>, %out: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %t = memref.get_global @table : memref<4xi32>
  %first = memref.load %in[%c0] : memref<4xi32>
  %zero = arith.constant 0 : i32
  %pick = arith.cmpi eq, %first, %zero : i32
  %m = arith.select %pick, %t, %out : memref<4xi32>
  memref.store %first, %m[%c0] : memref<4xi32>
  return
}

// Two sizes of run-time length in one group, which MLIR cannot lower (it
// crashed).
func.func @expand_two_dynamic(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %e = memref.expand_shape %in [[0, 1]] output_shape [%c2, %c4] : memref<?xi32> into memref<?x?xi32>
  return
}

// out[0] = in[0] / in[1], in[0] mod in[1], signed, in i32 and i128.
func.func @divide(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %in[%c0] : memref<?xi32>
  %y = memref.load %in[%c1] : memref<?xi32>
  %q = arith.divsi %x, %y : i32
  %wx = arith.extsi %x : i32 to i128
  %wy = arith.extsi %y : i32 to i128
  %wr = arith.remsi %wx, %wy : i128
  %r = arith.trunci %wr : i128 to i32
  memref.store %q, %out[%c0] : memref<?xi32>
  memref.store %r, %out[%c1] : memref<?xi32>
  return
}

// Sizes from data that are negative (test/obs-run/host-code.test): a view
// of -1 elements was taken as empty, and what it was passed to wrote past
// its allocation (heap corruption, a hang).
func.func @negative_subview(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %first = memref.load %in[%c0] : memref<?xi32>
  %size = arith.index_cast %first : i32 to index
  %small = memref.alloc() : memref<2xi32>
  %view = memref.subview %small[0] [%size] [1] : memref<2xi32> to memref<?xi32, strided<[1]>>
  %whole = memref.cast %view : memref<?xi32, strided<[1]>> to memref<?xi32>
  obs.device_map ins(%in : memref<?xi32>) outs(%whole : memref<?xi32>) {
  ^bb0(%x: i32):
    obs.yield %x : i32
  }
  memref.dealloc %small : memref<2xi32>
  return
}

func.func @negative_reinterpret(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %first = memref.load %in[%c0] : memref<?xi32>
  %size = arith.index_cast %first : i32 to index
  %small = memref.alloc() : memref<2xi32>
  %view = memref.reinterpret_cast %small to offset: [0], sizes: [%size], strides: [1] : memref<2xi32> to memref<?xi32>
  obs.device_map ins(%in : memref<?xi32>) outs(%view : memref<?xi32>) {
  ^bb0(%x: i32):
    obs.yield %x : i32
  }
  memref.dealloc %small : memref<2xi32>
  return
}

func.func @negative_alloc(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %first = memref.load %in[%c0] : memref<?xi32>
  %size = arith.index_cast %first : i32 to index
  %made = memref.alloc(%size) : memref<?xi32>
  obs.device_map ins(%in : memref<?xi32>) outs(%made : memref<?xi32>) {
  ^bb0(%x: i32):
    obs.yield %x : i32
  }
  memref.dealloc %made : memref<?xi32>
  return
}

// A size from data whose bytes wrap: 4 * 2,000,000,000^2 bytes is past
// 2^64, and wrapped to a small allocation every index below the size then
// passed (test/obs-run/host-code.test).
func.func @wrapping_alloc(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %first = memref.load %in[%c0] : memref<?xi32>
  %size = arith.index_cast %first : i32 to index
  %squared = arith.muli %size, %size : index
  %made = memref.alloc(%squared) : memref<?xi32>
  %x = memref.load %made[%c0] : memref<?xi32>
  memref.store %x, %out[%c0] : memref<?xi32>
  memref.dealloc %made : memref<?xi32>
  return
}

// A heap allocation of a size known when compiling that no machine gives:
// 2^45 i64, 2^48 bytes, past the 2^47 bytes of a process's addresses
// (malloc returned null, and the first store faulted: exit 139).
func.func @huge_static_alloc(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %made = memref.alloc() : memref<35184372088832xi64>
  %seven = arith.constant 7 : i64
  memref.store %seven, %made[%c0] : memref<35184372088832xi64>
  %x = memref.load %made[%c0] : memref<35184372088832xi64>
  %y = arith.trunci %x : i64 to i32
  memref.store %y, %out[%c0] : memref<?xi32>
  memref.dealloc %made : memref<35184372088832xi64>
  return
}

// A static allocation only kernels touch: on cuda it is the device's,
// whose failure the driver reports, and no host check follows it (one
// split the launches' stream).
obs.kernel @pass_through(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> attributes {threads = 4} {
  obs.return %a : !obs.arr<4 x i32>
}
func.func @device_only_alloc(%in: memref<4xi32>, %out: memref<4xi32>) {
  %made = memref.alloc() : memref<4xi32>
  obs.launch @pass_through grid(1) ins(%in : memref<4xi32>) outs(%made : memref<4xi32>)
  obs.launch @pass_through grid(1) ins(%made : memref<4xi32>) outs(%out : memref<4xi32>)
  memref.dealloc %made : memref<4xi32>
  return
}

// A loop's step from data (the first number): 0 ran forever, -1 walked
// down past the memory it read (test/obs-run/host-code.test).
func.func @step_from_data(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = memref.load %in[%c0] : memref<?xi32>
  %step = arith.index_cast %first : i32 to index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %zero = arith.constant 0 : i32
  %sum = scf.for %i = %c0 to %n step %step iter_args(%acc = %zero) -> (i32) {
    %x = memref.load %in[%i] : memref<?xi32>
    %y = arith.addi %acc, %x : i32
    scf.yield %y : i32
  }
  memref.store %sum, %out[%c0] : memref<?xi32>
  return
}

// A stack allocation of 2^40 i32 from data (the first number, squared).
func.func @huge_alloca(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %first = memref.load %in[%c0] : memref<?xi32>
  %size = arith.index_cast %first : i32 to index
  %squared = arith.muli %size, %size : index
  %made = memref.alloca(%squared) : memref<?xi32>
  %x = memref.load %made[%c0] : memref<?xi32>
  memref.store %x, %out[%c0] : memref<?xi32>
  return
}
