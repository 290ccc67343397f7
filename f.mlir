obs.kernel @k(%a: !obs.arr<5 x f64>) -> !obs.arr<1 x f64> attributes {threads = 2} {
  %sum = obs.reduce %a : !obs.arr<5 x f64> -> f64 {
  ^bb0(%x: f64, %y: f64):
    %s = arith.addf %x, %y : f64
    obs.yield %s : f64
  }
  %r = obs.generate : !obs.arr<1 x f64> {
  ^bb0(%i: index):
    obs.yield %sum : f64
  }
  obs.return %r : !obs.arr<1 x f64>
}
