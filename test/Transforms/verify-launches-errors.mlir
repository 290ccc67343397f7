// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-verify-launches

// Tests of lib/Transforms/VerifyLaunches.cpp and lib/Dialect/Obs/LaunchLayouts.cpp:
// launches whose global memory races, or that the proof cannot follow, are
// rejected place by place; and the structural checks of the op verifier.
// verify-launches.mlir has the safe launches that are kept.

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @outside(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{layout 0 places element 0 of block 1 at 8, outside 'memref<8xi32>'}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 8 + i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// Two blocks write the same places.
// expected-note @+1 {{the allocation}}
func.func @overlap(%in: memref<8xi32>, %out: memref<4xi32>) {
  // expected-error @+1 {{writes one place twice: element 0 of block 0 through outs 0, and element 0 of block 1 through outs 0}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<4xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (i)>]
  return
}

// -----

obs.kernel @split(%a: !obs.arr<2 x i32>, %b: !obs.arr<2 x i32>) -> (!obs.arr<2 x i32>, !obs.arr<2 x i32>) {
  obs.return %a, %b : !obs.arr<2 x i32>, !obs.arr<2 x i32>
}

// Two views of one output that overlap.
// expected-note @+1 {{the allocation}}
func.func @views(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{writes one place twice: element 1 of block 0 through outs 0, and element 0 of block 0 through outs 1}}
  obs.launch @split grid(2) ins(%in, %in : memref<8xi32>, memref<8xi32>) outs(%out, %out : memref<8xi32>, memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i + 2)>,
               affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i + 1)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @divides_by_zero(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{layout 0 divides by 0: a layout divides only by positive constants}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (i floordiv 0)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @divides_by_negative(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{layout 0 divides by -2: a layout divides only by positive constants}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i ceildiv -2)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// In and out are one memref, and block 1 writes what block 0 reads.
// expected-note @+1 {{the allocation}}
func.func @rotated(%buffer: memref<8xi32>) {
  // expected-error @+1 {{block 1 writes element 0 through outs 0 where block 0 reads element 0 through ins 0: blocks run in any order, so a launch's blocks may not write what another block reads}}
  obs.launch @copy grid(2) ins(%buffer : memref<8xi32>) outs(%buffer : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (((b + 1) mod 2) * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @count(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{has 1 layouts for 2 memrefs: give one per memref}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @shape(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{layout 1 must be a map (block, element) -> (index), but is affine_map<(d0) -> (d0)>}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(i) -> (i)>]
  return
}

// -----

obs.kernel @pairs(%a: !obs.arr<4 x tuple<i32, f32>>) -> !obs.arr<4 x tuple<i32, f32>> {
  obs.return %a : !obs.arr<4 x tuple<i32, f32>>
}

func.func @components(%i: memref<8xi32>, %f: memref<8xf32>, %oi: memref<8xi32>, %of: memref<8xf32>) {
  // expected-error @+1 {{layouts 0 and 1 differ, but their memrefs store one array: give the memrefs of an array one layout}}
  obs.launch @pairs grid(2) ins(%i, %f : memref<8xi32>, memref<8xf32>) outs(%oi, %of : memref<8xi32>, memref<8xf32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (7 - b * 4 - i)>,
               affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @element_type(%in: memref<8xf32>, %out: memref<8xi32>) {
  // expected-error @+1 {{passes ins (memref<8xf32>), but @copy over 2 blocks needs (memref<8xi32>) (with layouts, the outermost dimensions may differ)}}
  obs.launch @copy grid(2) ins(%in : memref<8xf32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

// Without layouts: in and out are one memref, and reversing a block's chunk
// has thread 3 read the place thread 0 writes, with no barrier between.
// expected-note @+2 {{the kernel reads it here}}
// expected-note @+1 {{the kernel writes it here}}
obs.kernel @rev(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %r = obs.rev %a : !obs.arr<4 x i32>
  obs.return %r : !obs.arr<4 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @same_memref(%buf: memref<8xi32>) {
  // expected-error @+1 {{in block 0, thread 3 (warp 0) reads element 0 through ins 0 and thread 0 (warp 0) writes that place as element 0 through outs 0, with no barrier between them that orders both}}
  obs.launch @rev grid(2) ins(%buf : memref<8xi32>) outs(%buf : memref<8xi32>)
  return
}

// -----

// One memref twice in outs, without layouts.
obs.kernel @both(%a: !obs.arr<4 x i32>) -> (!obs.arr<4 x i32>, !obs.arr<4 x i32>) {
  obs.return %a, %a : !obs.arr<4 x i32>, !obs.arr<4 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @twice(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{writes one place twice: element 0 of block 0 through outs 0, and element 0 of block 0 through outs 1}}
  obs.launch @both grid(2) ins(%in : memref<8xi32>) outs(%out, %out : memref<8xi32>, memref<8xi32>)
  return
}

// -----

// Two views of one allocation, a collapse_shape and a reinterpret_cast:
// distinct values, one memory.
// expected-note @+2 {{the kernel reads it here}}
// expected-note @+1 {{the kernel writes it here}}
obs.kernel @rev(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %r = obs.rev %a : !obs.arr<4 x i32>
  obs.return %r : !obs.arr<4 x i32>
}

func.func @views_of_one() {
  // expected-note @+1 {{the allocation}}
  %buf = memref.alloc() : memref<2x4xi32>
  %in = memref.collapse_shape %buf [[0, 1]] : memref<2x4xi32> into memref<8xi32>
  %out = memref.reinterpret_cast %buf to offset: [0], sizes: [8], strides: [1] : memref<2x4xi32> to memref<8xi32>
  // expected-error @+1 {{in block 0, thread 3 (warp 0) reads element 0 through ins 0 and thread 0 (warp 0) writes that place as element 0 through outs 0, with no barrier between them that orders both}}
  obs.launch @rev grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

// Views of one byte buffer, 16 bytes apart: outs 0 of block 0 is ins 0 of
// block 1.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @shifted_views() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  // expected-note @+1 {{the allocation}}
  %bytes = memref.alloc() : memref<64xi8>
  %in = memref.view %bytes[%c0][] : memref<64xi8> to memref<8xi32>
  %out = memref.view %bytes[%c16][] : memref<64xi8> to memref<8xi32>
  // expected-error @+1 {{block 0 writes element 0 through outs 0 where block 1 reads element 0 through ins 0}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

// Views of one buffer with different element sizes are not compared.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i8> {
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i8> {
  ^bb0(%x: i32):
    %y = arith.trunci %x : i32 to i8
    obs.yield %y : i8
  }
  obs.return %m : !obs.arr<4 x i8>
}

func.func @mixed_sizes() {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  // expected-note @+1 {{the allocation}}
  %bytes = memref.alloc() : memref<64xi8>
  %in = memref.view %bytes[%c0][] : memref<64xi8> to memref<8xi32>
  %out = memref.view %bytes[%c32][] : memref<64xi8> to memref<8xi8>
  // expected-error @+1 {{passes ins 0 and outs 0, views of one allocation with different element sizes or misaligned elements, which the launch proof does not compare}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi8>)
  return
}

// -----

// A view whose byte shift is not a multiple of its elements' size: a GPU
// loads and stores an i32 only at a multiple of 4, and a kernel given an
// i32 view at byte 1 would fault where ref and cpu ran it (an adversarial
// run).
obs.kernel @copy_misaligned(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}
func.func @misaligned_view(%in: memref<8xi32>) {
  %c1 = arith.constant 1 : index
  %bytes = memref.alloc() : memref<64xi8>
  // expected-note @+1 {{the view}}
  %out = memref.view %bytes[%c1][] : memref<64xi8> to memref<8xi32>
  // expected-error @+1 {{cannot take outs 0: it is a view at byte 1 of its memory, not a multiple of its elements' 4 bytes, where a GPU loads and stores them}}
  obs.launch @copy_misaligned grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

// A memref chosen at run time cannot be followed to one allocation.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @chosen(%c: i1, %a: memref<8xi32>, %b: memref<8xi32>) {
  // expected-note @+1 {{it comes from here}}
  %m = arith.select %c, %a, %b : memref<8xi32>
  // expected-error @+1 {{cannot follow outs 0 to its allocation: it comes from 'arith.select', which is neither a view with static places (subview, expand_shape, collapse_shape, cast, reinterpret_cast, transpose, view by a constant) nor an allocation}}
  obs.launch @copy grid(2) ins(%a : memref<8xi32>) outs(%m : memref<8xi32>)
  return
}

// -----

// A view by a byte shift known only at run time.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @shift_at_run_time(%shift: index, %in: memref<8xi32>) {
  %bytes = memref.alloc() : memref<64xi8>
  // expected-note @+1 {{it comes from here}}
  %out = memref.view %bytes[%shift][] : memref<64xi8> to memref<8xi32>
  // expected-error @+1 {{cannot follow outs 0 to its allocation: it comes from 'memref.view'}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

// A function's memref arguments are proved as distinct allocations, so a
// call that passes one twice is rejected.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func private @launches(%a: memref<8xi32>, %b: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%a : memref<8xi32>) outs(%b : memref<8xi32>)
  return
}

func.func private @calls(%a: memref<8xi32>, %b: memref<8xi32>) {
  func.call @launches(%a, %b) : (memref<8xi32>, memref<8xi32>) -> ()
  return
}

// expected-note @+1 {{the allocation}}
func.func @aliased(%a: memref<8xi32>) {
  %v = memref.cast %a : memref<8xi32> to memref<8xi32>
  // expected-error @+1 {{'func.call' op passes one allocation as arguments 0 and 1 to a function that launches kernels, whose memref arguments are proved as distinct allocations}}
  func.call @calls(%a, %v) : (memref<8xi32>, memref<8xi32>) -> ()
  return
}

// -----

// A kernel that writes an output (its first result, a sync returned as it
// is) before it reads the input again for its second: over one memref, the
// read sees the new value.
// expected-note @+1 {{the kernel reads it here}}
obs.kernel @again(%a: !obs.arr<4 x i32>) -> (!obs.arr<4 x i32>, !obs.arr<4 x i32>) {
  // expected-note @+1 {{the kernel writes it here}}
  %s = obs.sync %a : !obs.arr<4 x i32>
  %c1 = arith.constant 1 : i32
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  obs.return %s, %m : !obs.arr<4 x i32>, !obs.arr<4 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @read_after_write(%buf: memref<8xi32>, %other: memref<8xi32>) {
  // expected-error @+1 {{in block 0, thread 0 (warp 0) reads element 0 through ins 0 and thread 0 (warp 0) writes that place as element 0 through outs 0, before the read: a kernel reads its inputs as they were before the launch}}
  obs.launch @again grid(2) ins(%buf : memref<8xi32>) outs(%buf, %other : memref<8xi32>, memref<8xi32>)
  return
}

// -----

// An index that depends on data stands for every element of the array.
// expected-note @+2 {{the kernel reads it here}}
// expected-note @+1 {{the kernel writes it here}}
obs.kernel @gather(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %c3 = arith.constant 3 : i32
    %k = arith.andi %x, %c3 : i32
    %i = arith.index_cast %k : i32 to index
    %y = obs.index %a[%i] : !obs.arr<4 x i32>
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @gathered(%buf: memref<8xi32>) {
  // expected-error @+1 {{in block 0, thread 1 (warp 0) reads element 0 through ins 0 and thread 0 (warp 0) writes that place as element 0 through outs 0, with no barrier between them that orders both}}
  obs.launch @gather grid(2) ins(%buf : memref<8xi32>) outs(%buf : memref<8xi32>)
  return
}

// -----

// A fold over the whole input (a reduce in element code) reads every
// element of it, in every thread.
// expected-note @+2 {{the kernel reads it here}}
// expected-note @+1 {{the kernel writes it here}}
obs.kernel @sums(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %t = obs.reduce %a : !obs.arr<4 x i32> -> i32 {
    ^bb0(%p: i32, %q: i32):
      %s = arith.addi %p, %q : i32
      obs.yield %s : i32
    }
    %y = arith.addi %x, %t : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @folded(%buf: memref<8xi32>) {
  // expected-error @+1 {{in block 0, thread 1 (warp 0) reads element 0 through ins 0 and thread 0 (warp 0) writes that place as element 0 through outs 0, with no barrier between them that orders both}}
  obs.launch @sums grid(2) ins(%buf : memref<8xi32>) outs(%buf : memref<8xi32>)
  return
}

// -----

// A cast may claim a static offset for one known only at run time: a view
// of a memref whose places are not static cannot be followed.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @dynamic_offset(%in: memref<8xi32>, %i: index) {
  %buffer = memref.alloc() : memref<16xi32>
  // expected-note @+1 {{it comes from here}}
  %window = memref.subview %buffer[%i] [8] [1] : memref<16xi32> to memref<8xi32, strided<[1], offset: ?>>
  %out = memref.cast %window : memref<8xi32, strided<[1], offset: ?>> to memref<8xi32>
  // expected-error @+1 {{cannot follow outs 0 to its allocation: it is a view of a memref of type 'memref<8xi32, strided<[1], offset: ?>>', whose offset or strides are not static}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

// A constant global is read-only: no launch writes it.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

memref.global "private" constant @table : memref<8xi32> = dense<[1, 2, 3, 4, 5, 6, 7, 8]>

func.func @into_constant(%in: memref<8xi32>) {
  // expected-note @+1 {{the allocation}}
  %out = memref.get_global @table : memref<8xi32>
  // expected-error @+1 {{writes through outs 0 into a constant global, which is read-only}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}
memref.global "private" @scratch : memref<48xi8> = uninitialized

// Two memref.get_global of one global are one memory, as two views of one
// alloc are: block 1 reads bytes 16..31 through the first while block 0
// writes them through the second.
func.func @two_names_of_one_global() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  // expected-note @+1 {{the allocation}}
  %a = memref.get_global @scratch : memref<48xi8>
  %b = memref.get_global @scratch : memref<48xi8>
  %in = memref.view %a[%c0][] : memref<48xi8> to memref<8xi32>
  %out = memref.view %b[%c16][] : memref<48xi8> to memref<8xi32>
  // expected-error @+1 {{block 0 writes element 0 through outs 0 where block 1 reads element 0 through ins 0}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

// A kernel of 2^31 elements a block over 8: its places are taken element by
// element, and the first outside is the error (a table of every place of
// the block, made first, ran out of memory: an LLVM ERROR and a stack dump,
// found by mutating this file's kernels).
obs.kernel @huge(%a: !obs.arr<2147483648 x i32>) -> !obs.arr<2147483648 x i32> {
  obs.return %a : !obs.arr<2147483648 x i32>
}
func.func @huge_over_eight(%s: memref<8xi32>, %t: memref<8xi32>) {
  // expected-error @+1 {{layout 0 places element 4 of block 0 at -1, outside 'memref<8xi32>'}}
  obs.launch @huge grid(2) ins(%s : memref<8xi32>) outs(%t : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + 3 - i)>, affine_map<(b, i) -> (b * 4 + 3 - i)>]
  return
}

// -----

// The proof of a launch at static sizes compares its places one by one,
// at about 24 bytes of memory each: a launch of 2^30 elements in and out
// exhausted the compiler's memory (LLVM ERROR: out of memory, adversarial
// run). Past 2^25 places it is refused, naming the launch at sizes known
// at run time, whose proof does not grow with them.
obs.kernel private @inc(%a: !obs.arr<1024 x i64>) -> !obs.arr<1024 x i64> attributes {threads = 256} {
  obs.return %a : !obs.arr<1024 x i64>
}
func.func @too_many_places(%in: memref<1073741824xi64>, %out: memref<1073741824xi64>) {
  // expected-error @+1 {{'obs.launch' op has more than 33554432 places, which the proof of a launch at static sizes compares one by one: launch it over memrefs of sizes known at run time (memref<?x...>), whose proof does not grow with them, or split it}}
  obs.launch @inc grid(1048576) ins(%in : memref<1073741824xi64>) outs(%out : memref<1073741824xi64>)
  return
}

// -----

// 2^25 places are proved.
obs.kernel private @inc_at_limit(%a: !obs.arr<1024 x i64>) -> !obs.arr<1024 x i64> attributes {threads = 256} {
  obs.return %a : !obs.arr<1024 x i64>
}
func.func @places_at_limit(%in: memref<16777216xi64>, %out: memref<16777216xi64>) {
  obs.launch @inc_at_limit grid(16384) ins(%in : memref<16777216xi64>) outs(%out : memref<16777216xi64>)
  return
}
