// A 1024 x 1024 transpose through 32 x 32 tiles in shared memory:
//
//   out[i][j] = in[j][i].
//
// The launch tiles both matrices over a grid of 32 x 32 blocks
// (`grid(32, 32)`): block (r, c) reads tile (r, c) of the input and writes
// tile (c, r) of the output, as its layouts say. Its kernel sees only its
// tile, an array of 32 rows of 32: it stages the tile in shared memory
// (`obs.sync`), then reads it back by columns. The block is 256 threads,
// 8 warps (the 32 x 8 block of the classic CUDA transpose), and the tile
// is dealt out by leaf: thread t copies elements t, t + 256, ... in
// row-major order, so lane l of warp w copies column l of rows w, w + 8,
// ... and each warp access of global memory reads or writes 32
// consecutive elements of a row: one 128-byte line. Reading the staged
// tile back, lane l reads row l: a warp reads a column of the tile, which
// would meet one bank 32 times; obs-plan-shared sees that in the
// simulation and pads each row of the buffer by one element, so the
// column's 32 elements lie in 32 banks (`--obs-report-cost` shows every
// shared access at one wavefront).
//
// The launch proof compares the places each block reads and writes in
// the two matrices: no block writes what another reads or writes.
//
//   obs-run transpose.mlir --entry=transpose --target=cpu --input=MATRIX.txt
//
// MATRIX.txt holds 1,048,576 numbers, one a line, row after row.

obs.kernel private @transpose_tile(%tile: !obs.arr<32 x !obs.arr<32 x i32>>)
    -> !obs.arr<32 x !obs.arr<32 x i32>> attributes {threads = 256} {
  %staged = obs.sync %tile : !obs.arr<32 x !obs.arr<32 x i32>>
  %transposed = obs.generate : !obs.arr<32 x !obs.arr<32 x i32>> {
  ^bb0(%i: index):
    %row = obs.generate : !obs.arr<32 x i32> {
    ^bb0(%j: index):
      // Element (i, j) of the transposed tile is element (j, i) of the
      // staged one: row i reads column i.
      %source_row = obs.index %staged[%j] : !obs.arr<32 x !obs.arr<32 x i32>>
      %value = obs.index %source_row[%i] : !obs.arr<32 x i32>
      obs.yield %value : i32
    }
    obs.yield %row : !obs.arr<32 x i32>
  }
  obs.return %transposed : !obs.arr<32 x !obs.arr<32 x i32>>
}

func.func @transpose(%in: memref<1024x1024xi32>, %out: memref<1024x1024xi32>) {
  obs.launch @transpose_tile grid(32, 32)
      ins(%in : memref<1024x1024xi32>) outs(%out : memref<1024x1024xi32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c, r)>]
  return
}
