// A loop of 10^12 iterations whose one read of shared memory is under a
// branch never taken (test/obs-run/defined-arithmetic.test).
obs.kernel @long_loop(%x: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %s = obs.sync %x : !obs.arr<64 x i32>
  %r = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000000000000 : index
    %c63 = arith.constant 63 : index
    %z = arith.constant 0 : i32
    %w = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
      %never = arith.cmpi eq, %k, %n : index
      %e = scf.if %never -> (i32) {
        %kk = arith.andi %k, %c63 : index
        %v = obs.index %s[%kk] : !obs.arr<64 x i32>
        scf.yield %v : i32
      } else {
        scf.yield %acc : i32
      }
      scf.yield %e : i32
    }
    %v2 = obs.index %s[%i] : !obs.arr<64 x i32>
    %o = arith.addi %w, %v2 : i32
    obs.yield %o : i32
  }
  %t = obs.sync %r : !obs.arr<64 x i32>
  obs.return %t : !obs.arr<64 x i32>
}
