// Loops whose trip count depends on data, in element code
// (test/obs-run/data-loops.test).

// The halvings of each element until it is at most 1 (scf.while), then the
// array reversed.
obs.kernel @halvings(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %m = obs.map %s : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %zero = arith.constant 0 : i32
    %r:2 = scf.while (%v = %x, %n = %zero) : (i32, i32) -> (i32, i32) {
      %one = arith.constant 1 : i32
      %big = arith.cmpi sgt, %v, %one : i32
      scf.condition(%big) %v, %n : i32, i32
    } do {
    ^bb0(%v: i32, %n: i32):
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %half = arith.divsi %v, %two : i32
      %next = arith.addi %n, %one : i32
      scf.yield %half, %next : i32, i32
    }
    obs.yield %r#1 : i32
  }
  %t = obs.sync %m : !obs.arr<64 x i32>
  %r = obs.rev %t : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// 0 + 1 + ... + (x - 1) for each element x: an scf.for whose bound is data.
obs.kernel @triangle(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %m = obs.map %a : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.index_cast %x : i32 to index
    %zero = arith.constant 0 : i32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
      %ii = arith.index_cast %i : index to i32
      %next = arith.addi %acc, %ii : i32
      scf.yield %next : i32
    }
    obs.yield %sum : i32
  }
  %t = obs.sync %m : !obs.arr<64 x i32>
  obs.return %t : !obs.arr<64 x i32>
}
