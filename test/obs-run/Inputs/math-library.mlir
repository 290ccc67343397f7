// Math ops that LLVM has no intrinsic for, in element code
// (test/obs-run/math-library.test).

obs.kernel @erf(%x: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> attributes {threads = 8} {
  %r = obs.map %x : !obs.arr<8 x f32> -> !obs.arr<8 x f32> {
  ^bb0(%v: f32):
    %s = math.erf %v : f32
    obs.yield %s : f32
  }
  obs.return %r : !obs.arr<8 x f32>
}

obs.kernel @erfc(%x: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> attributes {threads = 8} {
  %r = obs.map %x : !obs.arr<8 x f32> -> !obs.arr<8 x f32> {
  ^bb0(%v: f32):
    %s = math.erfc %v : f32
    obs.yield %s : f32
  }
  obs.return %r : !obs.arr<8 x f32>
}

obs.kernel @acosh(%x: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> attributes {threads = 8} {
  %r = obs.map %x : !obs.arr<8 x f32> -> !obs.arr<8 x f32> {
  ^bb0(%v: f32):
    %s = math.acosh %v : f32
    obs.yield %s : f32
  }
  obs.return %r : !obs.arr<8 x f32>
}

obs.kernel @asinh(%x: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> attributes {threads = 8} {
  %r = obs.map %x : !obs.arr<8 x f32> -> !obs.arr<8 x f32> {
  ^bb0(%v: f32):
    %s = math.asinh %v : f32
    obs.yield %s : f32
  }
  obs.return %r : !obs.arr<8 x f32>
}

obs.kernel @atanh(%x: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> attributes {threads = 8} {
  %r = obs.map %x : !obs.arr<8 x f32> -> !obs.arr<8 x f32> {
  ^bb0(%v: f32):
    %s = math.atanh %v : f32
    obs.yield %s : f32
  }
  obs.return %r : !obs.arr<8 x f32>
}

obs.kernel @cbrt(%x: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> attributes {threads = 8} {
  %r = obs.map %x : !obs.arr<8 x f32> -> !obs.arr<8 x f32> {
  ^bb0(%v: f32):
    %s = math.cbrt %v : f32
    obs.yield %s : f32
  }
  obs.return %r : !obs.arr<8 x f32>
}


// expm1 and log1p, in f32 and f64, whose small arguments are what they
// exist for.
obs.kernel @small_expm1(%x: !obs.arr<4 x f32>, %y: !obs.arr<4 x f64>) -> (!obs.arr<4 x f32>, !obs.arr<4 x f64>) attributes {threads = 4} {
  %r = obs.map %x : !obs.arr<4 x f32> -> !obs.arr<4 x f32> {
  ^bb0(%v: f32):
    %s = math.expm1 %v : f32
    obs.yield %s : f32
  }
  %q = obs.map %y : !obs.arr<4 x f64> -> !obs.arr<4 x f64> {
  ^bb0(%v: f64):
    %s = math.expm1 %v : f64
    obs.yield %s : f64
  }
  obs.return %r, %q : !obs.arr<4 x f32>, !obs.arr<4 x f64>
}

obs.kernel @small_log1p(%x: !obs.arr<4 x f32>, %y: !obs.arr<4 x f64>) -> (!obs.arr<4 x f32>, !obs.arr<4 x f64>) attributes {threads = 4} {
  %r = obs.map %x : !obs.arr<4 x f32> -> !obs.arr<4 x f32> {
  ^bb0(%v: f32):
    %s = math.log1p %v : f32
    obs.yield %s : f32
  }
  %q = obs.map %y : !obs.arr<4 x f64> -> !obs.arr<4 x f64> {
  ^bb0(%v: f64):
    %s = math.log1p %v : f64
    obs.yield %s : f64
  }
  obs.return %r, %q : !obs.arr<4 x f32>, !obs.arr<4 x f64>
}
