// Element code whose MLIR meaning is undefined somewhere, with the meaning
// obs gives it on every target (docs/Rationale.md, "Element code has no
// undefined behaviour"). test/obs-run/defined-arithmetic.test runs each.

// a / b and a % b, signed and unsigned: x / 0 is 0, x % 0 is x, MIN / -1
// is MIN and MIN % -1 is 0. a << b, a >> b (arithmetic and logical, with
// flags that would make an overflow poison): a shift by 32 or more gives
// 0, or the sign.
obs.kernel @divsi(%a: !obs.arr<8 x i32>, %b: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    %y = obs.index %b[%i] : !obs.arr<8 x i32>
    %z = arith.divsi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

obs.kernel @remsi(%a: !obs.arr<8 x i32>, %b: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    %y = obs.index %b[%i] : !obs.arr<8 x i32>
    %z = arith.remsi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

obs.kernel @divui(%a: !obs.arr<8 x i32>, %b: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    %y = obs.index %b[%i] : !obs.arr<8 x i32>
    %z = arith.divui %x, %y exact : i32
    obs.yield %z : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

obs.kernel @remui(%a: !obs.arr<8 x i32>, %b: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    %y = obs.index %b[%i] : !obs.arr<8 x i32>
    %z = arith.remui %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

obs.kernel @ceildivsi(%a: !obs.arr<8 x i32>, %b: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    %y = obs.index %b[%i] : !obs.arr<8 x i32>
    %z = arith.ceildivsi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

obs.kernel @floordivsi(%a: !obs.arr<8 x i32>, %b: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    %y = obs.index %b[%i] : !obs.arr<8 x i32>
    %z = arith.floordivsi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

obs.kernel @shli(%a: !obs.arr<8 x i32>, %b: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    %y = obs.index %b[%i] : !obs.arr<8 x i32>
    %z = arith.shli %x, %y overflow<nsw, nuw> : i32
    obs.yield %z : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

obs.kernel @shrsi(%a: !obs.arr<8 x i32>, %b: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    %y = obs.index %b[%i] : !obs.arr<8 x i32>
    %z = arith.shrsi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

obs.kernel @shrui(%a: !obs.arr<8 x i32>, %b: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    %y = obs.index %b[%i] : !obs.arr<8 x i32>
    %z = arith.shrui %x, %y exact : i32
    obs.yield %z : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// Indices computed by what was undefined: a shift by 64 (0), a remainder
// by zero (element 0's: 7 % 0 = 7), poison (0), an nsw add that wraps:
// each reads inside the array, as the proof saw it.
obs.kernel @indices(%x: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c64 = arith.constant 64 : index
    %max = arith.constant 9223372036854775807 : index
    %gone = arith.shli %c1, %c64 : index
    %k = arith.addi %gone, %i : index
    %a = obs.index %x[%k] : !obs.arr<8 x i32>
    %j = arith.remsi %c7, %i : index
    %b = obs.index %x[%j] : !obs.arr<8 x i32>
    %p = ub.poison : index
    %c = obs.index %x[%p] : !obs.arr<8 x i32>
    // i + MAX wraps to i + MIN, below MAX: the select takes i + MAX + 1 + MAX + 1 = i.
    %w = arith.addi %i, %max overflow<nsw> : index
    %below = arith.cmpi slt, %w, %max : index
    %back = arith.addi %w, %max overflow<nsw> : index
    %back1 = arith.addi %back, %c1 overflow<nsw> : index
    %wk = arith.addi %back1, %c1 overflow<nsw> : index
    %pick = arith.select %below, %wk, %c7 : index
    %d = obs.index %x[%pick] : !obs.arr<8 x i32>
    %ab = arith.addi %a, %b : i32
    %cd = arith.addi %c, %d : i32
    %s = arith.muli %ab, %cd : i32
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// A float converts to an integer saturated, NaN to 0.
obs.kernel @fptosi(%f: !obs.arr<8 x f32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.map %f : !obs.arr<8 x f32> -> !obs.arr<8 x i32> {
  ^bb0(%x: f32):
    %s = arith.fptosi %x : f32 to i32
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

obs.kernel @fptoui(%f: !obs.arr<8 x f32>) -> !obs.arr<8 x i8> attributes {threads = 8} {
  %r = obs.map %f : !obs.arr<8 x f32> -> !obs.arr<8 x i8> {
  ^bb0(%x: f32):
    %u = arith.fptoui %x : f32 to i8
    obs.yield %u : i8
  }
  obs.return %r : !obs.arr<8 x i8>
}

// Loops over i8: unsigned from 0 to 250 by 3 (250 is -6 signed), adding
// v + k / 40; signed from 0 to 120 by 100, adding v + k, which MLIR stops
// after 100 (an i8 counter would wrap to -56 and go on).
obs.kernel @loop_unsigned(%x: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.map %x : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%v: i32):
    %c0 = arith.constant 0 : i8
    %c3 = arith.constant 3 : i8
    %c40 = arith.constant 40 : i8
    %c250 = arith.constant 250 : i8
    %z = arith.constant 0 : i32
    %u = scf.for unsigned %k = %c0 to %c250 step %c3 iter_args(%a = %z) -> (i32) : i8 {
      %q = arith.divui %k, %c40 : i8
      %w = arith.extui %q : i8 to i32
      %n = arith.addi %a, %w : i32
      %m = arith.addi %n, %v : i32
      scf.yield %m : i32
    }
    obs.yield %u : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// An unsigned loop over index from 2^63 - 2 below 2^63 + 2 (the bound
// -2^63 + 2 as a signed integer) in thread 0, below 2^63 - 1 elsewhere:
// thread 0's counter runs 2^63 - 2, 2^63 - 1, 2^63 and 2^63 + 1, the last
// two negative as signed integers, so it adds 1 + 1 + 100 + 100 = 202; the
// others run once and add 1. MLIR's range analysis read the bounds as
// signed, and the cpu target folded `k < 0` to false (4 in thread 0).
obs.kernel @loop_unsigned_wide(%x: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %lb = arith.constant 9223372036854775806 : index
    %wide = arith.constant -9223372036854775806 : index
    %max = arith.constant 9223372036854775807 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %hundred = arith.constant 100 : i32
    %first = arith.cmpi eq, %i, %c0 : index
    %ub = arith.select %first, %wide, %max : index
    %s = scf.for unsigned %k = %lb to %ub step %c1 iter_args(%a = %zero) -> (i32) : index {
      %negative = arith.cmpi slt, %k, %c0 : index
      %add = arith.select %negative, %hundred, %one : i32
      %n = arith.addi %a, %add : i32
      scf.yield %n : i32
    }
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

// The same loop reading x[4 (k - (2^63 - 3))]: thread 0's counters read
// 4, 8, 12 and 16 of 8 elements, outside from the second. The bounds check
// was folded away with the comparison, and the cpu target read past the
// array.
obs.kernel @loop_unsigned_wide_index(%x: !obs.arr<8 x i32>) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %base = arith.constant 9223372036854775805 : index
    %lb0 = arith.constant 9223372036854775806 : index
    %wide = arith.constant -9223372036854775806 : index
    %max = arith.constant 9223372036854775807 : index
    %zero = arith.constant 0 : i32
    %first = arith.cmpi eq, %i, %c0 : index
    %ub = arith.select %first, %wide, %max : index
    %lb = arith.select %first, %lb0, %base : index
    %s = scf.for unsigned %k = %lb to %ub step %c1 iter_args(%a = %zero) -> (i32) : index {
      %d = arith.subi %k, %base : index
      %j = arith.muli %d, %c4 : index
      %v = obs.index %x[%j] : !obs.arr<8 x i32>
      %n = arith.addi %a, %v : i32
      scf.yield %n : i32
    }
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

// Index arithmetic that wraps as unsigned numbers, under the emitter's
// identities of division by constants: ((i - 10) * 4) divui 2 is
// (2^64 + 4i - 40) / 2 = 2^63 + 2i - 20; (v - 4) remui 3 and divui 3, v
// 10 or 11 as i is even or odd, are 6 or 7 mod 3 (0, 1) and div 3 (2, 2). The emitter took
// a result's bound for a sign that the sum or product did not wrap, and
// the cpu target gave 2i - 20, then 1, 2 and 2^64 / 3 + 2.
obs.kernel @wrapping_index(%x: !obs.arr<4 x i32>) -> (!obs.arr<4 x i64>, !obs.arr<4 x i64>, !obs.arr<4 x i64>) attributes {threads = 4} {
  %product = obs.generate : !obs.arr<4 x i64> {
  ^bb0(%i: index):
    %c10 = arith.constant 10 : index
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %y = arith.subi %i, %c10 : index
    %q = arith.muli %y, %c4 : index
    %d = arith.divui %q, %c2 : index
    %o = arith.index_cast %d : index to i64
    obs.yield %o : i64
  }
  %remainder = obs.generate : !obs.arr<4 x i64> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c3 = arith.constant 3 : index
    %minus4 = arith.constant -4 : index
    %c11 = arith.constant 11 : index
    %bit = arith.andi %i, %c1 : index
    %odd = arith.cmpi eq, %bit, %c1 : index
    %v = arith.select %odd, %c11, %c10 : index
    %sum = arith.addi %minus4, %v : index
    %m = arith.remui %sum, %c3 : index
    %o = arith.index_cast %m : index to i64
    obs.yield %o : i64
  }
  %quotient = obs.generate : !obs.arr<4 x i64> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c3 = arith.constant 3 : index
    %minus4 = arith.constant -4 : index
    %c11 = arith.constant 11 : index
    %bit = arith.andi %i, %c1 : index
    %odd = arith.cmpi eq, %bit, %c1 : index
    %v = arith.select %odd, %c11, %c10 : index
    %sum = arith.addi %minus4, %v : index
    %m = arith.divui %sum, %c3 : index
    %o = arith.index_cast %m : index to i64
    obs.yield %o : i64
  }
  obs.return %product, %remainder, %quotient : !obs.arr<4 x i64>, !obs.arr<4 x i64>, !obs.arr<4 x i64>
}

obs.kernel @loop_signed(%x: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.map %x : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%v: i32):
    %c0 = arith.constant 0 : i8
    %c100 = arith.constant 100 : i8
    %c120 = arith.constant 120 : i8
    %z = arith.constant 0 : i32
    %s = scf.for %k = %c0 to %c120 step %c100 iter_args(%a = %z) -> (i32) : i8 {
      %w = arith.extsi %k : i8 to i32
      %n = arith.addi %a, %w : i32
      %m = arith.addi %n, %v : i32
      scf.yield %m : i32
    }
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// A loop from 0 to 10 by a step from the data (the sum of its counters):
// one whose step is not positive runs no iteration.
obs.kernel @loop_data_step(%x: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %r = obs.map %x : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%v: i32):
    %i0 = arith.constant 0 : i32
    %i10 = arith.constant 10 : i32
    %d = scf.for %k = %i0 to %i10 step %v iter_args(%a = %i0) -> (i32) : i32 {
      %n = arith.addi %a, %k : i32
      scf.yield %n : i32
    }
    obs.yield %d : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// fptosi of f16, which has no -2^31 or -2^63: saturated, -inf to the least
// integer (it gave -65504, the least finite f16, on every target).
obs.kernel @f16_to_i32(%a: !obs.arr<4 x f16>) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<4 x f16>
    %z = arith.fptosi %x : f16 to i32
    obs.yield %z : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}
obs.kernel @f16_to_i64(%a: !obs.arr<4 x f16>) -> !obs.arr<4 x i64> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i64> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<4 x f16>
    %z = arith.fptosi %x : f16 to i64
    obs.yield %z : i64
  }
  obs.return %r : !obs.arr<4 x i64>
}
