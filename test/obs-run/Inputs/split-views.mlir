// Launches over views of one buffer split at a place known only at run
// time (test/obs-run/split-views.test): the launch proof proves [0, k) and
// [k, 2k) apart symbolically, whatever k is.

// Element i tripled, on chunks of 32.
obs.kernel @triple(%a: !obs.arr<32 x i32> {obs.absent = 0 : i32}) -> !obs.arr<32 x i32> {
  %r = obs.map %a : !obs.arr<32 x i32> -> !obs.arr<32 x i32> {
  ^bb0(%x: i32):
    %c = arith.constant 3 : i32
    %s = arith.muli %x, %c : i32
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<32 x i32>
}

// The first half of %a, tripled, over its second half (k = n / 2; an odd
// n keeps its last element), then %a copied out.
func.func @split_halves(%a: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %n = memref.dim %a, %c0 : memref<?xi32>
  %k = arith.divui %n, %c2 : index
  %lo = memref.subview %a[0][%k][1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %hi = memref.subview %a[%k][%k][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  %grid = arith.ceildivui %k, %c32 : index
  obs.launch @triple grid(%grid) ins(%lo : memref<?xi32, strided<[1]>>) outs(%hi : memref<?xi32, strided<[1], offset: ?>>)
  memref.copy %a, %out : memref<?xi32> to memref<?xi32>
  return
}

// The same through a helper that launches: the call passes two views of
// one allocation, proved apart, as the helper's distinct arguments.
func.func private @apply(%in: memref<?xi32, strided<[1], offset: ?>>, %out: memref<?xi32, strided<[1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %k = memref.dim %in, %c0 : memref<?xi32, strided<[1], offset: ?>>
  %grid = arith.ceildivui %k, %c32 : index
  obs.launch @triple grid(%grid) ins(%in : memref<?xi32, strided<[1], offset: ?>>) outs(%out : memref<?xi32, strided<[1], offset: ?>>)
  return
}
func.func @split_by_helper(%a: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %a, %c0 : memref<?xi32>
  %k = arith.divui %n, %c2 : index
  %first = memref.subview %a[0][%k][1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %lo = memref.cast %first : memref<?xi32, strided<[1]>> to memref<?xi32, strided<[1], offset: ?>>
  %hi = memref.subview %a[%k][%k][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  call @apply(%lo, %hi) : (memref<?xi32, strided<[1], offset: ?>>, memref<?xi32, strided<[1], offset: ?>>) -> ()
  memref.copy %a, %out : memref<?xi32> to memref<?xi32>
  return
}

// [0, k + 1) over [k, 2k + 1): element k is in both, so block 0 may read
// it after the block that writes it. Rejected.
func.func @overlapping(%a: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %n = memref.dim %a, %c0 : memref<?xi32>
  %h = arith.subi %n, %c1 : index
  %k = arith.divui %h, %c2 : index
  %k1 = arith.addi %k, %c1 : index
  %lo = memref.subview %a[0][%k1][1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %hi = memref.subview %a[%k][%k1][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  %grid = arith.ceildivui %k1, %c32 : index
  obs.launch @triple grid(%grid) ins(%lo : memref<?xi32, strided<[1]>>) outs(%hi : memref<?xi32, strided<[1], offset: ?>>)
  memref.copy %a, %out : memref<?xi32> to memref<?xi32>
  return
}
