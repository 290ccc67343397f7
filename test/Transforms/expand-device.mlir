// RUN: obs-opt %s --obs-expand-device -split-input-file | FileCheck %s
// RUN: obs-opt %s --obs-expand-device=tile=4 -split-input-file | FileCheck %s --check-prefix=TILE4
// RUN: not obs-opt %s --obs-expand-device=tile=6 2>&1 | FileCheck %s --check-prefix=BAD-TILE
// RUN: not obs-opt %s --obs-expand-device=tile=1 2>&1 | FileCheck %s --check-prefix=ONE-TILE
// RUN: echo 'module {}' | not obs-opt --obs-expand-device=tile=6 2>&1 | FileCheck %s --check-prefix=BAD-TILE

// BAD-TILE: obs-expand-device: tile=6 is not a power of two from 2 to 65536
// A tile of one element made every level of a reduce or scan as long as
// the last: the plan recursed until the stack overflowed.
// ONE-TILE: obs-expand-device: tile=1 is not a power of two from 2 to 65536

// A reduce of i32: tiles of 8,192 on 256 threads, absent elements the
// identity; a tree folds each tile to its one-element total.
// CHECK-LABEL: obs.kernel private @sum_device_reduce_reduce_tile(%{{.*}}: !obs.arr<8192 x i32> {obs.absent = 0 : i32}) -> !obs.arr<1 x i32> attributes {threads = 256 : i64}
// CHECK: obs.reduce %{{.*}} network(tree) : !obs.arr<8192 x i32> -> i32
// CHECK: arith.addi
// CHECK: obs.generate : !obs.arr<1 x i32>

// The plan: one launch of one block when the array fits a tile; otherwise
// the tiles' totals, then theirs, one level per factor of 8,192 that
// 2^31 - 1 elements need (3 levels). It has no branches: a launch that must
// not run has a grid of 0, so the host code is one line of launches.
// CHECK-LABEL: func.func @sum(
// CHECK-SAME: %[[IN:.*]]: memref<?xi32>, %[[OUT:.*]]: memref<1xi32>
// CHECK-NOT: scf.if
// CHECK: %[[N:.*]] = memref.dim %[[IN]]
// CHECK: %[[FITS:.*]] = arith.cmpi ule, %[[N]], %{{.*}} : index
// CHECK: %[[LONGER:.*]] = arith.xori %[[FITS]], %{{.*}} : i1
// CHECK: %[[ONE:.*]] = arith.select %[[FITS]], %{{.*}}, %{{.*}} : index
// CHECK: %[[CEIL:.*]] = arith.ceildivui %[[N]], %{{.*}} : index
// CHECK: %[[TILES:.*]] = arith.select %[[LONGER]], %[[CEIL]], %{{.*}} : index
// CHECK: obs.launch @sum_device_reduce_reduce_tile grid(%[[ONE]]) ins(%[[IN]] : memref<?xi32>) outs(%[[OUT]] : memref<1xi32>)
// CHECK: %[[TOTALS:.*]] = memref.alloc(%[[TILES]]) : memref<?xi32>
// CHECK: obs.launch @sum_device_reduce_reduce_tile grid(%[[TILES]]) ins(%[[IN]] : memref<?xi32>) outs(%[[TOTALS]] : memref<?xi32>)
// The second level runs where the first did not fit.
// CHECK: arith.andi %[[LONGER]]
// CHECK: obs.launch @sum_device_reduce_reduce_tile grid(%{{.*}}) ins(%[[TOTALS]] : memref<?xi32>) outs(%[[OUT]] : memref<1xi32>)
// CHECK: %[[TOTALS2:.*]] = memref.alloc
// CHECK: obs.launch @sum_device_reduce_reduce_tile grid(%{{.*}}) ins(%[[TOTALS]] : memref<?xi32>) outs(%[[TOTALS2]] : memref<?xi32>)
// CHECK: obs.launch @sum_device_reduce_reduce_tile grid(%{{.*}}) ins(%[[TOTALS2]] : memref<?xi32>) outs(%[[OUT]] : memref<1xi32>)
// The temporaries are freed after the last launch.
// CHECK-NOT: obs.launch
// CHECK: memref.dealloc
// CHECK: memref.dealloc
// CHECK-NOT: scf.if
// CHECK-NOT: obs.device_reduce

