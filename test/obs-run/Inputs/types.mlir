// Kernels over every element type obs-run reads and writes.

obs.kernel @rev_i1(%a: !obs.arr<4 x i1>) -> !obs.arr<4 x i1> {
  %0 = obs.rev %a : !obs.arr<4 x i1>
  obs.return %0 : !obs.arr<4 x i1>
}

obs.kernel @rev_i8(%a: !obs.arr<4 x i8>) -> !obs.arr<4 x i8> {
  %0 = obs.rev %a : !obs.arr<4 x i8>
  obs.return %0 : !obs.arr<4 x i8>
}

obs.kernel @rev_i16(%a: !obs.arr<4 x i16>) -> !obs.arr<4 x i16> {
  %0 = obs.rev %a : !obs.arr<4 x i16>
  obs.return %0 : !obs.arr<4 x i16>
}

obs.kernel @rev_i64(%a: !obs.arr<4 x i64>) -> !obs.arr<4 x i64> {
  %0 = obs.rev %a : !obs.arr<4 x i64>
  obs.return %0 : !obs.arr<4 x i64>
}

obs.kernel @half_f16(%a: !obs.arr<4 x f16>) -> !obs.arr<4 x f16> {
  %h = arith.constant 0.5 : f16
  %0 = obs.map %a : !obs.arr<4 x f16> -> !obs.arr<4 x f16> {
  ^bb0(%x: f16):
    %y = arith.mulf %x, %h : f16
    obs.yield %y : f16
  }
  obs.return %0 : !obs.arr<4 x f16>
}

obs.kernel @half_f32(%a: !obs.arr<4 x f32>) -> !obs.arr<4 x f32> {
  %h = arith.constant 0.5 : f32
  %0 = obs.map %a : !obs.arr<4 x f32> -> !obs.arr<4 x f32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %h : f32
    obs.yield %y : f32
  }
  obs.return %0 : !obs.arr<4 x f32>
}

obs.kernel @half_f64(%a: !obs.arr<4 x f64>) -> !obs.arr<4 x f64> {
  %h = arith.constant 0.5 : f64
  %0 = obs.map %a : !obs.arr<4 x f64> -> !obs.arr<4 x f64> {
  ^bb0(%x: f64):
    %y = arith.mulf %x, %h : f64
    obs.yield %y : f64
  }
  obs.return %0 : !obs.arr<4 x f64>
}

// Pairs of mixed types: (i, x) -> (i + 1, x * 2).
obs.kernel @mixed(%a: !obs.arr<3 x tuple<i32, f32>>) -> !obs.arr<3 x tuple<i32, f32>> {
  %one = arith.constant 1 : i32
  %two = arith.constant 2.0 : f32
  %0 = obs.map %a : !obs.arr<3 x tuple<i32, f32>> -> !obs.arr<3 x tuple<i32, f32>> {
  ^bb0(%i: i32, %x: f32):
    %j = arith.addi %i, %one : i32
    %y = arith.mulf %x, %two : f32
    obs.yield %j, %y : i32, f32
  }
  obs.return %0 : !obs.arr<3 x tuple<i32, f32>>
}

// A 2 x 3 grid with its rows reversed.
obs.kernel @grid(%g: !obs.arr<2 x !obs.arr<3 x i32>>) -> !obs.arr<2 x !obs.arr<3 x i32>> {
  %0 = obs.map %g : !obs.arr<2 x !obs.arr<3 x i32>> -> !obs.arr<2 x !obs.arr<3 x i32>> {
  ^bb0(%row: !obs.arr<3 x i32>):
    %r = obs.rev %row : !obs.arr<3 x i32>
    obs.yield %r : !obs.arr<3 x i32>
  }
  obs.return %0 : !obs.arr<2 x !obs.arr<3 x i32>>
}

// Two results, and a zero-length array.
obs.kernel @split(%a: !obs.arr<4 x i32>, %e: !obs.arr<0 x i32>) -> (!obs.arr<2 x i32>, !obs.arr<2 x i32>, !obs.arr<0 x i32>) {
  %lo, %hi = obs.halve %a : !obs.arr<4 x i32>
  obs.return %hi, %lo, %e : !obs.arr<2 x i32>, !obs.arr<2 x i32>, !obs.arr<0 x i32>
}

// Sums of rows: a fold inside an element function.
obs.kernel @row_sums(%g: !obs.arr<2 x !obs.arr<3 x i32>>) -> !obs.arr<2 x i32> {
  %0 = obs.map %g : !obs.arr<2 x !obs.arr<3 x i32>> -> !obs.arr<2 x i32> {
  ^bb0(%row: !obs.arr<3 x i32>):
    %s = obs.reduce %row : !obs.arr<3 x i32> -> i32 {
    ^bb0(%acc: i32, %x: i32):
      %t = arith.addi %acc, %x : i32
      obs.yield %t : i32
    }
    obs.yield %s : i32
  }
  obs.return %0 : !obs.arr<2 x i32>
}

obs.kernel @rev_f32(%a: !obs.arr<4 x f32>) -> !obs.arr<4 x f32> {
  %0 = obs.rev %a : !obs.arr<4 x f32>
  obs.return %0 : !obs.arr<4 x f32>
}

// The bits of each f32 and f16 as read: a decimal is rounded once, to the
// nearest float of its own format (errors.test).
obs.kernel @bits_f32(%a: !obs.arr<3 x f32>) -> !obs.arr<3 x i32> {
  %r = obs.map %a : !obs.arr<3 x f32> -> !obs.arr<3 x i32> {
  ^bb0(%x: f32):
    %b = arith.bitcast %x : f32 to i32
    obs.yield %b : i32
  }
  obs.return %r : !obs.arr<3 x i32>
}
obs.kernel @bits_f16(%a: !obs.arr<2 x f16>) -> !obs.arr<2 x i16> {
  %r = obs.map %a : !obs.arr<2 x f16> -> !obs.arr<2 x i16> {
  ^bb0(%x: f16):
    %b = arith.bitcast %x : f16 to i16
    obs.yield %b : i16
  }
  obs.return %r : !obs.arr<2 x i16>
}
