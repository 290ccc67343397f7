// Launches with obs.global arguments, for test/obs-run/global-argument.test:
// arrays every block reads whole, at places computed from the block or
// from data.

// out = in reversed, for any length: block b's element i is the whole
// input's element n - 1 - (256 b + i), where n is the global argument's
// extent (its memref's length, in every block).
obs.kernel @reverse_tile(%in: !obs.arr<2147483647 x i32> {obs.absent = 0 : i32, obs.global}) -> !obs.arr<256 x i32> attributes {threads = 256} {
  %n = obs.extent %in : !obs.arr<2147483647 x i32>
  %out = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%i: index):
    %block = obs.block_id
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %base = arith.muli %block, %c256 : index
    %g = arith.addi %base, %i : index
    %last = arith.subi %n, %c1 : index
    %from = arith.subi %last, %g : index
    %x = obs.index %in[%from] : !obs.arr<2147483647 x i32>
    obs.yield %x : i32
  }
  obs.return %out : !obs.arr<256 x i32>
}

func.func @reverse(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %c256 : index
  obs.launch @reverse_tile grid(%tiles) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// out[g] = table[at[g]]: a gather at places that are data. A place past
// the table's end reads the table's absent value, -7.
obs.kernel @gather_tile(%table: !obs.arr<2147483647 x i32> {obs.absent = -7 : i32, obs.global}, %at: !obs.arr<128 x i32> {obs.absent = 0 : i32}) -> !obs.arr<128 x i32> attributes {threads = 64} {
  %out = obs.generate : !obs.arr<128 x i32> {
  ^bb0(%i: index):
    %p = obs.index %at[%i] : !obs.arr<128 x i32>
    %q = arith.index_castui %p : i32 to index
    %x = obs.index %table[%q] : !obs.arr<2147483647 x i32>
    obs.yield %x : i32
  }
  obs.return %out : !obs.arr<128 x i32>
}

func.func @gather(%at: memref<?xi32>, %table: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %n = memref.dim %at, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %c128 : index
  obs.launch @gather_tile grid(%tiles) ins(%table, %at : memref<?xi32>, memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// The same with static sizes: a table of 64 read whole by four blocks.
obs.kernel @gather_static(%table: !obs.arr<64 x i32> {obs.global}, %at: !obs.arr<32 x i32>) -> !obs.arr<32 x i32> attributes {threads = 32} {
  %out = obs.generate : !obs.arr<32 x i32> {
  ^bb0(%i: index):
    %p = obs.index %at[%i] : !obs.arr<32 x i32>
    %q = arith.index_castui %p : i32 to index
    %x = obs.index %table[%q] : !obs.arr<64 x i32>
    obs.yield %x : i32
  }
  obs.return %out : !obs.arr<32 x i32>
}

func.func @gather_four(%at: memref<128xi32>, %table: memref<64xi32>, %out: memref<128xi32>) {
  obs.launch @gather_static grid(4) ins(%table, %at : memref<64xi32>, memref<128xi32>) outs(%out : memref<128xi32>)
  return
}

// A global argument of pairs whose two memrefs differ in length: each is
// read up to its own end (a place past it reads that scalar's absent value,
// -2), as every target reads it. out[g] = second[at[g]].
obs.kernel @second_tile(%pairs: !obs.arr<2147483647 x tuple<i32, i32>> {obs.absent = [-1 : i32, -2 : i32], obs.global}, %at: !obs.arr<64 x i32> {obs.absent = 0 : i32}) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %out = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %p = obs.index %at[%i] : !obs.arr<64 x i32>
    %q = arith.index_castui %p : i32 to index
    %first, %second = obs.index %pairs[%q] : !obs.arr<2147483647 x tuple<i32, i32>>
    obs.yield %second : i32
  }
  obs.return %out : !obs.arr<64 x i32>
}

func.func @second(%at: memref<?xi32>, %first: memref<?xi32>, %second: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %at, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %c64 : index
  obs.launch @second_tile grid(%tiles) ins(%first, %second, %at : memref<?xi32>, memref<?xi32>, memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// A global argument of a length shorter than the nominal 2^31 - 1 at
// run-time sizes: its length bounds it, as a global scatter's does. Index
// 20 of 16 read place 20 of the 32-element memref on ref and cpu.
obs.kernel @gather_sixteen_tile(%table: !obs.arr<16 x i32> {obs.global, obs.absent = -7 : i32}, %at: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %out = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %p = obs.index %at[%i] : !obs.arr<4 x i32>
    %q = arith.index_cast %p : i32 to index
    %x = obs.index %table[%q] : !obs.arr<16 x i32>
    obs.yield %x : i32
  }
  obs.return %out : !obs.arr<4 x i32>
}
func.func @gather_sixteen(%at: memref<?xi32>, %table: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %at, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %c4 : index
  obs.launch @gather_sixteen_tile grid(%tiles) ins(%table, %at : memref<?xi32>, memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// A global argument of rows (2-D): each block of 4 rows sums every row
// with its neighbours above and below (clamped at the grid's edges), for
// any number of rows.
obs.kernel @vertical_sums(%u: !obs.arr<100000 x !obs.arr<5 x i32>> {obs.global, obs.absent = 0 : i32}) -> !obs.arr<4 x !obs.arr<5 x i32>> attributes {threads = 20} {
  %o = obs.generate : !obs.arr<4 x !obs.arr<5 x i32>> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %b = obs.block_id
    %first = arith.muli %b, %c4 : index
    %row = arith.addi %first, %i : index
    %n = obs.extent %u : !obs.arr<100000 x !obs.arr<5 x i32>>
    %last = arith.subi %n, %c1 : index
    %top = arith.cmpi eq, %row, %c0 : index
    %above0 = arith.subi %row, %c1 : index
    %above = arith.select %top, %c0, %above0 : index
    %below0 = arith.addi %row, %c1 : index
    %bottom = arith.cmpi uge, %below0, %n : index
    %below = arith.select %bottom, %last, %below0 : index
    %up = obs.index %u[%above] : !obs.arr<100000 x !obs.arr<5 x i32>>
    %mid = obs.index %u[%row] : !obs.arr<100000 x !obs.arr<5 x i32>>
    %dn = obs.index %u[%below] : !obs.arr<100000 x !obs.arr<5 x i32>>
    %sums = obs.generate : !obs.arr<5 x i32> {
    ^bb0(%j: index):
      %a = obs.index %up[%j] : !obs.arr<5 x i32>
      %m = obs.index %mid[%j] : !obs.arr<5 x i32>
      %d = obs.index %dn[%j] : !obs.arr<5 x i32>
      %s = arith.addi %a, %m : i32
      %t = arith.addi %s, %d : i32
      obs.yield %t : i32
    }
    obs.yield %sums : !obs.arr<5 x i32>
  }
  obs.return %o : !obs.arr<4 x !obs.arr<5 x i32>>
}
func.func @sum_rows(%u: memref<?x5xi32>, %out: memref<?x5xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %u, %c0 : memref<?x5xi32>
  %g = arith.ceildivui %n, %c4 : index
  obs.launch @vertical_sums grid(%g) ins(%u : memref<?x5xi32>) outs(%out : memref<?x5xi32>)
  return
}
