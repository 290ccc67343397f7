// Later Obsidian's matrix product (Examples/Simple/MatMul.hs): 32 x 32
// floats, a block per row of the product and a thread per element of it,
// each thread's element a sequential fold (seqReduce) over the row of A and
// a column of B. Every block sees the whole of B: its launch's layout puts
// element i of every block's B at row i.
//
//   obs-run examples/obsidian/matmul.mlir --entry=matmul --target=cpu \
//       --input=a.txt --input=b.txt

obs.kernel @row_times(%row: !obs.arr<1 x !obs.arr<32 x f32>>, %b: !obs.arr<32 x !obs.arr<32 x f32>>) -> !obs.arr<1 x !obs.arr<32 x f32>> attributes {threads = 32} {
  %c0 = arith.constant 0 : index
  %a = obs.index %row[%c0] : !obs.arr<1 x !obs.arr<32 x f32>>
  %products = obs.generate : !obs.arr<32 x f32> {
  ^bb0(%j: index):
    %c0i = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %k = %c0i to %c32 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = obs.index %a[%k] : !obs.arr<32 x f32>
      %brow = obs.index %b[%k] : !obs.arr<32 x !obs.arr<32 x f32>>
      %y = obs.index %brow[%j] : !obs.arr<32 x f32>
      %xy = arith.mulf %x, %y : f32
      %next = arith.addf %acc, %xy : f32
      scf.yield %next : f32
    }
    obs.yield %sum : f32
  }
  %out = obs.generate : !obs.arr<1 x !obs.arr<32 x f32>> {
  ^bb0(%i: index):
    obs.yield %products : !obs.arr<32 x f32>
  }
  obs.return %out : !obs.arr<1 x !obs.arr<32 x f32>>
}

// c = a b.
func.func @matmul(%a: memref<32x32xf32>, %b: memref<32x32xf32>, %c: memref<32x32xf32>) {
  obs.launch @row_times grid(32) ins(%a, %b : memref<32x32xf32>, memref<32x32xf32>) outs(%c : memref<32x32xf32>)
      layouts [affine_map<(b, i) -> (b + i)>, affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (b + i)>]
  return
}
