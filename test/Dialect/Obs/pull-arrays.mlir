// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(test-obs-materialize))' -split-input-file | FileCheck %s

// Every leaf of an op marked `test.elements` is emitted through
// PullArrayOpInterface with constant indices and folded; the expected values
// are DESIGN section 4's definitions applied by hand to [0..7] (or to the
// input named in the comment), and the papers' outputs where they exist.

// CHECK-LABEL: obs.kernel @permutations
obs.kernel @permutations() -> !obs.arr<8 x i32> {
  %iota = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = arith.index_cast %i : index to i32
    obs.yield %x : i32
  }
  // CHECK: obs.rev {{.*}}test.elements = [7 : i32, 6 : i32, 5 : i32, 4 : i32, 3 : i32, 2 : i32, 1 : i32, 0 : i32]
  %rev = obs.rev %iota {test.elements} : !obs.arr<8 x i32>
  // riffle [0..7] = [0,4,1,5,2,6,3,7] (DESIGN section 4).
  // CHECK: obs.riffle {{.*}}test.elements = [0 : i32, 4 : i32, 1 : i32, 5 : i32, 2 : i32, 6 : i32, 3 : i32, 7 : i32]
  %riffle = obs.riffle %iota {test.elements} : !obs.arr<8 x i32>
  // CHECK: obs.unriffle {{.*}}test.elements = [0 : i32, 2 : i32, 4 : i32, 6 : i32, 1 : i32, 3 : i32, 5 : i32, 7 : i32]
  %unriffle = obs.unriffle %iota {test.elements} : !obs.arr<8 x i32>
  // CHECK: obs.halve {{.*}}test.elements = [0 : i32, 1 : i32, 2 : i32, 3 : i32]
  %lo, %hi = obs.halve %iota {test.elements} : !obs.arr<8 x i32>
  // CHECK: obs.conc {{.*}}test.elements = [4 : i32, 5 : i32, 6 : i32, 7 : i32, 0 : i32, 1 : i32, 2 : i32, 3 : i32]
  %conc = obs.conc %hi, %lo {test.elements} : !obs.arr<4 x i32>, !obs.arr<4 x i32>
  // CHECK: obs.sync {{.*}}test.elements = [7 : i32, 6 : i32, 5 : i32, 4 : i32, 3 : i32, 2 : i32, 1 : i32, 0 : i32]
  %sync = obs.sync %rev {test.elements} : !obs.arr<8 x i32>
  obs.return %sync : !obs.arr<8 x i32>
}

// -----

// CHECK-LABEL: obs.kernel @pairs
obs.kernel @pairs() -> !obs.arr<8 x i32> {
  %iota = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = arith.index_cast %i : index to i32
    obs.yield %x : i32
  }
  // CHECK: obs.pair {{.*}}test.elements = {{\[}}[0 : i32, 1 : i32], [2 : i32, 3 : i32], [4 : i32, 5 : i32], [6 : i32, 7 : i32]]
  %pairs = obs.pair %iota {test.elements} : !obs.arr<8 x i32>
  // CHECK: obs.unpair {{.*}}test.elements = [0 : i32, 1 : i32, 2 : i32, 3 : i32, 4 : i32, 5 : i32, 6 : i32, 7 : i32]
  %flat = obs.unpair %pairs {test.elements} : !obs.arr<4 x tuple<i32, i32>>
  %rev = obs.rev %iota : !obs.arr<8 x i32>
  // CHECK: obs.zip {{.*}}test.elements = {{\[}}[0 : i32, 7 : i32], [1 : i32, 6 : i32], [2 : i32, 5 : i32], [3 : i32, 4 : i32], [4 : i32, 3 : i32], [5 : i32, 2 : i32], [6 : i32, 1 : i32], [7 : i32, 0 : i32]]
  %zip = obs.zip %iota, %rev {test.elements} : !obs.arr<8 x i32>, !obs.arr<8 x i32>
  // CHECK: obs.unzip {{.*}}test.elements = [0 : i32, 1 : i32, 2 : i32, 3 : i32, 4 : i32, 5 : i32, 6 : i32, 7 : i32]
  %first, %second = obs.unzip %zip {test.elements} : !obs.arr<8 x tuple<i32, i32>>
  // CHECK: obs.conc {{.*}}test.elements = [7 : i32, 6 : i32, 5 : i32, 4 : i32, 3 : i32, 2 : i32, 1 : i32, 0 : i32, 0 : i32, 1 : i32
  %both = obs.conc %second, %first {test.elements} : !obs.arr<8 x i32>, !obs.arr<8 x i32>
  obs.return %flat : !obs.arr<8 x i32>
}

// -----

