// obs.carry of several elements: each number's rank among the numbers of
// its class (its two low bits) before it, across tiles. Each tile counts
// its classes by one scan of four flags; the carry gives, class by class,
// how many numbers of that class the tiles before it hold: a look-back per
// element, as a onesweep radix sort's over its 256 digit counts.
// test/obs-run/carry-counts.test runs it.

// Tiles of 512 on 128 threads: one thread looks back for each class.
obs.kernel @rank_tile(%a: !obs.arr<512 x i32> {obs.absent = 0 : i32},
    %chain: !obs.arr<5 x i64> {obs.chain})
    -> !obs.arr<512 x i32> attributes {threads = 128} {
  // Each number as four flags, one per class, and their running sums.
  %flags = obs.map %a : !obs.arr<512 x i32> -> !obs.arr<512 x tuple<i32, i32, i32, i32>> {
  ^bb0(%x: i32):
    %three = arith.constant 3 : i32
    %k = arith.andi %x, %three : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %is0 = arith.cmpi eq, %k, %c0 : i32
    %is1 = arith.cmpi eq, %k, %c1 : i32
    %is2 = arith.cmpi eq, %k, %c2 : i32
    %is3 = arith.cmpi eq, %k, %three : i32
    %f0 = arith.extui %is0 : i1 to i32
    %f1 = arith.extui %is1 : i1 to i32
    %f2 = arith.extui %is2 : i1 to i32
    %f3 = arith.extui %is3 : i1 to i32
    obs.yield %f0, %f1, %f2, %f3 : i32, i32, i32, i32
  }
  %runs = obs.scan %flags : !obs.arr<512 x tuple<i32, i32, i32, i32>> {
  ^bb0(%a0: i32, %a1: i32, %a2: i32, %a3: i32, %b0: i32, %b1: i32, %b2: i32, %b3: i32):
    %s0 = arith.addi %a0, %b0 : i32
    %s1 = arith.addi %a1, %b1 : i32
    %s2 = arith.addi %a2, %b2 : i32
    %s3 = arith.addi %a3, %b3 : i32
    obs.yield %s0, %s1, %s2, %s3 : i32, i32, i32, i32
  }
  // The tile's count of each class, and each class's count in the tiles
  // before it.
  %counts = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%k: index):
    %last = arith.constant 511 : index
    %r:4 = obs.index %runs[%last] : !obs.arr<512 x tuple<i32, i32, i32, i32>>
    %kk = arith.index_cast %k : index to i32
    %pc1 = arith.constant 1 : i32
    %pc2 = arith.constant 2 : i32
    %pis1 = arith.cmpi eq, %kk, %pc1 : i32
    %pis2 = arith.cmpi eq, %kk, %pc2 : i32
    %phigh = arith.cmpi uge, %kk, %pc2 : i32
    %plo = arith.select %pis1, %r#1, %r#0 : i32
    %phi = arith.select %pis2, %r#2, %r#3 : i32
    %count = arith.select %phigh, %phi, %plo : i32
    obs.yield %count : i32
  }
  %before = obs.carry %counts combine(add) chain(%chain)
      : !obs.arr<4 x i32>, !obs.arr<5 x i64>
  // A number's rank: the numbers of its class before it in its tile, and
  // in the tiles before.
  %ranks = obs.generate : !obs.arr<512 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %x = obs.index %a[%i] : !obs.arr<512 x i32>
    %r:4 = obs.index %runs[%i] : !obs.arr<512 x tuple<i32, i32, i32, i32>>
    %b0 = obs.index %before[%c0] : !obs.arr<4 x i32>
    %b1 = obs.index %before[%c1] : !obs.arr<4 x i32>
    %b2 = obs.index %before[%c2] : !obs.arr<4 x i32>
    %b3 = obs.index %before[%c3] : !obs.arr<4 x i32>
    %three = arith.constant 3 : i32
    %k = arith.andi %x, %three : i32
    %pc1 = arith.constant 1 : i32
    %pc2 = arith.constant 2 : i32
    %pis1 = arith.cmpi eq, %k, %pc1 : i32
    %pis2 = arith.cmpi eq, %k, %pc2 : i32
    %phigh = arith.cmpi uge, %k, %pc2 : i32
    %plo = arith.select %pis1, %r#1, %r#0 : i32
    %phi = arith.select %pis2, %r#2, %r#3 : i32
    %inTile = arith.select %phigh, %phi, %plo : i32
    %qc1 = arith.constant 1 : i32
    %qc2 = arith.constant 2 : i32
    %qis1 = arith.cmpi eq, %k, %qc1 : i32
    %qis2 = arith.cmpi eq, %k, %qc2 : i32
    %qhigh = arith.cmpi uge, %k, %qc2 : i32
    %qlo = arith.select %qis1, %b1, %b0 : i32
    %qhi = arith.select %qis2, %b2, %b3 : i32
    %earlier = arith.select %qhigh, %qhi, %qlo : i32
    %one = arith.constant 1 : i32
    %own = arith.subi %inTile, %one : i32
    %rank = arith.addi %earlier, %own : i32
    obs.yield %rank : i32
  }
  obs.return %ranks : !obs.arr<512 x i32>
}

