// RUN: obs-opt %s --obs-expand-device --obs-verify-launches -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not obs-opt %s --obs-verify-launches -split-input-file 2>&1 | FileCheck %s --check-prefix=UNEXPANDED

// Tests of lib/Transforms/DeviceExpansion/TiledLaunches.cpp: a launch over
// a grid of rows and columns of blocks becomes a launch over a grid of one
// dimension, block b = r C + c, with layouts over views of the memrefs as
// rows of one tile's width.

// A grid of 2 x 3 blocks over 4 x 12 memrefs, tiles of 2 rows of 4: each
// memref is viewed as 12 rows of 4 (row k of the view is row k floordiv 3
// of the memref, columns 4 (k mod 3) to 4 (k mod 3) + 3), and row i of
// block b's tile is row (2 (b floordiv 3) + i) 3 + b mod 3 of the view.
// CHECK: #[[TILES:.*]] = affine_map<(d0, d1) -> (((d0 floordiv 3) * 2 + d1) * 3 + d0 mod 3)>
// CHECK-LABEL: func.func @copy
// CHECK-SAME: (%[[X:.*]]: memref<4x12xi32>, %[[Y:.*]]: memref<4x12xi32>)
// CHECK: %[[XS:.*]] = memref.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [4, 3, 4] : memref<4x12xi32> into memref<4x3x4xi32>
// CHECK: %[[XR:.*]] = memref.collapse_shape %[[XS]] {{\[}}[0, 1], [2]] : memref<4x3x4xi32> into memref<12x4xi32>
// CHECK: %[[YS:.*]] = memref.expand_shape %[[Y]] {{\[}}[0], [1, 2]] output_shape [4, 3, 4] : memref<4x12xi32> into memref<4x3x4xi32>
// CHECK: %[[YR:.*]] = memref.collapse_shape %[[YS]] {{\[}}[0, 1], [2]] : memref<4x3x4xi32> into memref<12x4xi32>
// CHECK: obs.launch @tile grid(6) ins(%[[XR]] : memref<12x4xi32>) outs(%[[YR]] : memref<12x4xi32>) layouts [#[[TILES]], #[[TILES]]]
// CHECK-SAME: {obs.tiled_columns = 3 : i64}
// CHECK-NOT: grid(2, 3)
// UNEXPANDED: error: 'obs.launch' op tiles 2-D memrefs over a grid of rows and columns, which obs-expand-device lowers to a grid of one dimension: run it first
obs.kernel @tile(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x i32>>
}
func.func @copy(%x: memref<4x12xi32>, %y: memref<4x12xi32>) {
  obs.launch @tile grid(2, 3) ins(%x : memref<4x12xi32>) outs(%y : memref<4x12xi32>)
  return
}

// -----

// Tile layouts: block (r, c) writes tile (c, r) of a 6 x 8 memref, 3 tiles
// down and 2 across, viewed as 12 rows of 4: row i of block b's tile is
// row (2 (b mod 3) + i) 2 + b floordiv 3 of the view. A tuple's memrefs
// are viewed alike.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (((d0 floordiv 3) * 2 + d1) * 3 + d0 mod 3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (((d0 mod 3) * 2 + d1) * 2 + d0 floordiv 3)>
// CHECK-LABEL: func.func @transpose_tiles
// CHECK: memref.collapse_shape {{.*}} : memref<4x3x4xi32> into memref<12x4xi32>
// CHECK: memref.collapse_shape {{.*}} : memref<4x3x4xf32> into memref<12x4xf32>
// CHECK: memref.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [6, 2, 4] : memref<6x8xi32> into memref<6x2x4xi32>
// CHECK: memref.collapse_shape {{.*}} : memref<6x2x4xi32> into memref<12x4xi32>
// CHECK: obs.launch @pairs grid(6) ins(%{{.*}}, %{{.*}} : memref<12x4xi32>, memref<12x4xf32>) outs(%{{.*}} : memref<12x4xi32>) layouts [#[[IN]], #[[IN]], #[[OUT]]]
obs.kernel @pairs(%a: !obs.arr<2 x !obs.arr<4 x tuple<i32, f32>>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  %r = obs.generate : !obs.arr<2 x !obs.arr<4 x i32>> {
  ^bb0(%i: index):
    %row = obs.generate : !obs.arr<4 x i32> {
    ^bb0(%j: index):
      %in = obs.index %a[%i] : !obs.arr<2 x !obs.arr<4 x tuple<i32, f32>>>
      %x, %y = obs.index %in[%j] : !obs.arr<4 x tuple<i32, f32>>
      obs.yield %x : i32
    }
    obs.yield %row : !obs.arr<4 x i32>
  }
  obs.return %r : !obs.arr<2 x !obs.arr<4 x i32>>
}
func.func @transpose_tiles(%x: memref<4x12xi32>, %y: memref<4x12xf32>, %out: memref<6x8xi32>) {
  obs.launch @pairs grid(2, 3) ins(%x, %y : memref<4x12xi32>, memref<4x12xf32>) outs(%out : memref<6x8xi32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c, r)>]
  return
}

// -----

// The launch proof sees the tiles' places in the memrefs themselves: two
// blocks that write one tile (every row of blocks writes row 0 of tiles)
// are refused, named as the grid has them: blocks (0, 0) and (1, 0) of
// the expanded launch's 0 and 3 (obs.tiled_columns).
obs.kernel @tile(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x i32>>
}
// expected-note @+1 {{the allocation}}
func.func @one_tile_twice(%x: memref<4x12xi32>, %y: memref<4x12xi32>) {
  // expected-error @+1 {{writes one place twice: element 0 of block (0, 0) through outs 0, and element 0 of block (1, 0) through outs 0}}
  obs.launch @tile grid(2, 3) ins(%x : memref<4x12xi32>) outs(%y : memref<4x12xi32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (0, c)>]
  return
}

// -----

// A tile past the last column would be, in the row view, the next row's
// first tile: inside the memref, but not where the layout says. Refused
// before the expansion, naming the block and the tile.
obs.kernel @tile(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x i32>>
}
func.func @past_the_last_column(%x: memref<4x12xi32>, %y: memref<8x12xi32>) {
  // expected-error @+1 {{layout 1 places block (0, 2) at tile (0, 3), outside the 4 x 3 tiles of 'memref<8x12xi32>'}}
  obs.launch @tile grid(2, 3) ins(%x : memref<4x12xi32>) outs(%y : memref<8x12xi32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c + 1)>]
  return
}

// -----

// Tiles moved in place, read and written in one matrix, race: block
// (1, 0) writes tile (0, 1), which block (0, 1) reads.
obs.kernel @tile(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x i32>>
}
// expected-note @+1 {{the allocation}}
func.func @in_place(%x: memref<8x8xi32>) {
  // expected-error @+1 {{block (1, 0) writes element 0 through outs 0 where block (0, 1) reads element 0 through ins 0}}
  obs.launch @tile grid(4, 2) ins(%x : memref<8x8xi32>) outs(%x : memref<8x8xi32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r floordiv 2 + c * 2, r mod 2)>]
  return
}