// Seed 001's pAdd = pair ->- fun (\(x,y) -> (x,x+y)) ->- unpair on [1..8]
// gives [1,3,3,7,5,11,7,15].
// CHECK-LABEL: obs.kernel @padd
// CHECK: obs.unpair {{.*}}test.elements = [1 : i32, 3 : i32, 3 : i32, 7 : i32, 5 : i32, 11 : i32, 7 : i32, 15 : i32]
obs.kernel @padd() -> !obs.arr<8 x i32> {
  %input = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %j = arith.addi %i, %c1 : index
    %x = arith.index_cast %j : index to i32
    obs.yield %x : i32
  }
  %p = obs.pair %input : !obs.arr<8 x i32>
  %m = obs.map %p : !obs.arr<4 x tuple<i32, i32>> -> !obs.arr<4 x tuple<i32, i32>> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %x, %s : i32, i32
  }
  %u = obs.unpair %m {test.elements} : !obs.arr<4 x tuple<i32, i32>>
  obs.return %u : !obs.arr<8 x i32>
}

// -----

// CHECK-LABEL: obs.kernel @neighbours
obs.kernel @neighbours() -> !obs.arr<8 x i32> {
  %down = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c7 = arith.constant 7 : index
    %j = arith.subi %c7, %i : index
    %x = arith.index_cast %j : index to i32
    obs.yield %x : i32
  }
  // cmpSwap on (a[2i], a[2i+1]) of [7..0].
  // CHECK: obs.evens {{.*}}test.elements = [6 : i32, 7 : i32, 4 : i32, 5 : i32, 2 : i32, 3 : i32, 0 : i32, 1 : i32]
  %evens = obs.evens %down {test.elements} : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %lo = arith.minsi %x, %y : i32
    %hi = arith.maxsi %x, %y : i32
    obs.yield %lo, %hi : i32, i32
  }
  // cmpSwap on (a[2i+1], a[2i+2]); a[0] and a[7] pass through.
  // CHECK: obs.odds {{.*}}test.elements = [7 : i32, 5 : i32, 6 : i32, 3 : i32, 4 : i32, 1 : i32, 2 : i32, 0 : i32]
  %odds = obs.odds %down {test.elements} : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %lo = arith.minsi %x, %y : i32
    %hi = arith.maxsi %x, %y : i32
    obs.yield %lo, %hi : i32, i32
  }
  // fan (+) on [7..0]: the second half gets a[3] = 4 added.
  // CHECK: obs.fan {{.*}}test.elements = [7 : i32, 6 : i32, 5 : i32, 4 : i32, 7 : i32, 6 : i32, 5 : i32, 4 : i32]
  %fan = obs.fan %down {test.elements} : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %fan : !obs.arr<8 x i32>
}

// -----

// CHECK-LABEL: obs.kernel @programs
obs.kernel @programs() -> !obs.arr<8 x i32> {
  %iota = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = arith.index_cast %i : index to i32
    obs.yield %x : i32
  }
  // CHECK: obs.two {{.*}}test.elements = [3 : i32, 2 : i32, 1 : i32, 0 : i32, 7 : i32, 6 : i32, 5 : i32, 4 : i32]
  %two = obs.two %iota {test.elements} : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %r = obs.rev %h : !obs.arr<4 x i32>
    obs.yield %r : !obs.arr<4 x i32>
  }
  // ilv rev = riffle (two rev (unriffle [0..7])) = riffle [6,4,2,0,7,5,3,1].
  // CHECK: obs.ilv {{.*}}test.elements = [6 : i32, 7 : i32, 4 : i32, 5 : i32, 2 : i32, 3 : i32, 0 : i32, 1 : i32]
  %ilv = obs.ilv %iota {test.elements} : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %r = obs.rev %h : !obs.arr<4 x i32>
    obs.yield %r : !obs.arr<4 x i32>
  }
  // A sub-program may change the length: two (halve.low) keeps a[0..1], a[4..5].
  // CHECK: obs.two {{.*}}test.elements = [0 : i32, 1 : i32, 4 : i32, 5 : i32]
  %shrink = obs.two %iota {test.elements} : !obs.arr<8 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %lo, %hi = obs.halve %h : !obs.arr<4 x i32>
    obs.yield %lo : !obs.arr<2 x i32>
  }
  // riffle twice on 8 elements is unriffle.
  // CHECK: obs.repeat {{.*}}test.elements = [0 : i32, 2 : i32, 4 : i32, 6 : i32, 1 : i32, 3 : i32, 5 : i32, 7 : i32]
  %twice = obs.repeat 2 %iota {test.elements} : !obs.arr<8 x i32> {
  ^bb0(%x: !obs.arr<8 x i32>):
    %r = obs.riffle %x : !obs.arr<8 x i32>
    %s = obs.sync %r : !obs.arr<8 x i32>
    obs.yield %s : !obs.arr<8 x i32>
  }
  // riffle is a perfect shuffle: three of them on 8 elements are the identity.
  // CHECK: obs.repeat {{.*}}test.elements = [0 : i32, 1 : i32, 2 : i32, 3 : i32, 4 : i32, 5 : i32, 6 : i32, 7 : i32]
  %thrice = obs.repeat 3 %iota {test.elements} : !obs.arr<8 x i32> {
  ^bb0(%x: !obs.arr<8 x i32>):
    %r = obs.riffle %x : !obs.arr<8 x i32>
    obs.yield %r : !obs.arr<8 x i32>
  }
  obs.return %two : !obs.arr<8 x i32>
}

