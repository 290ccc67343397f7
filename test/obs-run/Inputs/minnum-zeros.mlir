// A running minimum by arith.minnumf over +0, -0, -0, 1, 1, ...
// (defined-arithmetic.test): of two zeros, minnumf gives -0 where either is.
obs.kernel @running_min(%a: !obs.arr<1000 x f32>) -> !obs.arr<1000 x f32> attributes {threads = 96} {
  %s = obs.scan %a : !obs.arr<1000 x f32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.minnumf %x, %y : f32
    obs.yield %z : f32
  }
  obs.return %s : !obs.arr<1000 x f32>
}
