// A chain of 24 stages without a sync, each reading its predecessor at i and
// i + 1 (test/Dialect/Obs/canonicalize-doubling.test): as pull arrays it
// reads 2^24 elements per output.
obs.kernel @k(%in: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %g0 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %in[%i] : !obs.arr<64 x i32>
    %v = obs.index %in[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g0[%i] : !obs.arr<64 x i32>
    %v = obs.index %g0[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g2 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g1[%i] : !obs.arr<64 x i32>
    %v = obs.index %g1[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g3 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g2[%i] : !obs.arr<64 x i32>
    %v = obs.index %g2[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g4 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g3[%i] : !obs.arr<64 x i32>
    %v = obs.index %g3[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g5 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g4[%i] : !obs.arr<64 x i32>
    %v = obs.index %g4[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g6 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g5[%i] : !obs.arr<64 x i32>
    %v = obs.index %g5[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g7 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g6[%i] : !obs.arr<64 x i32>
    %v = obs.index %g6[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g8 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g7[%i] : !obs.arr<64 x i32>
    %v = obs.index %g7[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g9 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g8[%i] : !obs.arr<64 x i32>
    %v = obs.index %g8[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g10 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g9[%i] : !obs.arr<64 x i32>
    %v = obs.index %g9[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g11 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g10[%i] : !obs.arr<64 x i32>
    %v = obs.index %g10[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g12 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g11[%i] : !obs.arr<64 x i32>
    %v = obs.index %g11[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g13 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g12[%i] : !obs.arr<64 x i32>
    %v = obs.index %g12[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g14 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g13[%i] : !obs.arr<64 x i32>
    %v = obs.index %g13[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g15 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g14[%i] : !obs.arr<64 x i32>
    %v = obs.index %g14[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g16 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g15[%i] : !obs.arr<64 x i32>
    %v = obs.index %g15[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g17 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g16[%i] : !obs.arr<64 x i32>
    %v = obs.index %g16[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g18 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g17[%i] : !obs.arr<64 x i32>
    %v = obs.index %g17[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g19 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g18[%i] : !obs.arr<64 x i32>
    %v = obs.index %g18[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g20 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g19[%i] : !obs.arr<64 x i32>
    %v = obs.index %g19[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g21 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g20[%i] : !obs.arr<64 x i32>
    %v = obs.index %g20[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g22 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g21[%i] : !obs.arr<64 x i32>
    %v = obs.index %g21[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %g23 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %j0 = arith.addi %i, %c1 : index
    %j = arith.remui %j0, %n : index
    %u = obs.index %g22[%i] : !obs.arr<64 x i32>
    %v = obs.index %g22[%j] : !obs.arr<64 x i32>
    %s = arith.addi %u, %v : i32
    obs.yield %s : i32
  }
  %s = obs.sync %g23 : !obs.arr<64 x i32>
  obs.return %s : !obs.arr<64 x i32>
}
