// Programs that MLIR's canonicalizer turned into others that compute
// something else, before obs's proof and in its lowerings (see
// test/obs-run/sound-canonicalization.test for the right answers).

// -100 to 100 over i8: 200 trips, whose difference wraps in i8.
obs.kernel @trip_i8() -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %lo = arith.constant -100 : i8
    %hi = arith.constant 100 : i8
    %step = arith.constant 1 : i8
    %zero = arith.constant 0 : i32
    %trips = scf.for %t = %lo to %hi step %step iter_args(%n = %zero) -> (i32) : i8 {
      %one = arith.constant 1 : i32
      %next = arith.addi %n, %one : i32
      scf.yield %next : i32
    }
    obs.yield %trips : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -2^63 to 2^63 - 1 by 2^62 over i64: 4 trips.
obs.kernel @trip_i64() -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %lo = arith.constant -9223372036854775808 : i64
    %hi = arith.constant 9223372036854775807 : i64
    %step = arith.constant 4611686018427387904 : i64
    %zero = arith.constant 0 : i32
    %trips = scf.for %t = %lo to %hi step %step iter_args(%n = %zero) -> (i32) : i64 {
      %one = arith.constant 1 : i32
      %next = arith.addi %n, %one : i32
      scf.yield %next : i32
    }
    obs.yield %trips : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -2^31 to 2^31 - 1 by 2^31 - 1 over i32: 3 trips (-2^31, -1, 2^31 - 2).
obs.kernel @trip_wide_step() -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %lo = arith.constant -2147483648 : i32
    %hi = arith.constant 2147483647 : i32
    %step = arith.constant 2147483647 : i32
    %zero = arith.constant 0 : i32
    %trips = scf.for %t = %lo to %hi step %step iter_args(%n = %zero) -> (i32) : i32 {
      %one = arith.constant 1 : i32
      %next = arith.addi %n, %one : i32
      scf.yield %next : i32
    }
    obs.yield %trips : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// i + 100 through i8 and back: 100 to 127, then -128 up.
obs.kernel @narrow_index_cast() -> !obs.arr<32 x i32> attributes {threads = 32} {
  %r = obs.generate : !obs.arr<32 x i32> {
  ^bb0(%i: index):
    %c100 = arith.constant 100 : index
    %a = arith.addi %i, %c100 : index
    %b = arith.index_cast %a : index to i8
    %c = arith.index_cast %b : i8 to index
    %d = arith.index_cast %c : index to i32
    obs.yield %d : i32
  }
  obs.return %r : !obs.arr<32 x i32>
}

// i + 250 through i8 and back, unsigned: 250 to 255, then 0 up.
obs.kernel @narrow_index_castui() -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c250 = arith.constant 250 : index
    %a = arith.addi %i, %c250 : index
    %b = arith.index_castui %a : index to i8
    %c = arith.index_castui %b : i8 to index
    %d = arith.index_cast %c : index to i32
    obs.yield %d : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// Thread i reads element i through i1: odd threads read index -1.
obs.kernel @cast_hides_outside(%x: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %b = arith.index_cast %i : index to i1
    %j = arith.index_cast %b : i1 to index
    %v = obs.index %x[%j] : !obs.arr<8 x i32>
    obs.yield %v : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// 2^60 + 2^36 + x to f64, then to f32, as bits: rounded twice.
obs.kernel @double_rounding(%input: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %result = obs.map %input : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %a = arith.extsi %x : i32 to i64
    %c = arith.constant 1152921573326323712 : i64
    %b = arith.addi %a, %c : i64
    %d = arith.sitofp %b : i64 to f64
    %f = arith.truncf %d : f64 to f32
    %bits = arith.bitcast %f : f32 to i32
    obs.yield %bits : i32
  }
  obs.return %result : !obs.arr<8 x i32>
}

obs.kernel @double_rounding_unsigned(%input: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %result = obs.map %input : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %a = arith.extui %x : i32 to i64
    %c = arith.constant 1152921573326323712 : i64
    %b = arith.addi %a, %c : i64
    %d = arith.uitofp %b : i64 to f64
    %f = arith.truncf %d : f64 to f32
    %bits = arith.bitcast %f : f32 to i32
    obs.yield %bits : i32
  }
  obs.return %result : !obs.arr<8 x i32>
}

// The same loop in host code.
func.func @host_trip_i8(%out: memref<1xi32>) {
  %lo = arith.constant -100 : i8
  %hi = arith.constant 100 : i8
  %step = arith.constant 1 : i8
  %zero = arith.constant 0 : i32
  %trips = scf.for %t = %lo to %hi step %step iter_args(%n = %zero) -> (i32) : i8 {
    %one = arith.constant 1 : i32
    %next = arith.addi %n, %one : i32
    scf.yield %next : i32
  }
  %c0 = arith.constant 0 : index
  memref.store %trips, %out[%c0] : memref<1xi32>
  return
}
