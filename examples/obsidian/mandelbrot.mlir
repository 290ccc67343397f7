// Later Obsidian's Mandelbrot fractal: the escape time of each pixel of a
// 512 x 512 image, a block per row. Pixel (px, py) stands for
// c = x + i y with x = -2 + 3 (px + 0.5) / 512 and y = -1.5 + 3 (py + 0.5) / 512;
// z <- z^2 + c from 0 while |z|^2 <= 4, at most 255 times, and the pixel's
// value is the number of iterations done.
//
//   obs-run examples/obsidian/mandelbrot.mlir --entry=mandelbrot \
//       --target=cpu --output=image.txt
//
// The escape loop is an scf.while whose trip count depends on the pixel:
// the proof cannot run it, but it touches nothing another thread can see
// (no shared memory, no barrier, no store), so any number of iterations
// leaves every access of the kernel as it is (docs/Rationale.md,
// "Loops whose trip count depends on data"). obs.block_id gives the row.

// One row: 512 pixels on 256 threads.
obs.kernel @row() -> !obs.arr<512 x i32> attributes {threads = 256} {
  %block = obs.block_id
  %pixels = obs.generate : !obs.arr<512 x i32> {
  ^bb0(%px: index):
    %half = arith.constant 0.5 : f32
    %scale = arith.constant 0.005859375 : f32  // 3 / 512
    %left = arith.constant -2.0 : f32
    %top = arith.constant -1.5 : f32
    %pxi = arith.index_cast %px : index to i32
    %pyi = arith.index_cast %block : index to i32
    %pxf = arith.sitofp %pxi : i32 to f32
    %pyf = arith.sitofp %pyi : i32 to f32
    %xc = arith.addf %pxf, %half : f32
    %yc = arith.addf %pyf, %half : f32
    %xs = arith.mulf %xc, %scale : f32
    %ys = arith.mulf %yc, %scale : f32
    %cx = arith.addf %left, %xs : f32
    %cy = arith.addf %top, %ys : f32
    %zero = arith.constant 0.0 : f32
    %none = arith.constant 0 : i32
    %escape:3 = scf.while (%x = %zero, %y = %zero, %i = %none) : (f32, f32, i32) -> (f32, f32, i32) {
      %four = arith.constant 4.0 : f32
      %most = arith.constant 255 : i32
      %xx = arith.mulf %x, %x : f32
      %yy = arith.mulf %y, %y : f32
      %norm = arith.addf %xx, %yy : f32
      %inside = arith.cmpf ole, %norm, %four : f32
      %more = arith.cmpi slt, %i, %most : i32
      %go = arith.andi %inside, %more : i1
      scf.condition(%go) %x, %y, %i : f32, f32, i32
    } do {
    ^bb0(%x: f32, %y: f32, %i: i32):
      %two = arith.constant 2.0 : f32
      %one = arith.constant 1 : i32
      %xx = arith.mulf %x, %x : f32
      %yy = arith.mulf %y, %y : f32
      %xy = arith.mulf %x, %y : f32
      %re = arith.subf %xx, %yy : f32
      %xn = arith.addf %re, %cx : f32
      %im = arith.mulf %two, %xy : f32
      %yn = arith.addf %im, %cy : f32
      %next = arith.addi %i, %one : i32
      scf.yield %xn, %yn, %next : f32, f32, i32
    }
    obs.yield %escape#2 : i32
  }
  obs.return %pixels : !obs.arr<512 x i32>
}

// The image, row-major: block py writes row py.
func.func @mandelbrot(%image: memref<512x512xi32>) {
  %rows = memref.collapse_shape %image [[0, 1]] : memref<512x512xi32> into memref<262144xi32>
  obs.launch @row grid(512) outs(%rows : memref<262144xi32>)
  return
}
