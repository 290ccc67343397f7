// The program's own host function @erf, which its entry @round (a C
// library name too) calls, next to a kernel whose element code calls
// math.erf (library-names.test).
func.func @erf(%x: f64) -> f64 {
  %c = arith.constant 42.0 : f64
  return %c : f64
}
obs.kernel @k(%a: !obs.arr<4 x f64>) -> !obs.arr<4 x f64> attributes {threads = 4} {
  %m = obs.map %a : !obs.arr<4 x f64> -> !obs.arr<4 x f64> {
  ^bb0(%x: f64):
    %y = math.erf %x : f64
    obs.yield %y : f64
  }
  obs.return %m : !obs.arr<4 x f64>
}
func.func @round(%in: memref<4xf64>, %out: memref<4xf64>, %own: memref<1xf64>) {
  obs.launch @k grid(1) ins(%in : memref<4xf64>) outs(%out : memref<4xf64>)
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f64
  %e = func.call @erf(%one) : (f64) -> f64
  memref.store %e, %own[%c0] : memref<1xf64>
  return
}
