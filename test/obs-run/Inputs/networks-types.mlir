// Networks over other element types and over operators that are not
// commutative; test/obs-run/networks-types.test checks each.

// Seed 003's serial recurrence x[i] = a[i] * x[i-1] + b[i], x[-1] = 0, as a
// scan of the affine maps x -> a*x + b: applying (a1, b1) and then (a2, b2)
// is (a2*a1, a2*b1 + b2). Composition is associative, not commutative.
obs.kernel @recurrence(%maps: !obs.arr<64 x tuple<i32, i32>>) -> !obs.arr<64 x tuple<i32, i32>> {
  %r = obs.scan %maps network(sklansky) : !obs.arr<64 x tuple<i32, i32>> {
  ^bb0(%a1: i32, %b1: i32, %a2: i32, %b2: i32):
    %a = arith.muli %a2, %a1 : i32
    %ab = arith.muli %a2, %b1 : i32
    %b = arith.addi %ab, %b2 : i32
    obs.yield %a, %b : i32, i32
  }
  obs.return %r : !obs.arr<64 x tuple<i32, i32>>
}

obs.kernel @recurrence_brent_kung(%maps: !obs.arr<64 x tuple<i32, i32>>) -> !obs.arr<64 x tuple<i32, i32>> {
  %r = obs.scan %maps network(brent_kung) : !obs.arr<64 x tuple<i32, i32>> {
  ^bb0(%a1: i32, %b1: i32, %a2: i32, %b2: i32):
    %a = arith.muli %a2, %a1 : i32
    %ab = arith.muli %a2, %b1 : i32
    %b = arith.addi %ab, %b2 : i32
    obs.yield %a, %b : i32, i32
  }
  obs.return %r : !obs.arr<64 x tuple<i32, i32>>
}

// A running maximum of f32.
obs.kernel @running_max(%a: !obs.arr<256 x f32>) -> !obs.arr<256 x f32> {
  %r = obs.scan %a network(kogge_stone) : !obs.arr<256 x f32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.maximumf %x, %y : f32
    obs.yield %m : f32
  }
  obs.return %r : !obs.arr<256 x f32>
}

obs.kernel @sort_i8(%a: !obs.arr<128 x i8>) -> !obs.arr<128 x i8> {
  %r = obs.sort %a network(bitonic) : !obs.arr<128 x i8> {
  ^bb0(%x: i8, %y: i8):
    %less = arith.cmpi slt, %x, %y : i8
    obs.yield %less : i1
  }
  obs.return %r : !obs.arr<128 x i8>
}

// Descending, by the order the region gives.
obs.kernel @sort_f32_descending(%a: !obs.arr<64 x f32>) -> !obs.arr<64 x f32> {
  %r = obs.sort %a network(odd_even_merge) : !obs.arr<64 x f32> {
  ^bb0(%x: f32, %y: f32):
    %greater = arith.cmpf ogt, %x, %y : f32
    obs.yield %greater : i1
  }
  obs.return %r : !obs.arr<64 x f32>
}

// Key-value pairs sorted by key; the values travel with their keys.
obs.kernel @sort_pairs(%a: !obs.arr<32 x tuple<i32, i32>>) -> !obs.arr<32 x tuple<i32, i32>> {
  %r = obs.sort %a network(periodic) : !obs.arr<32 x tuple<i32, i32>> {
  ^bb0(%k1: i32, %v1: i32, %k2: i32, %v2: i32):
    %less = arith.cmpi slt, %k1, %k2 : i32
    obs.yield %less : i1
  }
  obs.return %r : !obs.arr<32 x tuple<i32, i32>>
}

// A tree over a length that is not a power of two.
obs.kernel @sum_i64(%a: !obs.arr<100 x i64>) -> !obs.arr<1 x i64> {
  %sum = obs.reduce %a network(tree) : !obs.arr<100 x i64> -> i64 {
  ^bb0(%x: i64, %y: i64):
    %s = arith.addi %x, %y : i64
    obs.yield %s : i64
  }
  %r = obs.generate : !obs.arr<1 x i64> {
  ^bb0(%i: index):
    obs.yield %sum : i64
  }
  obs.return %r : !obs.arr<1 x i64>
}
