// Reads by obs.index near and past the ends of their arrays, for
// test/obs-run/bounds.test.

// Element i reads x[i + 1]: thread 63 reads index 64, known from the thread
// ids alone. The proof rejects it on every target.
obs.kernel @next(%x: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %r = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %j = arith.addi %i, %c1 : index
    %v = obs.index %x[%j] : !obs.arr<64 x i32>
    obs.yield %v : i32
  }
  %s = obs.sync %r : !obs.arr<64 x i32>
  obs.return %s : !obs.arr<64 x i32>
}

// The stencil a new user writes first: x[i - 1] + x[i] + x[i + 1] of the
// block's chunk. Thread 0 reads index -1 of it.
obs.kernel @stencil(%x: !obs.arr<256 x f32> {obs.absent = 0.0 : f32}) -> !obs.arr<256 x f32> attributes {threads = 256} {
  %r = obs.generate : !obs.arr<256 x f32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %l = arith.subi %i, %c1 : index
    %h = arith.addi %i, %c1 : index
    %a = obs.index %x[%l] : !obs.arr<256 x f32>
    %b = obs.index %x[%i] : !obs.arr<256 x f32>
    %c = obs.index %x[%h] : !obs.arr<256 x f32>
    %s1 = arith.addf %a, %b : f32
    %s2 = arith.addf %s1, %c : f32
    obs.yield %s2 : f32
  }
  obs.return %r : !obs.arr<256 x f32>
}

func.func @stencil_blocks(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %g = arith.ceildivui %n, %c256 : index
  obs.launch @stencil grid(%g) ins(%x : memref<?xf32>) outs(%y : memref<?xf32>)
  return
}

// The same stencil with its ends clamped inside the chunk: safe, kept.
obs.kernel @clamped(%x: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %r = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %first = arith.cmpi eq, %i, %c0 : index
    %last = arith.cmpi eq, %i, %c63 : index
    %im1 = arith.subi %i, %c1 : index
    %ip1 = arith.addi %i, %c1 : index
    %l = arith.select %first, %c0, %im1 : index
    %h = arith.select %last, %c63, %ip1 : index
    %a = obs.index %x[%l] : !obs.arr<64 x i32>
    %b = obs.index %x[%i] : !obs.arr<64 x i32>
    %c = obs.index %x[%h] : !obs.arr<64 x i32>
    %s1 = arith.addi %a, %b : i32
    %s2 = arith.addi %s1, %c : i32
    obs.yield %s2 : i32
  }
  %s = obs.sync %r : !obs.arr<64 x i32>
  obs.return %s : !obs.arr<64 x i32>
}

// A gather: element i is x[p[i]], its place from data. The ref and cpu
// targets check each place as they run.
obs.kernel @gather(%x: !obs.arr<64 x i32>, %p: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %r = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %q = obs.index %p[%i] : !obs.arr<64 x i32>
    %j = arith.index_cast %q : i32 to index
    %v = obs.index %x[%j] : !obs.arr<64 x i32>
    obs.yield %v : i32
  }
  %s = obs.sync %r : !obs.arr<64 x i32>
  obs.return %s : !obs.arr<64 x i32>
}

// The gather over two blocks: a place out of range names its block.
func.func @gather_blocks(%x: memref<128xi32>, %p: memref<128xi32>, %y: memref<128xi32>) {
  obs.launch @gather grid(2) ins(%x, %p : memref<128xi32>, memref<128xi32>) outs(%y : memref<128xi32>)
  return
}

// x[i + 1] where x[i] is positive: past the end in thread 63 only where
// the data says so, which the proof cannot know. Checked as it runs.
obs.kernel @next_if_positive(%x: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %r = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %v = obs.index %x[%i] : !obs.arr<64 x i32>
    %positive = arith.cmpi sgt, %v, %zero : i32
    %w = scf.if %positive -> (i32) {
      %j = arith.addi %i, %c1 : index
      %n = obs.index %x[%j] : !obs.arr<64 x i32>
      scf.yield %n : i32
    } else {
      scf.yield %v : i32
    }
    obs.yield %w : i32
  }
  %s = obs.sync %r : !obs.arr<64 x i32>
  obs.return %s : !obs.arr<64 x i32>
}

// Each block reads its chunk at i + block: past the end in every block
// but the first, which depends on the block, so it is checked as it runs,
// naming the block.
obs.kernel @shifted(%x: !obs.arr<16 x i32>) -> !obs.arr<16 x i32> attributes {threads = 16} {
  %b = obs.block_id
  %r = obs.generate : !obs.arr<16 x i32> {
  ^bb0(%i: index):
    %j = arith.addi %i, %b : index
    %v = obs.index %x[%j] : !obs.arr<16 x i32>
    obs.yield %v : i32
  }
  obs.return %r : !obs.arr<16 x i32>
}

func.func @shifted_blocks(%x: memref<64xi32>, %y: memref<64xi32>) {
  obs.launch @shifted grid(4) ins(%x : memref<64xi32>) outs(%y : memref<64xi32>)
  return
}

// Element i reads h[8 rem i], h the first half of x: obs defines 8 rem 0 as
// 8, outside h (an index law of the canonicalizer took the remainder for
// at most 6, and read x[8] on cpu and cuda).
obs.kernel @remainder_by_zero(%x: !obs.arr<16 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %a, %b = obs.halve %x : !obs.arr<16 x i32>
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c8 = arith.constant 8 : index
    %j = arith.remui %c8, %i : index
    %v = obs.index %a[%j] : !obs.arr<8 x i32>
    obs.yield %v : i32
  }
  %s = obs.sync %r : !obs.arr<8 x i32>
  obs.return %s : !obs.arr<8 x i32>
}
