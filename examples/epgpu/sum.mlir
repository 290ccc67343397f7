// Seed 004 (Lawlor, EPGPU): the total of 8000 floats, all 1000.23, summed
// linearly by one thread and by a tree, compared for accuracy:
//
//   Linear total=8.00104e+06
//   Recursive total=8.00184e+06
//   Analytic total=8.00184e+06
//
// The lecture's tree is log2(n) launches of
//   srcIdx = step*i + step/2; if (srcIdx < length) arr[step*i] += arr[srcIdx]
// which adds neighbours pairwise, level by level, an odd last element moving
// up: exactly `obs.reduce network(tree)`, here one block's stages with 1024
// threads instead of one launch per level. Run it with
//   obs-run sum.mlir --entry=totals --target=cpu --input=1000.23

// writeFloats: arr[i] = start.
obs.kernel @write_floats(%start: !obs.arr<1 x f32>) -> !obs.arr<8000 x f32>
    attributes {threads = 1000} {
  %c0 = arith.constant 0 : index
  %s = obs.index %start[%c0] : !obs.arr<1 x f32>
  %arr = obs.generate : !obs.arr<8000 x f32> {
  ^bb0(%i: index):
    obs.yield %s : f32
  }
  obs.return %arr : !obs.arr<8000 x f32>
}

// linearSum: for (i = 0; i < length; i++) result += arr[i], in one thread.
obs.kernel @linear_sum(%arr: !obs.arr<8000 x f32>) -> !obs.arr<1 x f32> {
  %total = obs.generate : !obs.arr<1 x f32> {
  ^bb0(%i: index):
    %sum = obs.reduce %arr : !obs.arr<8000 x f32> -> f32 {
    ^bb0(%acc: f32, %x: f32):
      %s = arith.addf %acc, %x : f32
      obs.yield %s : f32
    }
    obs.yield %sum : f32
  }
  obs.return %total : !obs.arr<1 x f32>
}

// totalArray: the tree.
obs.kernel @tree_sum(%arr: !obs.arr<8000 x f32>) -> !obs.arr<1 x f32>
    attributes {threads = 1024} {
  %sum = obs.reduce %arr network(tree) : !obs.arr<8000 x f32> -> f32 {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    obs.yield %s : f32
  }
  %total = obs.generate : !obs.arr<1 x f32> {
  ^bb0(%i: index):
    obs.yield %sum : f32
  }
  obs.return %total : !obs.arr<1 x f32>
}

func.func @totals(%start: memref<1xf32>, %linear: memref<1xf32>, %tree: memref<1xf32>) {
  %arr = memref.alloc() : memref<8000xf32>
  obs.launch @write_floats grid(1) ins(%start : memref<1xf32>) outs(%arr : memref<8000xf32>)
  obs.launch @linear_sum grid(1) ins(%arr : memref<8000xf32>) outs(%linear : memref<1xf32>)
  obs.launch @tree_sum grid(1) ins(%arr : memref<8000xf32>) outs(%tree : memref<1xf32>)
  memref.dealloc %arr : memref<8000xf32>
  return
}
