// RUN: obs-opt %s -split-input-file --obs-verify-launches --obs-statistics 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats

// Tests of lib/Transforms/VerifyLaunches.cpp: launches whose global memory
// is safe are proved and kept as they are (verify-launches-errors.mlir has
// the racy ones). Each of these runs on ref and cpu under every block order
// in test/obs-run/launch-aliasing.test.

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// Reversed blocks and reversed elements: a permutation.
// CHECK-LABEL: func.func @reversed
// CHECK: obs.launch @copy grid(2)
func.func @reversed(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (7 - b * 4 - i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

// In place, without layouts: thread t reads element t of its block's chunk
// and then writes it, and no other thread touches it.
obs.kernel @inc(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %c1 = arith.constant 1 : i32
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// CHECK-LABEL: func.func @in_place
// CHECK: obs.launch @inc grid(2) ins(%[[B:.*]] : memref<8xi32>) outs(%[[B]] : memref<8xi32>)
func.func @in_place(%buf: memref<8xi32>) {
  obs.launch @inc grid(2) ins(%buf : memref<8xi32>) outs(%buf : memref<8xi32>)
  return
}

// -----

// In place across threads and warps: every thread reads its element before
// the block barrier, and the reversed writes come after it.
obs.kernel @rev(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// CHECK-LABEL: func.func @synced
// CHECK: obs.launch @rev grid(2) ins(%[[B:.*]] : memref<128xi32>) outs(%[[B]] : memref<128xi32>)
func.func @synced(%buf: memref<128xi32>) {
  obs.launch @rev grid(2) ins(%buf : memref<128xi32>) outs(%buf : memref<128xi32>)
  return
}

// -----

// Views of one byte buffer that do not overlap: bytes 0..31 in, 32..63 out.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// CHECK-LABEL: func.func @disjoint_views
// CHECK: obs.launch @copy grid(2)
func.func @disjoint_views() {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %bytes = memref.alloc() : memref<64xi8>
  %in = memref.view %bytes[%c0][] : memref<64xi8> to memref<8xi32>
  %out = memref.view %bytes[%c32][] : memref<64xi8> to memref<8xi32>
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

// Two views of one output that partition it: the first half of each
// block's chunk through one, the second through the other.
obs.kernel @split(%a: !obs.arr<2 x i32>, %b: !obs.arr<2 x i32>) -> (!obs.arr<2 x i32>, !obs.arr<2 x i32>) {
  obs.return %a, %b : !obs.arr<2 x i32>, !obs.arr<2 x i32>
}

// CHECK-LABEL: func.func @partition
// CHECK: obs.launch @split grid(2)
func.func @partition(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @split grid(2) ins(%in, %in : memref<8xi32>, memref<8xi32>) outs(%out, %out : memref<8xi32>, memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i + 2)>,
               affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i + 2)>]
  return
}

// -----

// A call that passes distinct allocations to a function that launches.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func private @launches(%a: memref<8xi32>, %b: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%a : memref<8xi32>) outs(%b : memref<8xi32>)
  return
}

// CHECK-LABEL: func.func @calls
// CHECK: call @launches
func.func @calls(%a: memref<8xi32>) {
  %b = memref.alloc() : memref<8xi32>
  func.call @launches(%a, %b) : (memref<8xi32>, memref<8xi32>) -> ()
  return
}

// STATS: obs-verify-launches
// STATS-NEXT: 6 launches