// With tiles of 4, 2^31 - 1 elements need 16 levels: 31 launches.
// TILE4-LABEL: func.func @sum(
// TILE4-COUNT-31: obs.launch
// TILE4-NOT: obs.launch
// TILE4: return
func.func @sum(%in: memref<?xi32>, %out: memref<1xi32>) {
  obs.device_reduce ins(%in : memref<?xi32>) outs(%out : memref<1xi32>) identity [0 : i32] {
  ^bb0(%acc: i32, %x: i32):
    %s = arith.addi %acc, %x : i32
    obs.yield %s : i32
  }
  return
}

// -----

// A length known at compile time needs only the levels it has: 10,000
// elements are two tiles, whose totals fit one.
// CHECK-LABEL: func.func @sum_10000(
// CHECK-NOT: scf.if
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[TOTALS:.*]] = memref.alloc(%[[C2]]) : memref<?xi32>
// CHECK: obs.launch @sum_10000_device_reduce_reduce_tile grid(%[[C2]]) ins(%{{.*}} : memref<10000xi32>) outs(%[[TOTALS]] : memref<?xi32>)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: obs.launch @sum_10000_device_reduce_reduce_tile grid(%[[C1]]) ins(%[[TOTALS]] : memref<?xi32>)
// CHECK-NOT: scf.if
// CHECK: return
func.func @sum_10000(%in: memref<10000xi32>, %out: memref<1xi32>) {
  obs.device_reduce ins(%in : memref<10000xi32>) outs(%out : memref<1xi32>) identity [0 : i32] {
  ^bb0(%acc: i32, %x: i32):
    %s = arith.addi %acc, %x : i32
    obs.yield %s : i32
  }
  return
}

// -----

// A scan of (i32, i32) pairs: 8 bytes, tiles of 4,096; reduce-then-scan,
// the totals scanned exclusively by the same plan, then each tile from its
// carry (the combine's left operand: it need not commute).
// CHECK-LABEL: obs.kernel private @pairs_device_scan_scan_one_tile(%{{.*}}: !obs.arr<4096 x tuple<i32, i32>> {obs.absent = [1 : i32, 0 : i32]}) -> !obs.arr<4096 x tuple<i32, i32>>
// CHECK: obs.scan %{{.*}} network(sklansky)
// CHECK-LABEL: obs.kernel private @pairs_device_scan_reduce_tile(%{{.*}}: !obs.arr<4096 x tuple<i32, i32>> {obs.absent = [1 : i32, 0 : i32]})
// CHECK-LABEL: obs.kernel private @pairs_device_scan_exclusive_scan_one_tile(
// CHECK: obs.scan %{{.*}} network(sklansky)
// CHECK: obs.generate
// CHECK: scf.if
// CHECK-DAG: arith.constant 1 : i32
// CHECK-DAG: arith.constant 0 : i32
// CHECK-LABEL: obs.kernel private @pairs_device_scan_exclusive_scan_tile(
// CHECK-SAME: %{{.*}}: !obs.arr<4096 x tuple<i32, i32>> {obs.absent = [1 : i32, 0 : i32]}, %[[CARRY:.*]]: !obs.arr<1 x tuple<i32, i32>> {obs.absent = [1 : i32, 0 : i32]})
// CHECK: obs.index %[[CARRY]][%{{.*}}] : !obs.arr<1 x tuple<i32, i32>>
// CHECK-LABEL: obs.kernel private @pairs_device_scan_scan_tile(
// CHECK: %[[C:.*]]:2 = obs.index
// CHECK: obs.map
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32):
// CHECK: arith.muli %[[C]]#0, %[[X]] : i32
// CHECK-LABEL: func.func @pairs(
// The second input is read as its first n elements, n the first's length.
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?xi32>
// CHECK: %[[FIRST_N:.*]] = affine.min #{{.*}}()[%[[N]], %{{.*}}]
// CHECK: %[[SECOND:.*]] = memref.subview %{{.*}}[0] [%[[FIRST_N]]] [1] : memref<?xi32> to memref<?xi32, strided<[1]>>
// CHECK: obs.launch @pairs_device_scan_scan_one_tile grid(%{{.*}}) ins(%{{.*}}, %[[SECOND]] : memref<?xi32>, memref<?xi32, strided<[1]>>)
// CHECK: obs.launch @pairs_device_scan_reduce_tile
// CHECK: obs.launch @pairs_device_scan_exclusive_scan_one_tile
// CHECK: obs.launch @pairs_device_scan_scan_tile grid(%{{.*}}) ins(%{{.*}}, %[[SECOND]], %{{.*}}, %{{.*}} : memref<?xi32>, memref<?xi32, strided<[1]>>, memref<?xi32>, memref<?xi32>)
func.func @pairs(%a: memref<?xi32>, %b: memref<?xi32>, %c: memref<?xi32>, %d: memref<?xi32>) {
  // Affine maps x -> m x + k, composed: associative (over the integers mod
  // 2^32), not commutative.
  obs.device_scan inclusive ins(%a, %b : memref<?xi32>, memref<?xi32>)
      outs(%c, %d : memref<?xi32>, memref<?xi32>) identity [1 : i32, 0 : i32] {
  ^bb0(%m1: i32, %k1: i32, %m2: i32, %k2: i32):
    %m = arith.muli %m1, %m2 : i32
    %t = arith.muli %m2, %k1 : i32
    %k = arith.addi %t, %k2 : i32
    obs.yield %m, %k : i32, i32
  }
  return
}

