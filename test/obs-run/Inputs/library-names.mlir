// A kernel named like a C library function, whose element code calls that
// function (library-names.test).
obs.kernel @erf(%a: !obs.arr<4 x f64>) -> !obs.arr<4 x f64> attributes {threads = 4} {
  %m = obs.map %a : !obs.arr<4 x f64> -> !obs.arr<4 x f64> {
  ^bb0(%x: f64):
    %y = math.erf %x : f64
    obs.yield %y : f64
  }
  obs.return %m : !obs.arr<4 x f64>
}