// -----

// Seed 001: one rev on [1..8] gives [1,2,3,4,8,7,6,5].
// CHECK-LABEL: obs.kernel @one_rev
// CHECK: obs.one {{.*}}test.elements = [1 : i32, 2 : i32, 3 : i32, 4 : i32, 8 : i32, 7 : i32, 6 : i32, 5 : i32]
obs.kernel @one_rev() -> !obs.arr<8 x i32> {
  %input = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %j = arith.addi %i, %c1 : index
    %x = arith.index_cast %j : index to i32
    obs.yield %x : i32
  }
  %0 = obs.one %input {test.elements} : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %r = obs.rev %h : !obs.arr<4 x i32>
    %s = obs.sync %r : !obs.arr<4 x i32>
    obs.yield %s : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// Seed 002: sklansky 3 (+) on [0..7] gives [0,1,3,6,10,15,21,28].
// CHECK-LABEL: obs.kernel @sklansky3
// CHECK: obs.sync {{.*}}test.elements = [0 : i32, 1 : i32, 3 : i32, 6 : i32, 10 : i32, 15 : i32, 21 : i32, 28 : i32]
obs.kernel @sklansky3() -> !obs.arr<8 x i32> {
  %iota = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = arith.index_cast %i : index to i32
    obs.yield %x : i32
  }
  %0 = obs.two %iota : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%a4: !obs.arr<4 x i32>):
    %1 = obs.two %a4 : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
    ^bb0(%a2: !obs.arr<2 x i32>):
      %2 = obs.fan %a2 : !obs.arr<2 x i32> {
      ^bb0(%x: i32, %y: i32):
        %s = arith.addi %x, %y : i32
        obs.yield %s : i32
      }
      %3 = obs.sync %2 : !obs.arr<2 x i32>
      obs.yield %3 : !obs.arr<2 x i32>
    }
    %4 = obs.fan %1 : !obs.arr<4 x i32> {
    ^bb0(%x: i32, %y: i32):
      %s = arith.addi %x, %y : i32
      obs.yield %s : i32
    }
    %5 = obs.sync %4 : !obs.arr<4 x i32>
    obs.yield %5 : !obs.arr<4 x i32>
  }
  %6 = obs.fan %0 : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %7 = obs.sync %6 {test.elements} : !obs.arr<8 x i32>
  obs.return %7 : !obs.arr<8 x i32>
}

// -----

// Seed 002: mergeOE 3 cmp on [1,3,5,7,2,4,6,8] gives [1..8].
// mergeOE 1 f = evens f; mergeOE n f = ilv (mergeOE (n-1) f) ->- sync ->- odds f.
// CHECK-LABEL: obs.kernel @merge_oe3
// CHECK: obs.odds {{.*}}test.elements = [1 : i32, 2 : i32, 3 : i32, 4 : i32, 5 : i32, 6 : i32, 7 : i32, 8 : i32]
obs.kernel @merge_oe3() -> !obs.arr<8 x i32> {
  // i < 4 ? 2i+1 : 2(i-4)+2
  %input = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %i2 = arith.addi %i, %i : index
    %odd = arith.addi %i2, %c1 : index
    %even = arith.subi %i2, %c6 : index
    %low = arith.cmpi ult, %i, %c4 : index
    %v = arith.select %low, %odd, %even : index
    %x = arith.index_cast %v : index to i32
    obs.yield %x : i32
  }
  %0 = obs.ilv %input : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%a4: !obs.arr<4 x i32>):
    %1 = obs.ilv %a4 : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
    ^bb0(%a2: !obs.arr<2 x i32>):
      %2 = obs.evens %a2 : !obs.arr<2 x i32> {
      ^bb0(%x: i32, %y: i32):
        %lo = arith.minsi %x, %y : i32
        %hi = arith.maxsi %x, %y : i32
        obs.yield %lo, %hi : i32, i32
      }
      obs.yield %2 : !obs.arr<2 x i32>
    }
    %3 = obs.sync %1 : !obs.arr<4 x i32>
    %4 = obs.odds %3 : !obs.arr<4 x i32> {
    ^bb0(%x: i32, %y: i32):
      %lo = arith.minsi %x, %y : i32
      %hi = arith.maxsi %x, %y : i32
      obs.yield %lo, %hi : i32, i32
    }
    obs.yield %4 : !obs.arr<4 x i32>
  }
  %5 = obs.sync %0 : !obs.arr<8 x i32>
  %6 = obs.odds %5 {test.elements} : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %lo = arith.minsi %x, %y : i32
    %hi = arith.maxsi %x, %y : i32
    obs.yield %lo, %hi : i32, i32
  }
  obs.return %6 : !obs.arr<8 x i32>
}

