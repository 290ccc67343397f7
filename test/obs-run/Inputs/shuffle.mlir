// Arrays in shuffles (issue 17): each thread keeps the elements it
// computed, and a lane reads another lane's by shfl.sync.

// A warp's Kogge-Stone step at distance 1, storage written:
// out[i] = a[i] + a[i - 1] where i mod 32 > 0, else a[i].
obs.kernel @ks64(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %0 = obs.sync shuffle %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c31 = arith.constant 31 : index
    %x = obs.index %0[%i] : !obs.arr<64 x i32>
    %lane = arith.andi %i, %c31 : index
    %has = arith.cmpi uge, %lane, %c1 : index
    %im1 = arith.subi %i, %c1 : index
    %j = arith.select %has, %im1, %i : index
    %y = obs.index %0[%j] : !obs.arr<64 x i32>
    %r = scf.if %has -> (i32) {
      %s = arith.addi %x, %y : i32
      scf.yield %s : i32
    } else {
      scf.yield %x : i32
    }
    obs.yield %r : i32
  }
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// The same with the storage left open, for obs-promote-registers.
obs.kernel @ks64_open(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c31 = arith.constant 31 : index
    %x = obs.index %0[%i] : !obs.arr<64 x i32>
    %lane = arith.andi %i, %c31 : index
    %has = arith.cmpi uge, %lane, %c1 : index
    %im1 = arith.subi %i, %c1 : index
    %j = arith.select %has, %im1, %i : index
    %y = obs.index %0[%j] : !obs.arr<64 x i32>
    %r = scf.if %has -> (i32) {
      %s = arith.addi %x, %y : i32
      scf.yield %s : i32
    } else {
      scf.yield %x : i32
    }
    obs.yield %r : i32
  }
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// 40 threads, the second warp of 8 lanes: out[i] = a[i xor 1] * 1000 + a[i].
obs.kernel @xor40(%a: !obs.arr<40 x i32>) -> !obs.arr<40 x i32> attributes {threads = 40} {
  %0 = obs.sync shuffle %a : !obs.arr<40 x i32>
  %1 = obs.generate : !obs.arr<40 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : i32
    %j = arith.xori %i, %c1 : index
    %x = obs.index %0[%j] : !obs.arr<40 x i32>
    %own = obs.index %0[%i] : !obs.arr<40 x i32>
    %m = arith.muli %x, %c1000 : i32
    %r = arith.addi %m, %own : i32
    obs.yield %r : i32
  }
  %2 = obs.sync %1 : !obs.arr<40 x i32>
  obs.return %2 : !obs.arr<40 x i32>
}

// Two rounds of 64-bit elements on one warp: out[i] = a[(i + 1) mod 64].
obs.kernel @rot64(%a: !obs.arr<64 x i64>) -> !obs.arr<64 x i64> attributes {threads = 32} {
  %0 = obs.sync shuffle strided<32> %a : !obs.arr<64 x i64>
  %1 = obs.generate : !obs.arr<64 x i64> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %n = arith.addi %i, %c1 : index
    %j = arith.andi %n, %c63 : index
    %x = obs.index %0[%j] : !obs.arr<64 x i64>
    obs.yield %x : i64
  }
  %2 = obs.sync strided<32> %1 : !obs.arr<64 x i64>
  obs.return %2 : !obs.arr<64 x i64>
}

