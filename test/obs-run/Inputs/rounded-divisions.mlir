// Floor and ceiling divisions that upstream computed wrongly
// (test/obs-run/rounded-divisions.test).

// x ceildiv y for each pair, from the data.
obs.kernel @ceil_data(%a: !obs.arr<6 x i32>, %b: !obs.arr<6 x i32>) -> !obs.arr<6 x i32> {
  %r = obs.zip %a, %b : !obs.arr<6 x i32>, !obs.arr<6 x i32>
  %q = obs.map %r : !obs.arr<6 x tuple<i32, i32>> -> !obs.arr<6 x i32> {
  ^bb0(%x: i32, %y: i32):
    %c = arith.ceildivsi %x, %y : i32
    obs.yield %c : i32
  }
  obs.return %q : !obs.arr<6 x i32>
}

// The least i32 ceildiv 2, 3 and 7, and 7 ceildiv -2, from constants,
// which the range analysis decided.
obs.kernel @ceil_constants() -> !obs.arr<4 x i32> {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %min = arith.constant -2147483648 : i32
    %seven = arith.constant 7 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c7 = arith.constant 7 : i32
    %m2 = arith.constant -2 : i32
    %q0 = arith.ceildivsi %min, %c2 : i32
    %q1 = arith.ceildivsi %min, %c3 : i32
    %q2 = arith.ceildivsi %min, %c7 : i32
    %q3 = arith.ceildivsi %seven, %m2 : i32
    %c1 = arith.constant 1 : index
    %c2i = arith.constant 2 : index
    %c3i = arith.constant 3 : index
    %is1 = arith.cmpi eq, %i, %c1 : index
    %is2 = arith.cmpi eq, %i, %c2i : index
    %is3 = arith.cmpi eq, %i, %c3i : index
    %s3 = arith.select %is3, %q3, %q0 : i32
    %s2 = arith.select %is2, %q2, %s3 : i32
    %s1 = arith.select %is1, %q1, %s2 : i32
    obs.yield %s1 : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

// a floordiv b over i128 (the i64 data sign-extended), as its low and
// high 64 bits: element 2k the low word of pair k, 2k + 1 its high word.
obs.kernel @floor_i128(%a: !obs.arr<4 x i64>, %b: !obs.arr<4 x i64>) -> !obs.arr<8 x i64> {
  %r = obs.generate : !obs.arr<8 x i64> {
  ^bb0(%i: index):
    %c2 = arith.constant 2 : index
    %k = arith.divui %i, %c2 : index
    %half = arith.remui %i, %c2 : index
    %x = obs.index %a[%k] : !obs.arr<4 x i64>
    %y = obs.index %b[%k] : !obs.arr<4 x i64>
    %x2 = arith.extsi %x : i64 to i128
    %y2 = arith.extsi %y : i64 to i128
    %q = arith.floordivsi %x2, %y2 : i128
    %c64 = arith.constant 64 : i128
    %hi = arith.shrsi %q, %c64 : i128
    %h = arith.trunci %hi : i128 to i64
    %l = arith.trunci %q : i128 to i64
    %c1 = arith.constant 1 : index
    %high = arith.cmpi eq, %half, %c1 : index
    %o = arith.select %high, %h, %l : i64
    obs.yield %o : i64
  }
  obs.return %r : !obs.arr<8 x i64>
}

// The same in host code.
func.func @host_floor_i128(%a: memref<4xi64>, %b: memref<4xi64>, %out: memref<8xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : i128
  scf.for %k = %c0 to %c4 step %c1 {
    %x = memref.load %a[%k] : memref<4xi64>
    %y = memref.load %b[%k] : memref<4xi64>
    %x2 = arith.extsi %x : i64 to i128
    %y2 = arith.extsi %y : i64 to i128
    %q = arith.floordivsi %x2, %y2 : i128
    %hi = arith.shrsi %q, %c64 : i128
    %h = arith.trunci %hi : i128 to i64
    %l = arith.trunci %q : i128 to i64
    %two = arith.constant 2 : index
    %lo_at = arith.muli %k, %two : index
    %hi_at = arith.addi %lo_at, %c1 : index
    memref.store %l, %out[%lo_at] : memref<8xi64>
    memref.store %h, %out[%hi_at] : memref<8xi64>
  }
  return
}
