// Seed 003 names serial inner loops as the bottleneck of its grid models:
// a recurrence along one axis, x[i] = a[i] * x[i-1] + b[i], can only run
// row by row as a loop. It is also a scan: x[i] is the composition of the
// affine maps x -> a[k] * x + b[k] for k <= i, applied to x[-1] = 0, and
// composing affine maps is associative. Each of 64 rows of 1024 runs here
// as a block-wide Sklansky scan over the maps, next to the plain loop.
//
//   obs-run recurrence.mlir --entry=recurrence --target=cpu --input=A.txt --input=B.txt
//   obs-run recurrence.mlir --entry=recurrence_loop --target=cpu --input=A.txt --input=B.txt
//
// Floating-point composition reassociates the products and sums, so the two
// agree to rounding: test/examples/grid.test states the tolerance.

obs.kernel @row_recurrence(%a: !obs.arr<1024 x f32>, %b: !obs.arr<1024 x f32>)
    -> !obs.arr<1024 x f32> attributes {threads = 512} {
  %maps = obs.zip %a, %b : !obs.arr<1024 x f32>, !obs.arr<1024 x f32>
  // Applying (a1, b1) and then (a2, b2) is (a2 * a1, a2 * b1 + b2).
  %composed = obs.scan %maps network(sklansky) : !obs.arr<1024 x tuple<f32, f32>> {
  ^bb0(%a1: f32, %b1: f32, %a2: f32, %b2: f32):
    %a12 = arith.mulf %a2, %a1 : f32
    %ab = arith.mulf %a2, %b1 : f32
    %b12 = arith.addf %ab, %b2 : f32
    obs.yield %a12, %b12 : f32, f32
  }
  // Applied to x[-1] = 0, a map gives its constant term.
  %x = obs.map %composed : !obs.arr<1024 x tuple<f32, f32>> -> !obs.arr<1024 x f32> {
  ^bb0(%slope: f32, %offset: f32):
    obs.yield %offset : f32
  }
  obs.return %x : !obs.arr<1024 x f32>
}

func.func @recurrence(%a: memref<65536xf32>, %b: memref<65536xf32>, %x: memref<65536xf32>) {
  obs.launch @row_recurrence grid(64) ins(%a, %b : memref<65536xf32>, memref<65536xf32>)
      outs(%x : memref<65536xf32>)
  return
}

// The plain sequential loop, row by row.
func.func @recurrence_loop(%a: memref<65536xf32>, %b: memref<65536xf32>, %x: memref<65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 64 : index
  %length = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  scf.for %r = %c0 to %rows step %c1 {
    %base = arith.muli %r, %length : index
    %last = scf.for %i = %c0 to %length step %c1 iter_args(%previous = %zero) -> (f32) {
      %k = arith.addi %base, %i : index
      %ak = memref.load %a[%k] : memref<65536xf32>
      %bk = memref.load %b[%k] : memref<65536xf32>
      %scaled = arith.mulf %ak, %previous : f32
      %xk = arith.addf %scaled, %bk : f32
      memref.store %xk, %x[%k] : memref<65536xf32>
      scf.yield %xk : f32
    }
  }
  return
}
