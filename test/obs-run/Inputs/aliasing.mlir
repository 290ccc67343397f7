// Launches over memrefs that alias, which the launch proof accepts
// (test/obs-run/launch-aliasing.test, which also has the ones it rejects).

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

obs.kernel @copy64(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  obs.return %a : !obs.arr<64 x i32>
}

// Reverses 64 elements across two warps, in place: every read is before
// the block barrier, every write after it.
obs.kernel @rev64(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// out = in + 1, the increment in place in out.
func.func @inc_in_place(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  obs.launch @inc grid(2) ins(%out : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// out = each 64-element chunk of in reversed, in place in out.
func.func @rev_in_place(%in: memref<256xi32>, %out: memref<256xi32>) {
  obs.launch @copy64 grid(4) ins(%in : memref<256xi32>) outs(%out : memref<256xi32>)
  obs.launch @rev64 grid(4) ins(%out : memref<256xi32>) outs(%out : memref<256xi32>)
  return
}

// out = in, through two views of one byte buffer that do not overlap.
func.func @disjoint_views(%in: memref<8xi32>, %out: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %bytes = memref.alloc() : memref<64xi8>
  %first = memref.view %bytes[%c0][] : memref<64xi8> to memref<8xi32>
  %second = memref.view %bytes[%c32][] : memref<64xi8> to memref<8xi32>
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%first : memref<8xi32>)
  obs.launch @copy grid(2) ins(%first : memref<8xi32>) outs(%second : memref<8xi32>)
  obs.launch @copy grid(2) ins(%second : memref<8xi32>) outs(%out : memref<8xi32>)
  memref.dealloc %bytes : memref<64xi8>
  return
}

// out = in with the blocks and their elements reversed: a permutation.
func.func @reversed(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (7 - b * 4 - i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

obs.kernel @split(%a: !obs.arr<2 x i32>, %b: !obs.arr<2 x i32>) -> (!obs.arr<2 x i32>, !obs.arr<2 x i32>) {
  obs.return %a, %b : !obs.arr<2 x i32>, !obs.arr<2 x i32>
}

// out = in through two views of out that partition it: the first half of
// each block's chunk through one, the second through the other.
func.func @partition(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @split grid(2) ins(%in, %in : memref<8xi32>, memref<8xi32>) outs(%out, %out : memref<8xi32>, memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i + 2)>,
               affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i + 2)>]
  return
}

obs.kernel @rev4(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %s = obs.sync %a : !obs.arr<4 x i32>
  %r = obs.rev %s : !obs.arr<4 x i32>
  obs.return %r : !obs.arr<4 x i32>
}

// out = in with each 4-element chunk reversed, in place with layouts: each
// block reads its chunk before its barrier and writes it after.
func.func @rev_in_place_laid_out(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  obs.launch @rev4 grid(2) ins(%out : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

func.func private @copy_between(%a: memref<8xi32>, %b: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%a : memref<8xi32>) outs(%b : memref<8xi32>)
  return
}

// out = in through a call that passes distinct allocations to a function
// that launches.
func.func @calls(%in: memref<8xi32>, %out: memref<8xi32>) {
  %tmp = memref.alloc() : memref<8xi32>
  func.call @copy_between(%in, %tmp) : (memref<8xi32>, memref<8xi32>) -> ()
  func.call @copy_between(%tmp, %out) : (memref<8xi32>, memref<8xi32>) -> ()
  memref.dealloc %tmp : memref<8xi32>
  return
}
