// Launches of global obs.scatters, for test/obs-run/global-scatter.test.

// Zeros over a 256-element histogram.
obs.kernel @zeros() -> !obs.arr<256 x i32> attributes {threads = 256} {
  %zeros = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%i: index):
    %zero = arith.constant 0 : i32
    obs.yield %zero : i32
  }
  obs.return %zeros : !obs.arr<256 x i32>
}

// A block's counts of the values 0..255 among its 4,096 numbers, in shared
// memory, merged into the histogram with global atomics. Absent numbers
// (-1) and numbers outside 0..255 are dropped.
obs.kernel @count_tile(%a: !obs.arr<4096 x i32> {obs.absent = -1 : i32}) -> !obs.arr<256 x i32> attributes {threads = 256} {
  %ones = obs.generate : !obs.arr<4096 x i32> {
  ^bb0(%i: index):
    %one = arith.constant 1 : i32
    obs.yield %one : i32
  }
  %counts = obs.scatter %ones at %a combine(add) initial(0 : i32) : !obs.arr<4096 x i32>, !obs.arr<4096 x i32> -> !obs.arr<256 x i32>
  %bins = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%i: index):
    %bin = arith.index_cast %i : index to i32
    obs.yield %bin : i32
  }
  %total = obs.scatter %counts at %bins combine(add) global : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<256 x i32>
  obs.return %total : !obs.arr<256 x i32>
}

func.func @histogram(%in: memref<?xi32>, %hist: memref<256xi32>) {
  %c0 = arith.constant 0 : index
  %tile = arith.constant 4096 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %tile : index
  obs.launch @zeros grid(1) outs(%hist : memref<256xi32>)
  obs.launch @count_tile grid(%tiles) ins(%in : memref<?xi32>) outs(%hist : memref<256xi32>)
  return
}

// out[p[g]] = g for every g: the inverse of a permutation of any length,
// each place written once across the blocks.
obs.kernel @place_ids(%p: !obs.arr<256 x i32> {obs.absent = -1 : i32}) -> !obs.arr<2147483647 x i32> attributes {threads = 256} {
  %ids = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%i: index):
    %block = obs.block_id
    %c256 = arith.constant 256 : index
    %base = arith.muli %block, %c256 : index
    %g = arith.addi %base, %i : index
    %id = arith.index_cast %g : index to i32
    obs.yield %id : i32
  }
  %out = obs.scatter %ids at %p global : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<2147483647 x i32>
  obs.return %out : !obs.arr<2147483647 x i32>
}

func.func @inverse(%p: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %p, %c0 : memref<?xi32>
  %blocks = arith.ceildivui %n, %c256 : index
  obs.launch @place_ids grid(%blocks) ins(%p : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// out[p[g]] = v[g] over 1,024 places in four blocks of 256; places outside
// are dropped and places nobody writes keep what out held.
obs.kernel @put(%v: !obs.arr<256 x i32>, %p: !obs.arr<256 x i32>) -> !obs.arr<1024 x i32> attributes {threads = 128} {
  %out = obs.scatter %v at %p global : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<1024 x i32>
  obs.return %out : !obs.arr<1024 x i32>
}

func.func @put_all(%v: memref<1024xi32>, %p: memref<1024xi32>, %out: memref<1024xi32>) {
  obs.launch @put grid(4) ins(%v, %p : memref<1024xi32>, memref<1024xi32>) outs(%out : memref<1024xi32>)
  return
}

// The largest value per key of 16 among 2,048, max-combined across eight
// blocks into what max held (f32).
obs.kernel @largest(%v: !obs.arr<256 x f32>, %k: !obs.arr<256 x i32>) -> !obs.arr<16 x f32> attributes {threads = 64} {
  %out = obs.scatter %v at %k combine(max) global : !obs.arr<256 x f32>, !obs.arr<256 x i32> -> !obs.arr<16 x f32>
  obs.return %out : !obs.arr<16 x f32>
}

func.func @largest_all(%v: memref<2048xf32>, %k: memref<2048xi32>, %max: memref<16xf32>) {
  obs.launch @largest grid(8) ins(%v, %k : memref<2048xf32>, memref<2048xi32>) outs(%max : memref<16xf32>)
  return
}

// A result of tuples before a global scatter: its two memrefs come first.
obs.kernel @pairs_then_put(%v: !obs.arr<256 x i32>, %p: !obs.arr<256 x i32>) -> (!obs.arr<256 x tuple<i32, i32>>, !obs.arr<1024 x i32>) attributes {threads = 128} {
  %pairs = obs.zip %v, %p : !obs.arr<256 x i32>, !obs.arr<256 x i32>
  %out = obs.scatter %v at %p global : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<1024 x i32>
  obs.return %pairs, %out : !obs.arr<256 x tuple<i32, i32>>, !obs.arr<1024 x i32>
}

func.func @pairs_then_put_all(%v: memref<1024xi32>, %p: memref<1024xi32>, %first: memref<1024xi32>, %second: memref<1024xi32>, %out: memref<1024xi32>) {
  obs.launch @pairs_then_put grid(4) ins(%v, %p : memref<1024xi32>, memref<1024xi32>) outs(%first, %second, %out : memref<1024xi32>, memref<1024xi32>, memref<1024xi32>)
  return
}
