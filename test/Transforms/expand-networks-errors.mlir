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
  // expected-error @+1 {{'obs.scan' op combine cannot be evaluated on constants, so its laws (associativity, the identity) cannot be checked: every op of it must fold on constants, and every loop end within 4096 iterations}}
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
