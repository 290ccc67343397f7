// Launches whose whole-array arguments (obs.global, halos) are views at
// offsets (test/obs-run/global-views.test).

obs.kernel @g(%t: !obs.arr<4 x i32> {obs.global, obs.absent = -1 : i32}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %out = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %v = obs.index %t[%i] : !obs.arr<4 x i32>
    obs.yield %v : i32
  }
  obs.return %out : !obs.arr<4 x i32>
}
func.func @dyn(%x: memref<?xi32>, %out: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %v = memref.subview %x[%c3] [%c4] [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  %o = memref.subview %out[0] [%c4] [1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  obs.launch @g grid(%c1) ins(%v : memref<?xi32, strided<[1], offset: ?>>) outs(%o : memref<?xi32, strided<[1]>>)
  return
}
func.func @stat_off(%x: memref<?xi32>, %out: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %v = memref.subview %x[3] [%c4] [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: 3>>
  obs.launch @g grid(%c1) ins(%v : memref<?xi32, strided<[1], offset: 3>>) outs(%out : memref<?xi32>)
  return
}

// A halo of 2, clamped, over a view of 7 elements of x at 3; element i of
// the result is the five around it as decimal digits.
obs.kernel @h_clamp(%x: !obs.arr<8 x i32> {obs.halo = #obs.halo<2, clamp>, obs.absent = 0 : i32}) -> !obs.arr<4 x i32> attributes {threads = 2} {
  %out = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %p1 = arith.addi %i, %c1 : index
    %p2 = arith.addi %i, %c2 : index
    %p3 = arith.addi %i, %c3 : index
    %p4 = arith.addi %i, %c4 : index
    %a = obs.index %x[%i] : !obs.arr<8 x i32>
    %b = obs.index %x[%p1] : !obs.arr<8 x i32>
    %c = obs.index %x[%p2] : !obs.arr<8 x i32>
    %d = obs.index %x[%p3] : !obs.arr<8 x i32>
    %e = obs.index %x[%p4] : !obs.arr<8 x i32>
    %k10 = arith.constant 10 : i32
    %s1 = arith.muli %a, %k10 : i32
    %s2 = arith.addi %s1, %b : i32
    %s3 = arith.muli %s2, %k10 : i32
    %s4 = arith.addi %s3, %c : i32
    %s5 = arith.muli %s4, %k10 : i32
    %s6 = arith.addi %s5, %d : i32
    %s7 = arith.muli %s6, %k10 : i32
    %s8 = arith.addi %s7, %e : i32
    obs.yield %s8 : i32
  }
  obs.return %out : !obs.arr<4 x i32>
}
func.func @view_clamp(%x: memref<?xi32>, %out: memref<?xi32>) {
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c4 = arith.constant 4 : index
  %v = memref.subview %x[%c3] [%c7] [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  %o = memref.subview %out[%c1] [%c7] [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  %t = arith.ceildivui %c7, %c4 : index
  obs.launch @h_clamp grid(%t) ins(%v : memref<?xi32, strided<[1], offset: ?>>) outs(%o : memref<?xi32, strided<[1], offset: ?>>)
  return
}
