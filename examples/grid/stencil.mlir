// A 3-point stencil over any length, the ends clamped:
//
//   out[i] = (x[i-1] + x[i] + x[i+1]) / 3,   x[-1] = x[0], x[n] = x[n-1].
//
// Each block of 256 threads computes a tile of 256 outputs. Its tile's two
// neighbours lie in other blocks' tiles, so the kernel reads the input as a
// global argument (`obs.global`: every block sees the whole array, and its
// extent is the memref's length) at places it computes from its block and
// clamps to [0, n); a place outside would read the absent value, 0, which
// pads with zeros instead. The launch proof follows those places in every
// block: no block writes what another reads.
//
//   obs-run stencil.mlir --entry=stencil3 --target=cpu --input=NUMBERS.txt

obs.kernel @stencil3_tile(%x: !obs.arr<2147483647 x f32> {obs.absent = 0.0 : f32, obs.global}) -> !obs.arr<256 x f32> attributes {threads = 256} {
  %n = obs.extent %x : !obs.arr<2147483647 x f32>
  %out = obs.generate : !obs.arr<256 x f32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %block = obs.block_id
    %base = arith.muli %block, %c256 : index
    %here = arith.addi %base, %i : index
    // The last tile's threads past the end compute nothing that is kept
    // (the launch writes the output's n elements); they read the last
    // element, inside the input, like its own thread.
    %last = arith.subi %n, %c1 : index
    %centre_place = arith.minui %here, %last : index
    %at_start = arith.cmpi eq, %centre_place, %c0 : index
    %before = arith.subi %centre_place, %c1 : index
    %left_place = arith.select %at_start, %c0, %before : index
    %after = arith.addi %centre_place, %c1 : index
    %right_place = arith.minui %after, %last : index
    %left = obs.index %x[%left_place] : !obs.arr<2147483647 x f32>
    %centre = obs.index %x[%centre_place] : !obs.arr<2147483647 x f32>
    %right = obs.index %x[%right_place] : !obs.arr<2147483647 x f32>
    %three = arith.constant 3.0 : f32
    %pair = arith.addf %left, %centre : f32
    %sum = arith.addf %pair, %right : f32
    %mean = arith.divf %sum, %three : f32
    obs.yield %mean : f32
  }
  obs.return %out : !obs.arr<256 x f32>
}

func.func @stencil3(%x: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %tiles = arith.ceildivui %n, %c256 : index
  obs.launch @stencil3_tile grid(%tiles) ins(%x : memref<?xf32>) outs(%out : memref<?xf32>)
  return
}
