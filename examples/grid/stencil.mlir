// A 3-point stencil over any length:
//
//   out[i] = (x[i-1] + x[i] + x[i+1]) / 3,
//
// with the places past the ends read as each entry's boundary says:
//
//   @stencil3        clamped: x[-1] = x[0], x[n] = x[n-1];
//   @stencil3_zero   padded with zeros: x[-1] = x[n] = 0;
//   @stencil3_wrap   periodic: x[-1] = x[n-1], x[n] = x[0].
//
// Each block of 256 threads computes a tile of 256 outputs from its tile of
// the input and one place on each side, a halo (`obs.halo`): the kernel's
// argument is 258 places, element j of block b being place 256 b + j - 1.
// The launch passes the input whole to every block (--obs-expand-device
// makes the halo an `obs.global` argument, read where the halo says), so
// the launch proof follows every place each block reads: no block writes
// what another reads.
//
//   obs-run stencil.mlir --entry=stencil3 --target=cpu --input=NUMBERS.txt

obs.kernel @mean3_clamp(%x: !obs.arr<258 x f32> {obs.halo = #obs.halo<1, clamp>, obs.absent = 0.0 : f32}) -> !obs.arr<256 x f32> attributes {threads = 256} {
  %out = obs.generate : !obs.arr<256 x f32> {
  ^bb0(%i: index):
    // Output i is the mean of elements i, i + 1 and i + 2 of the haloed
    // tile: its place's left neighbour, itself and its right neighbour.
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %centre_place = arith.addi %i, %c1 : index
    %right_place = arith.addi %i, %c2 : index
    %left = obs.index %x[%i] : !obs.arr<258 x f32>
    %centre = obs.index %x[%centre_place] : !obs.arr<258 x f32>
    %right = obs.index %x[%right_place] : !obs.arr<258 x f32>
    %three = arith.constant 3.0 : f32
    %pair = arith.addf %left, %centre : f32
    %sum = arith.addf %pair, %right : f32
    %mean = arith.divf %sum, %three : f32
    obs.yield %mean : f32
  }
  obs.return %out : !obs.arr<256 x f32>
}

// The same kernel with the other boundaries.
obs.kernel @mean3_zero(%x: !obs.arr<258 x f32> {obs.halo = #obs.halo<1, zero>, obs.absent = 0.0 : f32}) -> !obs.arr<256 x f32> attributes {threads = 256} {
  %out = obs.generate : !obs.arr<256 x f32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %centre_place = arith.addi %i, %c1 : index
    %right_place = arith.addi %i, %c2 : index
    %left = obs.index %x[%i] : !obs.arr<258 x f32>
    %centre = obs.index %x[%centre_place] : !obs.arr<258 x f32>
    %right = obs.index %x[%right_place] : !obs.arr<258 x f32>
    %three = arith.constant 3.0 : f32
    %pair = arith.addf %left, %centre : f32
    %sum = arith.addf %pair, %right : f32
    %mean = arith.divf %sum, %three : f32
    obs.yield %mean : f32
  }
  obs.return %out : !obs.arr<256 x f32>
}

obs.kernel @mean3_wrap(%x: !obs.arr<258 x f32> {obs.halo = #obs.halo<1, wrap>, obs.absent = 0.0 : f32}) -> !obs.arr<256 x f32> attributes {threads = 256} {
  %out = obs.generate : !obs.arr<256 x f32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %centre_place = arith.addi %i, %c1 : index
    %right_place = arith.addi %i, %c2 : index
    %left = obs.index %x[%i] : !obs.arr<258 x f32>
    %centre = obs.index %x[%centre_place] : !obs.arr<258 x f32>
    %right = obs.index %x[%right_place] : !obs.arr<258 x f32>
    %three = arith.constant 3.0 : f32
    %pair = arith.addf %left, %centre : f32
    %sum = arith.addf %pair, %right : f32
    %mean = arith.divf %sum, %three : f32
    obs.yield %mean : f32
  }
  obs.return %out : !obs.arr<256 x f32>
}

// One block per tile of 256 outputs; the last tile's places past the end
// are neither read (the halo's boundary applies) nor written.
func.func @stencil3(%x: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %tiles = arith.ceildivui %n, %c256 : index
  obs.launch @mean3_clamp grid(%tiles) ins(%x : memref<?xf32>) outs(%out : memref<?xf32>)
  return
}

func.func @stencil3_zero(%x: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %tiles = arith.ceildivui %n, %c256 : index
  obs.launch @mean3_zero grid(%tiles) ins(%x : memref<?xf32>) outs(%out : memref<?xf32>)
  return
}

func.func @stencil3_wrap(%x: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %tiles = arith.ceildivui %n, %c256 : index
  obs.launch @mean3_wrap grid(%tiles) ins(%x : memref<?xf32>) outs(%out : memref<?xf32>)
  return
}