// -----

// Nested arrays: grid[i][j] = 10 i + j; rows reversed; one row read out.
// CHECK-LABEL: obs.kernel @nested
obs.kernel @nested() -> !obs.arr<2 x !obs.arr<3 x i32>> {
  %grid = obs.generate : !obs.arr<2 x !obs.arr<3 x i32>> {
  ^bb0(%i: index):
    %row = obs.generate : !obs.arr<3 x i32> {
    ^bb0(%j: index):
      %c10 = arith.constant 10 : index
      %t = arith.muli %i, %c10 : index
      %v = arith.addi %t, %j : index
      %x = arith.index_cast %v : index to i32
      obs.yield %x : i32
    }
    obs.yield %row : !obs.arr<3 x i32>
  }
  // CHECK: obs.map {{.*}}test.elements = [2 : i32, 1 : i32, 0 : i32, 12 : i32, 11 : i32, 10 : i32]
  %revRows = obs.map %grid {test.elements} : !obs.arr<2 x !obs.arr<3 x i32>> -> !obs.arr<2 x !obs.arr<3 x i32>> {
  ^bb0(%row: !obs.arr<3 x i32>):
    %r = obs.rev %row : !obs.arr<3 x i32>
    obs.yield %r : !obs.arr<3 x i32>
  }
  // CHECK: obs.rev {{.*}}test.elements = [10 : i32, 11 : i32, 12 : i32, 0 : i32, 1 : i32, 2 : i32]
  %revGrid = obs.rev %grid {test.elements} : !obs.arr<2 x !obs.arr<3 x i32>>
  %c1 = arith.constant 1 : index
  // CHECK: obs.index {{.*}}test.elements = [12 : i32, 11 : i32, 10 : i32]
  %row1 = obs.index %revRows[%c1] {test.elements} : !obs.arr<2 x !obs.arr<3 x i32>>
  // Element j of row i: the last of each row, as a map over rows to scalars.
  // CHECK: obs.map {{.*}}test.elements = [2 : i32, 12 : i32]
  %last = obs.map %grid {test.elements} : !obs.arr<2 x !obs.arr<3 x i32>> -> !obs.arr<2 x i32> {
  ^bb0(%row: !obs.arr<3 x i32>):
    %c2 = arith.constant 2 : index
    %x = obs.index %row[%c2] : !obs.arr<3 x i32>
    obs.yield %x : i32
  }
  obs.return %revRows : !obs.arr<2 x !obs.arr<3 x i32>>
}

// -----

// The index function as IR: rev reads a[7 - i] from the kernel argument.
// CHECK-LABEL: obs.kernel @symbolic
// CHECK: %[[G:.*]] = obs.generate : !obs.arr<8 x f32> {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK: %[[C7:.*]] = arith.constant 7 : index
// CHECK: %[[J:.*]] = arith.subi %[[C7]], %[[I]] : index
// CHECK: %[[X:.*]] = obs.index %arg0[%[[J]]] : !obs.arr<8 x f32>
// CHECK: obs.yield %[[X]] : f32
// CHECK: obs.return %[[G]]
obs.kernel @symbolic(%a: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> {
  %0 = obs.rev %a {test.materialize} : !obs.arr<8 x f32>
  obs.return %0 : !obs.arr<8 x f32>
}

// -----

// A fold stays a loop over the elements in the index function.
// CHECK-LABEL: obs.kernel @sums
// CHECK: obs.generate : !obs.arr<2 x i32> {
// CHECK: %[[ROW:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) {
// CHECK: %[[X:.*]] = obs.index %{{.*}}[%{{.*}}] : !obs.arr<4 x i32>
// CHECK: %[[S:.*]] = arith.addi %[[ACC]], %[[X]] : i32
// CHECK: scf.yield %[[S]] : i32
obs.kernel @sums(%g: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x i32> {
  %0 = obs.map %g {test.materialize} : !obs.arr<2 x !obs.arr<4 x i32>> -> !obs.arr<2 x i32> {
  ^bb0(%row: !obs.arr<4 x i32>):
    %s = obs.reduce %row : !obs.arr<4 x i32> -> i32 {
    ^bb0(%acc: i32, %x: i32):
      %t = arith.addi %acc, %x : i32
      obs.yield %t : i32
    }
    obs.yield %s : i32
  }
  obs.return %0 : !obs.arr<2 x i32>
}
