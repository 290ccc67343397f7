// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-verify-launches

// Tests of lib/Transforms/VerifyLaunches.cpp: launches whose sizes are known
// only at run time that race, or that the proof cannot compare, are
// rejected. verify-launches-dynamic.mlir has the safe ones.

// In place, reversing each chunk: thread 3 reads the place thread 0 writes,
// in every block, with no barrier between.
// expected-note @+2 {{the kernel reads it here}}
// expected-note @+1 {{the kernel writes it here}}
obs.kernel @rev(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  %r = obs.rev %a : !obs.arr<4 x i32>
  obs.return %r : !obs.arr<4 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @same_memref(%buf: memref<?xi32>, %grid: index) {
  // expected-error @+1 {{in block 0, thread 3 (warp 0) reads element 0 through ins 0 and thread 0 (warp 0) writes that place as element 0 through outs 0, with no barrier between them that orders both}}
  obs.launch @rev grid(%grid) ins(%buf : memref<?xi32>) outs(%buf : memref<?xi32>)
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// Two views of one allocation, one written: where they meet depends on the
// sizes (here on %n).
// expected-note @+1 {{the allocation}}
func.func @different_views(%bytes: memref<?xi8>, %n: index, %grid: index) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.view %bytes[%c0][%n] : memref<?xi8> to memref<?xi32>
  %b = memref.view %bytes[%c16][%n] : memref<?xi8> to memref<?xi32>
  // expected-error @+1 {{passes ins 0 and outs 0, two different views of one allocation, at least one written, to a launch whose sizes are known only at run time: where they meet depends on the sizes, and the launch proof accepts only the same view, which gives each block the same places, or views it proves apart (subviews of disjoint ranges, memref.views at byte shifts that keep them apart, or views of static places and sizes on disjoint bytes)}}
  obs.launch @copy grid(%grid) ins(%a : memref<?xi32>) outs(%b : memref<?xi32>)
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// A view 4 elements on from the view it reads: block b writes the places
// block b + 1 reads, for grids of 2 blocks or more.
func.func @shifted(%grid: index) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  // expected-note @+1 {{the allocation}}
  %bytes = memref.alloc() : memref<64xi8>
  %a = memref.view %bytes[%c0][] : memref<64xi8> to memref<16xi32>
  %b = memref.view %bytes[%c16][] : memref<64xi8> to memref<12xi32>
  // expected-error @+1 {{passes ins 0 and outs 0, two different views of one allocation}}
  obs.launch @copy grid(%grid) ins(%a : memref<16xi32>) outs(%b : memref<12xi32>)
  return
}

// -----

obs.kernel @twice(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> (!obs.arr<4 x i32>, !obs.arr<4 x i32>) {
  obs.return %a, %a : !obs.arr<4 x i32>, !obs.arr<4 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @written_twice(%in: memref<?xi32>, %out: memref<?xi32>, %grid: index) {
  // expected-error @+1 {{writes one place twice: element 0 of every block through outs 0 and outs 1, the same view of one allocation}}
  obs.launch @twice grid(%grid) ins(%in : memref<?xi32>) outs(%out, %out : memref<?xi32>, memref<?xi32>)
  return
}

// -----

// Arrays of other lengths on one memref: block b reads [4b, 4b + 4) and
// writes [2b, 2b + 2), which block b / 2 reads. One view as arrays of two
// shapes (hunt 31: the message spoke of two different views).
obs.kernel @first_half(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<2 x i32> {
  %lo, %hi = obs.halve %a : !obs.arr<4 x i32>
  obs.return %lo : !obs.arr<2 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @other_lengths(%buf: memref<?xi32>, %grid: index) {
  // expected-error @+1 {{passes ins 0 and outs 0, one view of an allocation, as arrays of different shapes ('!obs.arr<4 x i32>' and '!obs.arr<2 x i32>'), at least one written, to a launch whose sizes are known only at run time: a block's chunks of the two are different places, so a block may write what another reads; the launch proof accepts one view only as arrays of one shape}}
  obs.launch @first_half grid(%grid) ins(%buf : memref<?xi32>) outs(%buf : memref<?xi32>)
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// Views at run-time places that may meet: [0, k) and [j, j + k) for
// unrelated k and j, and [0, k + 1) with [k, 2k).
// expected-note @+1 {{the allocation}}
func.func @may_meet(%buf: memref<?xi32>, %k: index, %j: index, %grid: index) {
  %lo = memref.subview %buf[0][%k][1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %there = memref.subview %buf[%j][%k][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  // expected-error @+1 {{passes ins 0 and outs 0, two different views of one allocation}}
  obs.launch @copy grid(%grid) ins(%lo : memref<?xi32, strided<[1]>>) outs(%there : memref<?xi32, strided<[1], offset: ?>>)
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @one_in_common(%buf: memref<?xi32>, %k: index, %grid: index) {
  %c1 = arith.constant 1 : index
  %k1 = arith.addi %k, %c1 : index
  %lo = memref.subview %buf[0][%k1][1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %hi = memref.subview %buf[%k][%k][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  // expected-error @+1 {{passes ins 0 and outs 0, two different views of one allocation}}
  obs.launch @copy grid(%grid) ins(%lo : memref<?xi32, strided<[1]>>) outs(%hi : memref<?xi32, strided<[1], offset: ?>>)
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func private @apply(%in: memref<?xi32, strided<[1], offset: ?>>, %out: memref<?xi32, strided<[1], offset: ?>>, %grid: index) {
  obs.launch @copy grid(%grid) ins(%in : memref<?xi32, strided<[1], offset: ?>>) outs(%out : memref<?xi32, strided<[1], offset: ?>>)
  return
}

// A helper that launches is given two views with one element in common:
// its arguments are proved as distinct allocations, so the call is
// rejected.
// expected-note @+1 {{the allocation}}
func.func @call_one_in_common(%buf: memref<?xi32>, %k: index, %grid: index) {
  %c1 = arith.constant 1 : index
  %k1 = arith.addi %k, %c1 : index
  %lo = memref.subview %buf[0][%k1][1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %cast = memref.cast %lo : memref<?xi32, strided<[1]>> to memref<?xi32, strided<[1], offset: ?>>
  %hi = memref.subview %buf[%k][%k][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  // expected-error @+1 {{'func.call' op passes one allocation as arguments 0 and 1 to a function that launches kernels, whose memref arguments are proved as distinct allocations}}
  call @apply(%cast, %hi, %grid) : (memref<?xi32, strided<[1], offset: ?>>, memref<?xi32, strided<[1], offset: ?>>, index) -> ()
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func private @apply_strided(%in: memref<4xi32, strided<[2], offset: ?>>, %out: memref<2xi32, strided<[1], offset: ?>>, %data: memref<8xi32>, %result: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%data : memref<8xi32>) outs(%result : memref<8xi32>)
  return
}

// Places 0, 2, 4, 6 and 5, 6: the stride-2 view's elements span 7 places,
// not 4, and meet the second view at place 6.
// expected-note @+1 {{the allocation}}
func.func @call_strided_views_meeting(%buf: memref<16xi32>, %data: memref<8xi32>, %result: memref<8xi32>, %k: index) {
  %even = memref.subview %buf[%k][4][2] : memref<16xi32> to memref<4xi32, strided<[2], offset: ?>>
  %five = arith.constant 5 : index
  %at = arith.addi %k, %five : index
  %pair = memref.subview %buf[%at][2][1] : memref<16xi32> to memref<2xi32, strided<[1], offset: ?>>
  // expected-error @+1 {{passes one allocation as arguments 0 and 1}}
  call @apply_strided(%even, %pair, %data, %result) : (memref<4xi32, strided<[2], offset: ?>>, memref<2xi32, strided<[1], offset: ?>>, memref<8xi32>, memref<8xi32>) -> ()
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func private @apply_tiles(%in: memref<4x4xi32, strided<[8, 1], offset: ?>>, %out: memref<2x2xi32, strided<[8, 1], offset: ?>>, %data: memref<8xi32>, %result: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%data : memref<8xi32>) outs(%result : memref<8xi32>)
  return
}

// Rows 0-3, columns 0-3 of an 8 x 8 matrix, and rows 2-3, columns 2-3:
// both hold (2, 2), although the first's 16 elements end, counted
// contiguously, before the second's first.
// expected-note @+1 {{the allocation}}
func.func @call_tiles_meeting(%matrix: memref<8x8xi32>, %data: memref<8xi32>, %result: memref<8xi32>, %k: index) {
  %corner = memref.subview %matrix[%k, 0][4, 4][1, 1] : memref<8x8xi32> to memref<4x4xi32, strided<[8, 1], offset: ?>>
  %two = arith.constant 2 : index
  %row = arith.addi %k, %two : index
  %inner = memref.subview %matrix[%row, 2][2, 2][1, 1] : memref<8x8xi32> to memref<2x2xi32, strided<[8, 1], offset: ?>>
  // expected-error @+1 {{passes one allocation as arguments 0 and 1}}
  call @apply_tiles(%corner, %inner, %data, %result) : (memref<4x4xi32, strided<[8, 1], offset: ?>>, memref<2x2xi32, strided<[8, 1], offset: ?>>, memref<8xi32>, memref<8xi32>) -> ()
  return
}
