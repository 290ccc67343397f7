// Conversions to bfloat16 whose results are subnormal
// (test/obs-run/bfloat16-subnormals.test).

// Each f32, given by its bits, to bf16's bits.
obs.kernel @truncate(%a: !obs.arr<5 x i32>) -> !obs.arr<5 x i16> {
  %r = obs.map %a : !obs.arr<5 x i32> -> !obs.arr<5 x i16> {
  ^bb0(%x: i32):
    %f = arith.bitcast %x : i32 to f32
    %t = arith.truncf %f : f32 to bf16
    %o = arith.bitcast %t : bf16 to i16
    obs.yield %o : i16
  }
  obs.return %r : !obs.arr<5 x i16>
}

// 1 divided by each bf16, given by its bits, in bf16.
obs.kernel @reciprocal(%a: !obs.arr<2 x i16>) -> !obs.arr<2 x i16> {
  %r = obs.map %a : !obs.arr<2 x i16> -> !obs.arr<2 x i16> {
  ^bb0(%x: i16):
    %f = arith.bitcast %x : i16 to bf16
    %one = arith.constant 1.0 : bf16
    %q = arith.divf %one, %f : bf16
    %o = arith.bitcast %q : bf16 to i16
    obs.yield %o : i16
  }
  obs.return %r : !obs.arr<2 x i16>
}
