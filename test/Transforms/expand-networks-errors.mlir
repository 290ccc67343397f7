// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks))' --verify-diagnostics

// A network reassociates its combine, which the reference target folds left
// to right: a combine that is not associative would make the targets
// disagree, so it is rejected where its region folds to constants, with
// three elements that show it.

obs.kernel @difference_scan(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.scan' op combine is not associative, which every plan assumes: (1 : i32), (1 : i32) and (1 : i32) combine to (-1 : i32) from the left but to (1 : i32) from the right}}
  %s = obs.scan %a network(sklansky) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %d = arith.subi %x, %y : i32
    obs.yield %d : i32
  }
  obs.return %s : !obs.arr<8 x i32>
}

// -----

obs.kernel @average_tree(%a: !obs.arr<8 x f32>) -> !obs.arr<1 x f32> {
  // expected-error @+1 {{'obs.reduce' op combine is not associative}}
  %r = obs.reduce %a network(tree) : !obs.arr<8 x f32> -> f32 {
  ^bb0(%x: f32, %y: f32):
    %half = arith.constant 0.5 : f32
    %s = arith.addf %x, %y : f32
    %m = arith.mulf %s, %half : f32
    obs.yield %m : f32
  }
  %g = obs.generate : !obs.arr<1 x f32> {
  ^bb0(%i: index):
    obs.yield %r : f32
  }
  obs.return %g : !obs.arr<1 x f32>
}

// -----

// Without a network a combine that is not associative on the samples stays
// folded left to right on every target: the serial default, which would
// reassociate it, is not taken, and nothing is reported.
obs.kernel @difference_sequential(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %s = obs.scan %a : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %d = arith.subi %x, %y : i32
    obs.yield %d : i32
  }
  obs.return %s : !obs.arr<8 x i32>
}


// -----

// A difference inside a one-trip loop: the check skipped what it could not
// fold, and accepted it. Loops run on the samples now.
obs.kernel @scan_difference_in_loop(%a: !obs.arr<16 x i32>) -> !obs.arr<16 x i32> attributes {threads = 4} {
  // expected-error @+1 {{'obs.scan' op combine is not associative, which every plan assumes: (1 : i32), (1 : i32) and (1 : i32) combine to (-1 : i32) from the left but to (1 : i32) from the right}}
  %s = obs.scan %a network(sklansky) : !obs.arr<16 x i32> {
  ^bb0(%x: i32, %y: i32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%acc = %x) -> (i32) {
      %d = arith.subi %acc, %y : i32
      scf.yield %d : i32
    }
    obs.yield %r : i32
  }
  obs.return %s : !obs.arr<16 x i32>
}

// -----