// Each lane but a warp's last takes its right neighbour's element, the
// last its own: shfl.sync.down by 1, whose last lane keeps its value.
// out[i] = a[i + 1] * 1000 + a[i] where i mod 32 < 31, else a[i] * 1001.
obs.kernel @down64(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %0 = obs.sync shuffle %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c31 = arith.constant 31 : index
    %c1000 = arith.constant 1000 : i32
    %lane = arith.andi %i, %c31 : index
    %inner = arith.cmpi ult, %lane, %c31 : index
    %ip1 = arith.addi %i, %c1 : index
    %j = arith.select %inner, %ip1, %i : index
    %x = obs.index %0[%j] : !obs.arr<64 x i32>
    %own = obs.index %0[%i] : !obs.arr<64 x i32>
    %m = arith.muli %x, %c1000 : i32
    %r = arith.addi %m, %own : i32
    obs.yield %r : i32
  }
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// Every lane takes lane 5's element of its warp (a broadcast: shfl.sync.idx
// from a constant lane), on 48 threads, the second warp partial.
// out[i] = a[i - i mod 32 + 5] * 1000 + a[i].
obs.kernel @bcast48(%a: !obs.arr<48 x i32>) -> !obs.arr<48 x i32> attributes {threads = 48} {
  %0 = obs.sync shuffle %a : !obs.arr<48 x i32>
  %1 = obs.generate : !obs.arr<48 x i32> {
  ^bb0(%i: index):
    %c5 = arith.constant 5 : index
    %c31 = arith.constant 31 : index
    %c1000 = arith.constant 1000 : i32
    %lane = arith.andi %i, %c31 : index
    %base = arith.subi %i, %lane : index
    %j = arith.addi %base, %c5 : index
    %x = obs.index %0[%j] : !obs.arr<48 x i32>
    %own = obs.index %0[%i] : !obs.arr<48 x i32>
    %m = arith.muli %x, %c1000 : i32
    %r = arith.addi %m, %own : i32
    obs.yield %r : i32
  }
  %2 = obs.sync %1 : !obs.arr<48 x i32>
  obs.return %2 : !obs.arr<48 x i32>
}

// A compare-and-swap at distance 4 on two warps, each output element from
// the pair's two reads, one of them the lane's own: out[i] = the pair's
// smaller times 1000 plus its larger where bit 2 of i is clear, the larger
// times 1000 less the smaller where it is set.
obs.kernel @cas64(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %0 = obs.sync shuffle %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %c1000 = arith.constant 1000 : i32
    %bit = arith.andi %i, %c4 : index
    %lo = arith.subi %i, %bit : index
    %hi = arith.ori %i, %c4 : index
    %x = obs.index %0[%lo] : !obs.arr<64 x i32>
    %y = obs.index %0[%hi] : !obs.arr<64 x i32>
    %small = arith.minsi %x, %y : i32
    %large = arith.maxsi %x, %y : i32
    %first = arith.cmpi eq, %bit, %c0 : index
    %s = arith.muli %small, %c1000 : i32
    %l = arith.muli %large, %c1000 : i32
    %f = arith.addi %s, %large : i32
    %g = arith.subi %l, %small : i32
    %r = arith.select %first, %f, %g : i32
    obs.yield %r : i32
  }
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// Storage left open, each element the sum of four neighbours of its warp
// (wrapping within the warp) read in a loop: a shuffle there is refused
// (the cpu target cannot exchange inside a loop), so the array stays in
// shared memory, and the kernel runs on every target.
obs.kernel @loop64(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c31 = arith.constant 31 : index
    %cm = arith.constant -32 : index
    %z = arith.constant 0 : i32
    %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (i32) {
      %ik = arith.addi %i, %k : index
      %lo = arith.andi %ik, %c31 : index
      %hi = arith.andi %i, %cm : index
      %j = arith.ori %hi, %lo : index
      %x = obs.index %0[%j] : !obs.arr<64 x i32>
      %s = arith.addi %acc, %x : i32
      scf.yield %s : i32
    }
    obs.yield %r : i32
  }
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// The same on 40 threads: the second warp has 8 lanes, and each pair's
// partner is among them.
obs.kernel @cas40(%a: !obs.arr<40 x i32>) -> !obs.arr<40 x i32> attributes {threads = 40} {
  %0 = obs.sync shuffle %a : !obs.arr<40 x i32>
  %1 = obs.generate : !obs.arr<40 x i32> {
  ^bb0(%i: index):
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %c1000 = arith.constant 1000 : i32
    %bit = arith.andi %i, %c4 : index
    %lo = arith.subi %i, %bit : index
    %hi = arith.ori %i, %c4 : index
    %x = obs.index %0[%lo] : !obs.arr<40 x i32>
    %y = obs.index %0[%hi] : !obs.arr<40 x i32>
    %small = arith.minsi %x, %y : i32
    %large = arith.maxsi %x, %y : i32
    %first = arith.cmpi eq, %bit, %c0 : index
    %s = arith.muli %small, %c1000 : i32
    %l = arith.muli %large, %c1000 : i32
    %f = arith.addi %s, %large : i32
    %g = arith.subi %l, %small : i32
    %r = arith.select %first, %f, %g : i32
    obs.yield %r : i32
  }
  %2 = obs.sync %1 : !obs.arr<40 x i32>
  obs.return %2 : !obs.arr<40 x i32>
}
