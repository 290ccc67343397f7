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

