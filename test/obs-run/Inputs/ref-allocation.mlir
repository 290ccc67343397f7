// An array of 2^32 - 1 i64 that only the ref target keeps in a buffer of
// its own (test/obs-run/ref-allocation.test): element i is i, and the
// kernel returns elements 0, 10^9, 2 10^9 and 3 10^9.
obs.kernel @k(%a: !obs.arr<4 x i64>) -> !obs.arr<4 x i64> {
  %g = obs.generate : !obs.arr<4294967295 x i64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    obs.yield %v : i64
  }
  %r = obs.generate : !obs.arr<4 x i64> {
  ^bb0(%i: index):
    %c = arith.constant 1000000000 : index
    %j = arith.muli %i, %c : index
    %v = obs.index %g[%j] : !obs.arr<4294967295 x i64>
    obs.yield %v : i64
  }
  obs.return %r : !obs.arr<4 x i64>
}
