// Single-pass scans by obs.carry (decoupled look-back): each block scans
// its tile of 512, the carry gives what the tiles before it combine to
// (the identity in the first), and every element takes it in on its left.
// test/obs-run/carry.test runs them.

obs.kernel @sum_tile(%a: !obs.arr<512 x i32> {obs.absent = 0 : i32},
                     %chain: !obs.arr<2 x i64> {obs.chain})
    -> !obs.arr<512 x i32> attributes {threads = 128} {
  %s = obs.scan %a : !obs.arr<512 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  %total = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    %last = arith.constant 511 : index
    %v = obs.index %s[%last] : !obs.arr<512 x i32>
    obs.yield %v : i32
  }
  %before = obs.carry %total combine(add) chain(%chain)
      : !obs.arr<1 x i32>, !obs.arr<2 x i64>
  %out = obs.generate : !obs.arr<512 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %x = obs.index %s[%i] : !obs.arr<512 x i32>
    %c = obs.index %before[%c0] : !obs.arr<1 x i32>
    %y = arith.addi %c, %x : i32
    obs.yield %y : i32
  }
  obs.return %out : !obs.arr<512 x i32>
}

func.func @running_sum(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tile = arith.constant 512 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %tile : index
  %words = arith.addi %tiles, %c1 : index
  %chain = memref.alloc(%words) : memref<?xi64>
  obs.launch @sum_tile grid(%tiles) ins(%in, %chain : memref<?xi32>, memref<?xi64>) outs(%out : memref<?xi32>)
  memref.dealloc %chain : memref<?xi64>
  return
}

// The running maximum of i16s: a combine that is not a sum, on values
// narrower than a chain word's 32 bits, negative ones among them.
obs.kernel @max_tile(%a: !obs.arr<512 x i16> {obs.absent = -32768 : i16},
                     %chain: !obs.arr<2 x i64> {obs.chain})
    -> !obs.arr<512 x i16> attributes {threads = 128} {
  %s = obs.scan %a : !obs.arr<512 x i16> {
  ^bb0(%x: i16, %y: i16):
    %z = arith.maxsi %x, %y : i16
    obs.yield %z : i16
  }
  %total = obs.generate : !obs.arr<1 x i16> {
  ^bb0(%i: index):
    %last = arith.constant 511 : index
    %v = obs.index %s[%last] : !obs.arr<512 x i16>
    obs.yield %v : i16
  }
  %before = obs.carry %total combine(max) chain(%chain)
      : !obs.arr<1 x i16>, !obs.arr<2 x i64>
  %out = obs.generate : !obs.arr<512 x i16> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %x = obs.index %s[%i] : !obs.arr<512 x i16>
    %c = obs.index %before[%c0] : !obs.arr<1 x i16>
    %y = arith.maxsi %c, %x : i16
    obs.yield %y : i16
  }
  obs.return %out : !obs.arr<512 x i16>
}

func.func @running_max(%in: memref<?xi16>, %out: memref<?xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tile = arith.constant 512 : index
  %n = memref.dim %in, %c0 : memref<?xi16>
  %tiles = arith.ceildivui %n, %tile : index
  %words = arith.addi %tiles, %c1 : index
  %chain = memref.alloc(%words) : memref<?xi64>
  obs.launch @max_tile grid(%tiles) ins(%in, %chain : memref<?xi16>, memref<?xi64>) outs(%out : memref<?xi16>)
  memref.dealloc %chain : memref<?xi64>
  return
}