// -----

// A map applies its function to present elements only: absent ones (zeros
// past the end) give zeros the function never computed.
// CHECK-LABEL: obs.kernel private @quotients_device_map_map_tile(
// CHECK-SAME: %[[A:.*]]: !obs.arr<8192 x i32> {obs.absent = 0 : i32}) -> !obs.arr<8192 x i32>
// CHECK: %[[PRESENT:.*]] = obs.extent %[[A]]
// CHECK: obs.generate
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %{{.*}}, %[[PRESENT]]
// CHECK: scf.if %[[INSIDE]]
// CHECK: arith.divsi
// CHECK: } else {
// CHECK: arith.constant 0 : i32
// CHECK-LABEL: func.func @quotients(
// CHECK: %[[TILES:.*]] = arith.ceildivui
// CHECK: obs.launch @quotients_device_map_map_tile grid(%[[TILES]])
func.func @quotients(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_map ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32):
    %c1000 = arith.constant 1000 : i32
    %q = arith.divsi %c1000, %x : i32
    obs.yield %q : i32
  }
  return
}

// -----

// A broadcast scalar is an `obs.global` argument of one element: every
// block reads it whole, once per thread, and the function takes it after
// the tile's element. The launch passes it after the inputs.
// CHECK-LABEL: obs.kernel private @shifted_device_map_map_tile(
// CHECK-SAME: %[[A:.*]]: !obs.arr<8192 x f32> {obs.absent = 0.000000e+00 : f32},
// CHECK-SAME: %[[S:.*]]: !obs.arr<1 x i32> {obs.absent = 0 : i32, obs.global}) -> !obs.arr<8192 x f32>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[SHIFT:.*]] = obs.index %[[S]][%[[ZERO]]] : !obs.arr<1 x i32>
// CHECK: obs.generate
// CHECK: scf.if
// CHECK: %[[X:.*]] = obs.index %[[A]]
// CHECK: %[[F:.*]] = arith.sitofp %[[SHIFT]] : i32 to f32
// CHECK: arith.addf %[[X]], %[[F]] : f32
// CHECK-LABEL: func.func @shifted(
// CHECK-SAME: %[[IN:.*]]: memref<?xf32>, %[[BY:.*]]: memref<1xi32>, %[[OUT:.*]]: memref<?xf32>
// The output as its first n elements, n the input's length: a longer
// output's places past n are left as they were.
// CHECK: %[[N:.*]] = memref.dim %[[IN]]
// CHECK: %[[OWN:.*]] = memref.dim %[[OUT]]
// CHECK: %[[FIRST:.*]] = affine.min #{{.*}}()[%[[N]], %[[OWN]]]
// CHECK: %[[VIEW:.*]] = memref.subview %[[OUT]][0] [%[[FIRST]]] [1]
// CHECK: obs.launch @shifted_device_map_map_tile grid(%{{.*}}) ins(%[[IN]], %[[BY]] : memref<?xf32>, memref<1xi32>) outs(%[[VIEW]] : memref<?xf32, strided<[1]>>)
func.func @shifted(%in: memref<?xf32>, %by: memref<1xi32>, %out: memref<?xf32>) {
  obs.device_map ins(%in : memref<?xf32>) scalars(%by : memref<1xi32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %s: i32):
    %f = arith.sitofp %s : i32 to f32
    %y = arith.addf %x, %f : f32
    obs.yield %y : f32
  }
  return
}