func.func @rank(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tile = arith.constant 512 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %tile : index
  %c4 = arith.constant 4 : index
  %elementWords = arith.muli %tiles, %c4 : index
  %words = arith.addi %elementWords, %c1 : index
  %chain = memref.alloc(%words) : memref<?xi64>
  obs.launch @rank_tile grid(%tiles) ins(%in, %chain : memref<?xi32>, memref<?xi64>) outs(%out : memref<?xi32>)
  memref.dealloc %chain : memref<?xi64>
  return
}

// Tiles of 16 on 2 threads: each thread looks back for two classes, one
// after the other.
obs.kernel @rank_narrow_tile(%a: !obs.arr<16 x i32> {obs.absent = 0 : i32},
    %chain: !obs.arr<5 x i64> {obs.chain})
    -> !obs.arr<16 x i32> attributes {threads = 2} {
  // Each number as four flags, one per class, and their running sums.
  %flags = obs.map %a : !obs.arr<16 x i32> -> !obs.arr<16 x tuple<i32, i32, i32, i32>> {
  ^bb0(%x: i32):
    %three = arith.constant 3 : i32
    %k = arith.andi %x, %three : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %is0 = arith.cmpi eq, %k, %c0 : i32
    %is1 = arith.cmpi eq, %k, %c1 : i32
    %is2 = arith.cmpi eq, %k, %c2 : i32
    %is3 = arith.cmpi eq, %k, %three : i32
    %f0 = arith.extui %is0 : i1 to i32
    %f1 = arith.extui %is1 : i1 to i32
    %f2 = arith.extui %is2 : i1 to i32
    %f3 = arith.extui %is3 : i1 to i32
    obs.yield %f0, %f1, %f2, %f3 : i32, i32, i32, i32
  }
  %runs = obs.scan %flags : !obs.arr<16 x tuple<i32, i32, i32, i32>> {
  ^bb0(%a0: i32, %a1: i32, %a2: i32, %a3: i32, %b0: i32, %b1: i32, %b2: i32, %b3: i32):
    %s0 = arith.addi %a0, %b0 : i32
    %s1 = arith.addi %a1, %b1 : i32
    %s2 = arith.addi %a2, %b2 : i32
    %s3 = arith.addi %a3, %b3 : i32
    obs.yield %s0, %s1, %s2, %s3 : i32, i32, i32, i32
  }
  // The tile's count of each class, and each class's count in the tiles
  // before it.
  %counts = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%k: index):
    %last = arith.constant 15 : index
    %r:4 = obs.index %runs[%last] : !obs.arr<16 x tuple<i32, i32, i32, i32>>
    %kk = arith.index_cast %k : index to i32
    %pc1 = arith.constant 1 : i32
    %pc2 = arith.constant 2 : i32
    %pis1 = arith.cmpi eq, %kk, %pc1 : i32
    %pis2 = arith.cmpi eq, %kk, %pc2 : i32
    %phigh = arith.cmpi uge, %kk, %pc2 : i32
    %plo = arith.select %pis1, %r#1, %r#0 : i32
    %phi = arith.select %pis2, %r#2, %r#3 : i32
    %count = arith.select %phigh, %phi, %plo : i32
    obs.yield %count : i32
  }
  %before = obs.carry %counts combine(add) chain(%chain)
      : !obs.arr<4 x i32>, !obs.arr<5 x i64>
  // A number's rank: the numbers of its class before it in its tile, and
  // in the tiles before.
  %ranks = obs.generate : !obs.arr<16 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %x = obs.index %a[%i] : !obs.arr<16 x i32>
    %r:4 = obs.index %runs[%i] : !obs.arr<16 x tuple<i32, i32, i32, i32>>
    %b0 = obs.index %before[%c0] : !obs.arr<4 x i32>
    %b1 = obs.index %before[%c1] : !obs.arr<4 x i32>
    %b2 = obs.index %before[%c2] : !obs.arr<4 x i32>
    %b3 = obs.index %before[%c3] : !obs.arr<4 x i32>
    %three = arith.constant 3 : i32
    %k = arith.andi %x, %three : i32
    %pc1 = arith.constant 1 : i32
    %pc2 = arith.constant 2 : i32
    %pis1 = arith.cmpi eq, %k, %pc1 : i32
    %pis2 = arith.cmpi eq, %k, %pc2 : i32
    %phigh = arith.cmpi uge, %k, %pc2 : i32
    %plo = arith.select %pis1, %r#1, %r#0 : i32
    %phi = arith.select %pis2, %r#2, %r#3 : i32
    %inTile = arith.select %phigh, %phi, %plo : i32
    %qc1 = arith.constant 1 : i32
    %qc2 = arith.constant 2 : i32
    %qis1 = arith.cmpi eq, %k, %qc1 : i32
    %qis2 = arith.cmpi eq, %k, %qc2 : i32
    %qhigh = arith.cmpi uge, %k, %qc2 : i32
    %qlo = arith.select %qis1, %b1, %b0 : i32
    %qhi = arith.select %qis2, %b2, %b3 : i32
    %earlier = arith.select %qhigh, %qhi, %qlo : i32
    %one = arith.constant 1 : i32
    %own = arith.subi %inTile, %one : i32
    %rank = arith.addi %earlier, %own : i32
    obs.yield %rank : i32
  }
  obs.return %ranks : !obs.arr<16 x i32>
}

func.func @rank_narrow(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tile = arith.constant 16 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %tile : index
  %c4 = arith.constant 4 : index
  %elementWords = arith.muli %tiles, %c4 : index
  %words = arith.addi %elementWords, %c1 : index
  %chain = memref.alloc(%words) : memref<?xi64>
  obs.launch @rank_narrow_tile grid(%tiles) ins(%in, %chain : memref<?xi32>, memref<?xi64>) outs(%out : memref<?xi32>)
  memref.dealloc %chain : memref<?xi64>
  return
}

// A chain of a word per tile plus one, enough for a carry of one element
// but not of four: obs-check-launches' premise stops the run before the
// launch, where the look-back would read and write past the chain.

func.func @rank_short_chain(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tile = arith.constant 512 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %tile : index
  %words = arith.addi %tiles, %c1 : index
  %chain = memref.alloc(%words) : memref<?xi64>
  obs.launch @rank_tile grid(%tiles) ins(%in, %chain : memref<?xi32>, memref<?xi64>) outs(%out : memref<?xi32>)
  memref.dealloc %chain : memref<?xi64>
  return
}
