// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-verify-launches

// Tests of lib/Transforms/VerifyLaunches.cpp and lib/Dialect/Obs/LaunchLayouts.cpp:
// launch layouts checked place by place, and the structural checks of the
// op verifier.

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// Reversed blocks and reversed elements: a permutation, proved.
func.func @reversed(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (7 - b * 4 - i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @outside(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{layout 0 places element 0 of block 1 at 8, outside 'memref<8xi32>'}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 8 + i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// Two blocks write the same places.
func.func @overlap(%in: memref<8xi32>, %out: memref<4xi32>) {
  // expected-error @+1 {{layout 1 writes index 0 of an output a second time, for element 0 of block 1}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<4xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (i)>]
  return
}

// -----

obs.kernel @split(%a: !obs.arr<2 x i32>, %b: !obs.arr<2 x i32>) -> (!obs.arr<2 x i32>, !obs.arr<2 x i32>) {
  obs.return %a, %b : !obs.arr<2 x i32>, !obs.arr<2 x i32>
}

// Two views of one output that overlap.
func.func @views(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{layout 3 writes index 1 of an output a second time, for element 0 of block 0}}
  obs.launch @split grid(2) ins(%in, %in : memref<8xi32>, memref<8xi32>) outs(%out, %out : memref<8xi32>, memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i + 2)>,
               affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i + 1)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @divides_by_zero(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{layout 0 places element 0 of block 0 at no index}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (i floordiv 0)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @in_place(%buffer: memref<8xi32>) {
  // expected-error @+1 {{writes a memref it reads: its blocks run in any order, so give the results another memref}}
  obs.launch @copy grid(2) ins(%buffer : memref<8xi32>) outs(%buffer : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @count(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{has 1 layouts for 2 memrefs: give one per memref}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @shape(%in: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{layout 1 must be a map (block, element) -> (index), but is affine_map<(d0) -> (d0)>}}
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(i) -> (i)>]
  return
}

// -----

obs.kernel @pairs(%a: !obs.arr<4 x tuple<i32, f32>>) -> !obs.arr<4 x tuple<i32, f32>> {
  obs.return %a : !obs.arr<4 x tuple<i32, f32>>
}

func.func @components(%i: memref<8xi32>, %f: memref<8xf32>, %oi: memref<8xi32>, %of: memref<8xf32>) {
  // expected-error @+1 {{layouts 0 and 1 differ, but their memrefs store one array: give the memrefs of an array one layout}}
  obs.launch @pairs grid(2) ins(%i, %f : memref<8xi32>, memref<8xf32>) outs(%oi, %of : memref<8xi32>, memref<8xf32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (7 - b * 4 - i)>,
               affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func @element_type(%in: memref<8xf32>, %out: memref<8xi32>) {
  // expected-error @+1 {{passes ins (memref<8xf32>), but @copy over 2 blocks needs (memref<8xi32>) (with layouts, the outermost dimensions may differ)}}
  obs.launch @copy grid(2) ins(%in : memref<8xf32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}