// A combine the samples cannot evaluate (a loop past 4,096 trips) under a
// network is not checked, and so not accepted.
obs.kernel @scan_unevaluated(%a: !obs.arr<16 x i32>) -> !obs.arr<16 x i32> attributes {threads = 4} {
  // expected-error @+1 {{'obs.scan' op combine cannot be evaluated on constants, so its laws (associativity, the identity) cannot be checked: every op of it must fold on constants, and its loops end within 4096 iterations in all}}
  %s = obs.scan %a network(sklansky) : !obs.arr<16 x i32> {
  ^bb0(%x: i32, %y: i32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %many = arith.constant 100000 : index
    %r = scf.for %k = %c0 to %many step %c1 iter_args(%acc = %x) -> (i32) {
      scf.yield %acc : i32
    }
    %s = arith.addi %r, %y : i32
    obs.yield %s : i32
  }
  obs.return %s : !obs.arr<16 x i32>
}

// -----

// Combines an adversarial run found accepted, whose scans then changed
// with --threads. A minimum whose ties compare a second key by a
// difference: each scalar takes its extra values with the others 0.
obs.kernel @argmin_by_difference(%a: !obs.arr<8 x tuple<i32, i32>>) -> !obs.arr<8 x tuple<i32, i32>> {
  // expected-error @+1 {{'obs.scan' op combine is not associative, which every plan assumes}}
  %r = obs.scan %a network(sklansky) : !obs.arr<8 x tuple<i32, i32>> {
  ^bb0(%k1: i32, %i1: i32, %k2: i32, %i2: i32):
    %lt = arith.cmpi slt, %k1, %k2 : i32
    %eq = arith.cmpi eq, %k1, %k2 : i32
    %d = arith.subi %i1, %i2 : i32
    %c0 = arith.constant 0 : i32
    %dl = arith.cmpi slt, %d, %c0 : i32
    %tie = arith.andi %eq, %dl : i1
    %left = arith.ori %lt, %tie : i1
    %k = arith.select %left, %k1, %k2 : i32
    %i = arith.select %left, %i1, %i2 : i32
    obs.yield %k, %i : i32, i32
  }
  obs.return %r : !obs.arr<8 x tuple<i32, i32>>
}

// -----

// A window whose bounds the region captures (canonicalization hoists
// constants out of regions): sampled near as its own constants are.
obs.kernel @captured_window(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %lo = arith.constant 1000 : i32
  %hi = arith.constant 2000 : i32
  // expected-error @+1 {{'obs.scan' op combine is not associative, which every plan assumes}}
  %r = obs.scan %a network(sklansky) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    %g = arith.cmpi sgt, %s, %lo : i32
    %l = arith.cmpi slt, %s, %hi : i32
    %w = arith.andi %g, %l : i1
    %m = arith.select %w, %lo, %s : i32
    obs.yield %m : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// A float sum clamped at 1000: floats take the whole numbers near their
// constants too, whose sums are exact.
obs.kernel @float_clamp(%a: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> {
  // expected-error @+1 {{'obs.scan' op combine is not associative, which every plan assumes}}
  %r = obs.scan %a network(sklansky) : !obs.arr<8 x f32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %c = arith.constant 1000.0 : f32
    %m = arith.minimumf %s, %c : f32
    obs.yield %m : f32
  }
  obs.return %r : !obs.arr<8 x f32>
}

// -----

// Two nested loops of 4,000 iterations each: the iterations are counted
// per evaluation, all loops together (per loop, each sample ran 16 million
// and the check never ended).
obs.kernel @nested_loops(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.scan' op combine cannot be evaluated on constants, so its laws (associativity, the identity) cannot be checked: every op of it must fold on constants, and its loops end within 4096 iterations in all}}
  %r = obs.scan %a network(sklansky) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 4000 : index
    %z = arith.constant 0 : i32
    %outer = scf.for %i = %c0 to %n step %c1 iter_args(%o = %z) -> (i32) {
      %inner = scf.for %j = %c0 to %n step %c1 iter_args(%p = %o) -> (i32) {
        scf.yield %p : i32
      }
      scf.yield %inner : i32
    }
    %s = arith.addi %x, %y : i32
    %t = arith.addi %s, %outer : i32
    obs.yield %t : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// A window built from a shift: sums in [1024, 2048) drop their low bits.
// The powers of two a shift by a constant bounds are sampled near (a third
// adversarial run: its scan of 2,048 ones ended at 2,048, not 1,024).
obs.kernel @shift_window(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.scan' op combine is not associative, which every plan assumes}}
  %r = obs.scan %a network(sklansky) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %k = arith.constant 10 : i32
    %one = arith.constant 1 : i32
    %s = arith.addi %x, %y : i32
    %h = arith.shrsi %s, %k : i32
    %w = arith.cmpi eq, %h, %one : i32
    %low = arith.shli %h, %k : i32
    %m = arith.select %w, %low, %s : i32
    obs.yield %m : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// A float clamp at a constant that is not whole: sampled near the whole
// numbers on either side (its scan changed with --threads).
obs.kernel @clamp_at_a_half(%a: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> {
  // expected-error @+1 {{'obs.scan' op combine is not associative, which every plan assumes}}
  %r = obs.scan %a network(sklansky) : !obs.arr<8 x f32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %c = arith.constant 1000.5 : f32
    %m = arith.minimumf %s, %c : f32
    obs.yield %m : f32
  }
  obs.return %r : !obs.arr<8 x f32>
}
