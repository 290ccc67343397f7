// docs/Tutorial.md and README: a launch that is wrong on a GPU. Block b
// reads chunk b of the memref and writes chunk b + 1 of the same memref;
// blocks run in any order, so block 1 may overwrite what block 0 has not
// read yet.

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @shift(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  obs.launch @copy grid(2) ins(%out : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (((b + 1) mod 2) * 4 + i)>]
  return
}
