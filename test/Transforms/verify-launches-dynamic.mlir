// RUN: obs-opt %s -split-input-file --obs-verify-launches | FileCheck %s

// Tests of lib/Transforms/VerifyLaunches.cpp for launches whose sizes are
// known only at run time: proved for every grid and length at once. Blocks
// touch only their own chunks, and only before the end of each memref;
// memrefs of one allocation must be the same view where one is written, or
// subviews proved apart.
// verify-launches-dynamic-errors.mlir has the rejected ones; each of these
// runs on ref and cpu under every block order in
// test/obs-run/launch-dynamic.test.

obs.kernel @inc(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  %c1 = arith.constant 1 : i32
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// Distinct allocations, and one of a size known at run time.
// CHECK-LABEL: func.func @distinct
// CHECK: obs.launch @inc grid(%{{.*}})
func.func @distinct(%in: memref<?xi32>, %grid: index) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %out = memref.alloc(%n) : memref<?xi32>
  obs.launch @inc grid(%grid) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  memref.dealloc %out : memref<?xi32>
  return
}

// In place: the same memref in and out; thread t reads element t of its
// block's chunk and then writes it.
// CHECK-LABEL: func.func @in_place
// CHECK: obs.launch @inc grid(%{{.*}}) ins(%[[B:.*]] : memref<?xi32>) outs(%[[B]] : memref<?xi32>)
func.func @in_place(%buf: memref<?xi32>, %grid: index) {
  obs.launch @inc grid(%grid) ins(%buf : memref<?xi32>) outs(%buf : memref<?xi32>)
  return
}

// In place through a subview of the first %n elements, cast to an identity
// layout: the same places as the memref itself.
// CHECK-LABEL: func.func @in_place_prefix
// CHECK: obs.launch @inc
func.func @in_place_prefix(%buf: memref<?xi32>, %n: index, %grid: index) {
  %lo = memref.subview %buf[0] [%n] [1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %l = memref.cast %lo : memref<?xi32, strided<[1]>> to memref<?xi32>
  obs.launch @inc grid(%grid) ins(%buf : memref<?xi32>) outs(%l : memref<?xi32>)
  return
}

// In place through two casts of one memref: the same view.
// CHECK-LABEL: func.func @in_place_views
// CHECK: obs.launch @inc
func.func @in_place_views(%buf: memref<12xi32>, %grid: index) {
  %a = memref.cast %buf : memref<12xi32> to memref<?xi32>
  %b = memref.cast %buf : memref<12xi32> to memref<?xi32>
  obs.launch @inc grid(%grid) ins(%a : memref<?xi32>) outs(%b : memref<?xi32>)
  return
}

// One memref passed twice, only read.
obs.kernel @add(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32},
                %b: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  %m = obs.map %a, %b : !obs.arr<4 x i32>, !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}
// CHECK-LABEL: func.func @read_twice
// CHECK: obs.launch @add
func.func @read_twice(%buf: memref<?xi32>, %out: memref<?xi32>, %grid: index) {
  obs.launch @add grid(%grid) ins(%buf, %buf : memref<?xi32>, memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// Views of one buffer at run-time places, proved apart symbolically: the
// halves [0, k) and [k, 2k); the second and third quarters of [0, n) read
// through a subview of a subview, [j, j + m) and [j + m, j + 2m); and
// [k, k + m) after [0, k) through a memref.cast.
// CHECK-LABEL: func.func @apart
// CHECK-COUNT-3: obs.launch @copy
func.func @apart(%buf: memref<?xi32>, %k: index, %j: index, %m: index, %grid: index) {
  %lo = memref.subview %buf[0][%k][1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %hi = memref.subview %buf[%k][%k][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  obs.launch @copy grid(%grid) ins(%lo : memref<?xi32, strided<[1]>>) outs(%hi : memref<?xi32, strided<[1], offset: ?>>)
  %two = arith.addi %m, %m : index
  %rest = memref.subview %buf[%j][%two][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  %second = memref.subview %rest[0][%m][1] : memref<?xi32, strided<[1], offset: ?>> to memref<?xi32, strided<[1], offset: ?>>
  %third = memref.subview %rest[%m][%m][1] : memref<?xi32, strided<[1], offset: ?>> to memref<?xi32, strided<[1], offset: ?>>
  obs.launch @copy grid(%grid) ins(%third : memref<?xi32, strided<[1], offset: ?>>) outs(%second : memref<?xi32, strided<[1], offset: ?>>)
  %after = memref.subview %buf[%k][%m][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  %cast = memref.cast %lo : memref<?xi32, strided<[1]>> to memref<?xi32, strided<[1], offset: ?>>
  obs.launch @copy grid(%grid) ins(%cast : memref<?xi32, strided<[1], offset: ?>>) outs(%after : memref<?xi32, strided<[1], offset: ?>>)
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func private @apply_tiles(%in: memref<2x4xi32, strided<[8, 1], offset: ?>>, %out: memref<2x8xi32, strided<[8, 1], offset: ?>>, %data: memref<8xi32>, %result: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%data : memref<8xi32>) outs(%result : memref<8xi32>)
  return
}

// Rows k and k + 1 (columns 0-3) of an 8 x 8 matrix end at place
// 8 (k + 1) + 4, before rows k + 2 and k + 3 start: distinct memory.
// CHECK-LABEL: func.func @call_tiles_apart
// CHECK: call @apply_tiles
func.func @call_tiles_apart(%matrix: memref<8x8xi32>, %data: memref<8xi32>, %result: memref<8xi32>, %k: index) {
  %top = memref.subview %matrix[%k, 0][2, 4][1, 1] : memref<8x8xi32> to memref<2x4xi32, strided<[8, 1], offset: ?>>
  %two = arith.constant 2 : index
  %row = arith.addi %k, %two : index
  %below = memref.subview %matrix[%row, 0][2, 8][1, 1] : memref<8x8xi32> to memref<2x8xi32, strided<[8, 1], offset: ?>>
  call @apply_tiles(%top, %below, %data, %result) : (memref<2x4xi32, strided<[8, 1], offset: ?>>, memref<2x8xi32, strided<[8, 1], offset: ?>>, memref<8xi32>, memref<8xi32>) -> ()
  return
}
