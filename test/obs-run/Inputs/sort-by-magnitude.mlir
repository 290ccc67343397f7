// 13 integers sorted by their magnitude, a strict weak order in which x and
// -x are equivalent: a stable sort keeps them in input order.
obs.kernel @by_magnitude(%a: !obs.arr<13 x i32>) -> !obs.arr<13 x i32> {
  %sorted = obs.sort %a : !obs.arr<13 x i32> {
  ^bb0(%x: i32, %y: i32):
    %zero = arith.constant 0 : i32
    %nx = arith.subi %zero, %x : i32
    %ny = arith.subi %zero, %y : i32
    %xneg = arith.cmpi slt, %x, %zero : i32
    %yneg = arith.cmpi slt, %y, %zero : i32
    %ax = arith.select %xneg, %nx, %x : i32
    %ay = arith.select %yneg, %ny, %y : i32
    %less = arith.cmpi slt, %ax, %ay : i32
    obs.yield %less : i1
  }
  obs.return %sorted : !obs.arr<13 x i32>
}

// Pairs sorted by their first component alone: the second says where each
// came from.
obs.kernel @by_key(%a: !obs.arr<9 x tuple<i32, i32>>) -> !obs.arr<9 x tuple<i32, i32>> {
  %sorted = obs.sort %a : !obs.arr<9 x tuple<i32, i32>> {
  ^bb0(%k1: i32, %v1: i32, %k2: i32, %v2: i32):
    %less = arith.cmpi slt, %k1, %k2 : i32
    obs.yield %less : i1
  }
  obs.return %sorted : !obs.arr<9 x tuple<i32, i32>>
}
