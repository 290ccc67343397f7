// Element code the proof and the lowering must take as every target
// computes it (element-code-loops.test); found by an adversarial run.

// An index computed in i128: i * 2^64 >> 64 is i, where the simulation,
// which kept 64 bits, took it to be 0. It read element (2i mod 8) of the
// staged array, which the proof took to be the thread's own element, so
// obs-promote-registers kept the array in registers: [2, 3, ..., 9] on
// cpu, where ref gives [2, 4, 6, 8, 2, 4, 6, 8].
obs.kernel @wide_index(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %one = arith.constant 1 : i32
  %m = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %s = obs.sync %m : !obs.arr<8 x i32>
  %t = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i128
    %c = arith.constant 4294967296 : i128
    %s32 = arith.constant 32 : i128
    %p = arith.muli %ii, %c : i128
    %b = arith.muli %p, %c : i128
    %d1 = arith.shrui %b, %s32 : i128
    %d2 = arith.shrui %d1, %s32 : i128
    %g = arith.index_cast %d2 : i128 to index
    %sum = arith.addi %i, %g : index
    %c8 = arith.constant 8 : index
    %f = arith.remui %sum, %c8 : index
    %v = obs.index %s[%f] : !obs.arr<8 x i32>
    obs.yield %v : i32
  }
  %u = obs.sync %t : !obs.arr<8 x i32>
  %r = obs.map %u : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// An i8 loop inside an scf.while, from 0 below trunci(x) by 2: for x = 127,
// k = 0, 2, ..., 126, whose sum is 4032. It was left with the i8 counter,
// which wraps past 127 and never ends (every target hung).
obs.kernel @while_nested_for(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %c0 = arith.constant 0 : i8
    %c2 = arith.constant 2 : i8
    %ub = arith.trunci %x : i32 to i8
    %t = arith.constant true
    %f = arith.constant false
    %w:2 = scf.while (%go = %t, %v = %x) : (i1, i32) -> (i1, i32) {
      scf.condition(%go) %go, %v : i1, i32
    } do {
    ^bb1(%g: i1, %v2: i32):
      %s = scf.for %k = %c0 to %ub step %c2 iter_args(%acc = %v2) -> (i32) : i8 {
        %kk = arith.extsi %k : i8 to i32
        %a2 = arith.addi %acc, %kk : i32
        scf.yield %a2 : i32
      }
      scf.yield %f, %s : i1, i32
    }
    %y = arith.addi %w#1, %x : i32
    obs.yield %y : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// An i64 loop from 0 below x by 2^62: for x = 2^63 - 1, k = 0 and 2^62
// (the next, 2^63, is past i64), two trips; one for x in 1..7. The
// counter wrapped from 2^62 + 2^62 to -2^63, below x, and every target
// hung.
obs.kernel @step_past_width(%a: !obs.arr<8 x i64>) -> !obs.arr<8 x i64> attributes {threads = 8} {
  %r = obs.map %a : !obs.arr<8 x i64> -> !obs.arr<8 x i64> {
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : i64
    %st = arith.constant 4611686018427387904 : i64
    %one = arith.constant 1 : i64
    %s = scf.for %k = %c0 to %x step %st iter_args(%acc = %c0) -> (i64) : i64 {
      %a2 = arith.addi %acc, %one : i64
      scf.yield %a2 : i64
    }
    obs.yield %s : i64
  }
  obs.return %r : !obs.arr<8 x i64>
}
