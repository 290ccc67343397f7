// RUN: obs-opt %s --canonicalize --split-input-file --allow-unregistered-dialect | FileCheck %s

// Each law of DESIGN section 4 fires where it holds for all inputs, and a
// look-alike where it does not hold is left alone.

// CHECK-LABEL: obs.kernel @rev_rev
// CHECK-NEXT: obs.return %arg0
obs.kernel @rev_rev(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.rev %a : !obs.arr<8 x i32>
  %1 = obs.rev %0 : !obs.arr<8 x i32>
  obs.return %1 : !obs.arr<8 x i32>
}

// -----

// Reversing one element is the identity; reversing a riffle is not.
// CHECK-LABEL: obs.kernel @rev_not_law
// CHECK: %[[R:.*]] = obs.riffle %arg1
// CHECK: %[[V:.*]] = obs.rev %[[R]]
// CHECK: obs.return %arg0, %[[V]]
obs.kernel @rev_not_law(%one: !obs.arr<1 x i32>, %a: !obs.arr<8 x i32>) -> (!obs.arr<1 x i32>, !obs.arr<8 x i32>) {
  %0 = obs.rev %one : !obs.arr<1 x i32>
  %1 = obs.riffle %a : !obs.arr<8 x i32>
  %2 = obs.rev %1 : !obs.arr<8 x i32>
  obs.return %0, %2 : !obs.arr<1 x i32>, !obs.arr<8 x i32>
}

// -----

// CHECK-LABEL: obs.kernel @riffle_unriffle
// CHECK-NEXT: obs.return %arg0, %arg0, %arg1
obs.kernel @riffle_unriffle(%a: !obs.arr<8 x i32>, %two: !obs.arr<2 x i32>) -> (!obs.arr<8 x i32>, !obs.arr<8 x i32>, !obs.arr<2 x i32>) {
  %0 = obs.riffle %a : !obs.arr<8 x i32>
  %1 = obs.unriffle %0 : !obs.arr<8 x i32>
  %2 = obs.unriffle %a : !obs.arr<8 x i32>
  %3 = obs.riffle %2 : !obs.arr<8 x i32>
  // Riffling two elements moves nothing.
  %4 = obs.riffle %two : !obs.arr<2 x i32>
  obs.return %1, %3, %4 : !obs.arr<8 x i32>, !obs.arr<8 x i32>, !obs.arr<2 x i32>
}

// -----

// Two riffles of 8 elements are not the identity (three are: that is not a
// law for all lengths, so it is not applied either).
// CHECK-LABEL: obs.kernel @riffle_riffle
// CHECK: %[[R1:.*]] = obs.riffle %arg0
// CHECK: %[[R2:.*]] = obs.riffle %[[R1]]
// CHECK: %[[R3:.*]] = obs.riffle %[[R2]]
// CHECK: obs.return %[[R3]]
obs.kernel @riffle_riffle(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.riffle %a : !obs.arr<8 x i32>
  %1 = obs.riffle %0 : !obs.arr<8 x i32>
  %2 = obs.riffle %1 : !obs.arr<8 x i32>
  obs.return %2 : !obs.arr<8 x i32>
}

// -----

// CHECK-LABEL: obs.kernel @halve_conc
// CHECK-NEXT: obs.return %arg0
obs.kernel @halve_conc(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %lo, %hi = obs.halve %a : !obs.arr<8 x i32>
  %0 = obs.conc %lo, %hi : !obs.arr<4 x i32>, !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// The halves swapped are a rotation, not the identity.
// CHECK-LABEL: obs.kernel @halve_conc_swapped
// CHECK: %[[LO:.*]], %[[HI:.*]] = obs.halve %arg0
// CHECK: %[[C:.*]] = obs.conc %[[HI]], %[[LO]]
// CHECK: obs.return %[[C]]
obs.kernel @halve_conc_swapped(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %lo, %hi = obs.halve %a : !obs.arr<8 x i32>
  %0 = obs.conc %hi, %lo : !obs.arr<4 x i32>, !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// CHECK-LABEL: obs.kernel @conc_halve
// CHECK-NEXT: obs.return %arg1, %arg0
obs.kernel @conc_halve(%a: !obs.arr<4 x i32>, %b: !obs.arr<4 x i32>) -> (!obs.arr<4 x i32>, !obs.arr<4 x i32>) {
  %0 = obs.conc %a, %b : !obs.arr<4 x i32>, !obs.arr<4 x i32>
  %lo, %hi = obs.halve %0 : !obs.arr<8 x i32>
  obs.return %hi, %lo : !obs.arr<4 x i32>, !obs.arr<4 x i32>
}

// -----

// When the parts differ in length, halve does not split where conc joined.
// CHECK-LABEL: obs.kernel @conc_halve_unequal
// CHECK: %[[C:.*]] = obs.conc %arg0, %arg1
// CHECK: %[[LO:.*]], %[[HI:.*]] = obs.halve %[[C]]
// CHECK: obs.return %[[LO]], %[[HI]]
obs.kernel @conc_halve_unequal(%a: !obs.arr<2 x i32>, %b: !obs.arr<6 x i32>) -> (!obs.arr<4 x i32>, !obs.arr<4 x i32>) {
  %0 = obs.conc %a, %b : !obs.arr<2 x i32>, !obs.arr<6 x i32>
  %lo, %hi = obs.halve %0 : !obs.arr<8 x i32>
  obs.return %lo, %hi : !obs.arr<4 x i32>, !obs.arr<4 x i32>
}

// -----

// Seed 001, equations (1) and (2).
// CHECK-LABEL: obs.kernel @pair_unpair
// CHECK-NEXT: obs.return %arg0, %arg1
obs.kernel @pair_unpair(%a: !obs.arr<8 x i32>, %p: !obs.arr<4 x tuple<i32, i32>>) -> (!obs.arr<8 x i32>, !obs.arr<4 x tuple<i32, i32>>) {
  %0 = obs.pair %a : !obs.arr<8 x i32>
  %1 = obs.unpair %0 : !obs.arr<4 x tuple<i32, i32>>
  %2 = obs.unpair %p : !obs.arr<4 x tuple<i32, i32>>
  %3 = obs.pair %2 : !obs.arr<8 x i32>
  obs.return %1, %3 : !obs.arr<8 x i32>, !obs.arr<4 x tuple<i32, i32>>
}

// -----

// A sync between pair and unpair is a stage the user asked for: kept.
// CHECK-LABEL: obs.kernel @pair_sync_unpair
// CHECK: %[[P:.*]] = obs.pair %arg0
// CHECK: %[[S:.*]] = obs.sync %[[P]]
// CHECK: %[[U:.*]] = obs.unpair %[[S]]
// CHECK: obs.return %[[U]]
obs.kernel @pair_sync_unpair(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.pair %a : !obs.arr<8 x i32>
  %1 = obs.sync %0 : !obs.arr<4 x tuple<i32, i32>>
  %2 = obs.unpair %1 : !obs.arr<4 x tuple<i32, i32>>
  obs.return %2 : !obs.arr<8 x i32>
}

// -----

// CHECK-LABEL: obs.kernel @zip_unzip
// CHECK-NEXT: obs.return %arg0, %arg1, %arg2
obs.kernel @zip_unzip(%a: !obs.arr<4 x i32>, %b: !obs.arr<4 x f32>, %p: !obs.arr<4 x tuple<i32, f32>>) -> (!obs.arr<4 x i32>, !obs.arr<4 x f32>, !obs.arr<4 x tuple<i32, f32>>) {
  %0 = obs.zip %a, %b : !obs.arr<4 x i32>, !obs.arr<4 x f32>
  %1, %2 = obs.unzip %0 : !obs.arr<4 x tuple<i32, f32>>
  %3, %4 = obs.unzip %p : !obs.arr<4 x tuple<i32, f32>>
  %5 = obs.zip %3, %4 : !obs.arr<4 x i32>, !obs.arr<4 x f32>
  obs.return %1, %2, %5 : !obs.arr<4 x i32>, !obs.arr<4 x f32>, !obs.arr<4 x tuple<i32, f32>>
}

// -----

// Zipping the parts of a pair in the other order swaps them: not the pair.
// CHECK-LABEL: obs.kernel @zip_unzip_swapped
// CHECK: %[[A:.*]], %[[B:.*]] = obs.unzip %arg0
// CHECK: %[[Z:.*]] = obs.zip %[[B]], %[[A]]
// CHECK: obs.return %[[Z]]
obs.kernel @zip_unzip_swapped(%p: !obs.arr<4 x tuple<i32, i32>>) -> !obs.arr<4 x tuple<i32, i32>> {
  %0, %1 = obs.unzip %p : !obs.arr<4 x tuple<i32, i32>>
  %2 = obs.zip %1, %0 : !obs.arr<4 x i32>, !obs.arr<4 x i32>
  obs.return %2 : !obs.arr<4 x tuple<i32, i32>>
}

// -----

// Map fusion: map g (map f a) = map (g . f) a.
// CHECK-LABEL: obs.kernel @map_fusion
// CHECK: %[[M:.*]] = obs.map %arg0, %arg1 : !obs.arr<4 x i32>, !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32):
// CHECK-NEXT: %[[F:.*]] = arith.muli %[[X]], %[[X]] : i32
// CHECK-NEXT: %[[G:.*]] = arith.addi %[[F]], %[[Y]] : i32
// CHECK-NEXT: obs.yield %[[G]] : i32
// CHECK-NOT: obs.map
// CHECK: obs.return %[[M]]
obs.kernel @map_fusion(%a: !obs.arr<4 x i32>, %b: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %0 = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %sq = arith.muli %x, %x : i32
    obs.yield %sq : i32
  }
  %1 = obs.map %0, %b : !obs.arr<4 x i32>, !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %1 : !obs.arr<4 x i32>
}

// -----

// A sync between two maps separates stages: no fusion across it.
// CHECK-LABEL: obs.kernel @map_sync_map
// CHECK: obs.map %arg0
// CHECK: obs.sync
// CHECK: obs.map
obs.kernel @map_sync_map(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %0 = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %sq = arith.muli %x, %x : i32
    obs.yield %sq : i32
  }
  %1 = obs.sync %0 : !obs.arr<4 x i32>
  %2 = obs.map %1 : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %s = arith.addi %x, %x : i32
    obs.yield %s : i32
  }
  obs.return %2 : !obs.arr<4 x i32>
}

// -----

// Seed 001: evens f = pair ->- fun f ->- unpair.
// CHECK-LABEL: obs.kernel @padd_is_evens
// CHECK: %[[E:.*]] = obs.evens %arg0 : !obs.arr<8 x i32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32):
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[X]], %[[Y]] : i32
// CHECK-NEXT: obs.yield %[[X]], %[[S]] : i32, i32
// CHECK: obs.return %[[E]]
obs.kernel @padd_is_evens(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %p = obs.pair %a : !obs.arr<8 x i32>
  %m = obs.map %p : !obs.arr<4 x tuple<i32, i32>> -> !obs.arr<4 x tuple<i32, i32>> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %x, %s : i32, i32
  }
  %u = obs.unpair %m : !obs.arr<4 x tuple<i32, i32>>
  obs.return %u : !obs.arr<8 x i32>
}

// -----

// A map that changes the element type between pair and unpair is not an
// evens (evens keeps the array's type).
// CHECK-LABEL: obs.kernel @pair_map_unpair_converts
// CHECK: obs.pair
// CHECK: obs.map
// CHECK: obs.unpair
// CHECK-NOT: obs.evens
obs.kernel @pair_map_unpair_converts(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x f32> {
  %p = obs.pair %a : !obs.arr<8 x i32>
  %m = obs.map %p : !obs.arr<4 x tuple<i32, i32>> -> !obs.arr<4 x tuple<f32, f32>> {
  ^bb0(%x: i32, %y: i32):
    %fx = arith.sitofp %x : i32 to f32
    %fy = arith.sitofp %y : i32 to f32
    obs.yield %fx, %fy : f32, f32
  }
  %u = obs.unpair %m : !obs.arr<4 x tuple<f32, f32>>
  obs.return %u : !obs.arr<8 x f32>
}

// -----

// Seed 001's derivation of pAdd': pfy pAdd = unpair ->- pair ->- fun f ->-
// unpair ->- pair, and with unpair ->- pair = id it is fun f on the pairs.
// CHECK-LABEL: obs.kernel @pfy_padd
// CHECK-NEXT: %[[M:.*]] = obs.map %arg0 : !obs.arr<4 x tuple<i32, i32>> -> !obs.arr<4 x tuple<i32, i32>> {
// CHECK: obs.return %[[M]]
obs.kernel @pfy_padd(%pairs: !obs.arr<4 x tuple<i32, i32>>) -> !obs.arr<4 x tuple<i32, i32>> {
  %0 = obs.unpair %pairs : !obs.arr<4 x tuple<i32, i32>>
  %1 = obs.pair %0 : !obs.arr<8 x i32>
  %2 = obs.map %1 : !obs.arr<4 x tuple<i32, i32>> -> !obs.arr<4 x tuple<i32, i32>> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %x, %s : i32, i32
  }
  %3 = obs.unpair %2 : !obs.arr<4 x tuple<i32, i32>>
  %4 = obs.pair %3 : !obs.arr<8 x i32>
  obs.return %4 : !obs.arr<4 x tuple<i32, i32>>
}

// -----

// (mkArr f n) ! i = f i, (fmap f a) ! i = f (a ! i), and permutations
// compose at the index.
// CHECK-LABEL: obs.kernel @index_laws
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG: %[[K:.*]] = arith.constant 12 : i32
// CHECK-DAG: %[[R:.*]] = obs.index %arg0[%[[C6]]] : !obs.arr<8 x i32>
// CHECK-DAG: %[[F:.*]] = obs.index %arg0[%[[C2]]] : !obs.arr<8 x i32>
// CHECK-DAG: %[[U:.*]] = obs.index %arg0[%[[C7]]] : !obs.arr<8 x i32>
// CHECK-DAG: %[[H:.*]] = obs.index %arg0[%[[C5]]] : !obs.arr<8 x i32>
// CHECK-DAG: %[[M:.*]] = obs.index %arg0[%[[C0]]] : !obs.arr<8 x i32>
// CHECK-DAG: %[[MM:.*]] = arith.muli %[[M]], %[[M]] : i32
obs.kernel @index_laws(%a: !obs.arr<8 x i32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %g = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = arith.index_cast %i : index to i32
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  // g ! 6 folds to 12.
  %c6 = arith.constant 6 : index
  %g6 = obs.index %g[%c6] : !obs.arr<8 x i32>
  // rev a ! 1 = a ! 6
  %rev = obs.rev %a : !obs.arr<8 x i32>
  %r = obs.index %rev[%c1] : !obs.arr<8 x i32>
  // riffle a ! 4 = a ! 2
  %riffle = obs.riffle %a : !obs.arr<8 x i32>
  %f = obs.index %riffle[%c4] : !obs.arr<8 x i32>
  // unriffle a ! 7 = a ! 7
  %unriffle = obs.unriffle %a : !obs.arr<8 x i32>
  %u = obs.index %unriffle[%c7] : !obs.arr<8 x i32>
  // (halve a).high ! 1 = a ! 5
  %lo, %hi = obs.halve %a : !obs.arr<8 x i32>
  %h = obs.index %hi[%c1] : !obs.arr<4 x i32>
  // (map square a) ! (rev ! 7) = square (a ! 0)
  %sq = obs.map %rev : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %s = arith.muli %x, %x : i32
    obs.yield %s : i32
  }
  %m = obs.index %sq[%c7] : !obs.arr<8 x i32>
  "test.use"(%g6, %r, %f, %u, %h, %m) : (i32, i32, i32, i32, i32, i32) -> ()
  obs.return
}

// -----

// The index laws hold only for an index inside the array: outside it, the
// read must fail its check (test/Transforms/verify-sync-bounds.mlir), not
// compute f i or read another element. An index whose definition shows it
// inside (the generated array's own, a remainder, the ranges arith infers)
// folds; one that may be outside stays.
// CHECK-LABEL: obs.kernel @index_laws_inside_only
// CHECK: obs.generate
// CHECK: %[[NEXT:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: obs.index %{{.*}}[%[[NEXT]]] : !obs.arr<8 x i32>
// CHECK: obs.generate
// CHECK: %[[WRAPPED:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: %[[BACK:.*]] = arith.subi %{{.*}}, %[[WRAPPED]] : index
// CHECK: obs.index %arg0[%[[BACK]]] : !obs.arr<8 x i32>
// CHECK: obs.generate
// CHECK: obs.index %{{.*}}[%{{.*}}] : !obs.arr<4 x i32>
obs.kernel @index_laws_inside_only(%a: !obs.arr<8 x i32>) -> (!obs.arr<8 x i32>, !obs.arr<8 x i32>, !obs.arr<8 x i32>) {
  %g = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = arith.index_cast %i : index to i32
    obs.yield %x : i32
  }
  // g ! (i + 1): outside for i = 7, so g's index function is not applied.
  %next = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %j = arith.addi %i, %c1 : index
    %v = obs.index %g[%j] : !obs.arr<8 x i32>
    obs.yield %v : i32
  }
  // rev a ! ((i + 3) mod 8): inside, so a ! (7 - that).
  %rev = obs.rev %a : !obs.arr<8 x i32>
  %wrapped = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %s = arith.addi %i, %c3 : index
    %j = arith.remui %s, %c8 : index
    %v = obs.index %rev[%j] : !obs.arr<8 x i32>
    obs.yield %v : i32
  }
  // (halve a).low ! i for i up to 7: index 4 of the half would be a ! 4,
  // inside a but outside the half.
  %lo, %hi = obs.halve %a : !obs.arr<8 x i32>
  %half = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %v = obs.index %lo[%i] : !obs.arr<4 x i32>
    obs.yield %v : i32
  }
  obs.return %next, %wrapped, %half : !obs.arr<8 x i32>, !obs.arr<8 x i32>, !obs.arr<8 x i32>
}

// -----

// A remainder by a divisor that may be zero is no bound: obs defines
// x rem 0 = x (and x div 0 = 0), so 8 rem i is 8 for i = 0, outside the
// half, and the read stays on the half, whose check fails (an adversarial
// run: arith's inference bounded 8 rem [0, 7] by 6, and the law read a ! 8
// of the whole array instead). By a divisor that is never zero the law
// holds: i rem 4 is inside the half, and the read goes to the whole array.
// CHECK-LABEL: obs.kernel @index_laws_division_by_zero
// CHECK: %[[LO:.*]], %{{.*}} = obs.halve %arg0
// CHECK: obs.generate
// CHECK: %[[BYZERO:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: obs.index %[[LO]][%[[BYZERO]]] : !obs.arr<8 x i32>
// CHECK: obs.generate
// CHECK: %[[QUARTER:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: obs.index %arg0[%[[QUARTER]]] : !obs.arr<16 x i32>
obs.kernel @index_laws_division_by_zero(%x: !obs.arr<16 x i32>) -> (!obs.arr<8 x i32>, !obs.arr<8 x i32>) {
  %lo, %hi = obs.halve %x : !obs.arr<16 x i32>
  %byZero = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c8 = arith.constant 8 : index
    %j = arith.remui %c8, %i : index
    %v = obs.index %lo[%j] : !obs.arr<8 x i32>
    obs.yield %v : i32
  }
  %inside = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c4 = arith.constant 4 : index
    %j = arith.remui %i, %c4 : index
    %v = obs.index %lo[%j] : !obs.arr<8 x i32>
    obs.yield %v : i32
  }
  obs.return %byZero, %inside : !obs.arr<8 x i32>, !obs.arr<8 x i32>
}

// -----

// An element of a synced array is read from the sync, not recomputed.
// CHECK-LABEL: obs.kernel @index_of_sync
// CHECK: %[[S:.*]] = obs.sync
// CHECK: obs.index %[[S]]
obs.kernel @index_of_sync(%a: !obs.arr<8 x i32>) {
  %c1 = arith.constant 1 : index
  %rev = obs.rev %a : !obs.arr<8 x i32>
  %s = obs.sync %rev : !obs.arr<8 x i32>
  %x = obs.index %s[%c1] : !obs.arr<8 x i32>
  "test.use"(%x) : (i32) -> ()
  obs.return
}

// -----

// two id, ilv id, one id, repeat 0 P and repeat k id are the identity.
// CHECK-LABEL: obs.kernel @identity_programs
// CHECK-NEXT: obs.return %arg0, %arg0, %arg0, %arg0, %arg0
obs.kernel @identity_programs(%a: !obs.arr<8 x i32>) -> (!obs.arr<8 x i32>, !obs.arr<8 x i32>, !obs.arr<8 x i32>, !obs.arr<8 x i32>, !obs.arr<8 x i32>) {
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    obs.yield %h : !obs.arr<4 x i32>
  }
  %1 = obs.ilv %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    obs.yield %h : !obs.arr<4 x i32>
  }
  %2 = obs.one %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    obs.yield %h : !obs.arr<4 x i32>
  }
  %3 = obs.repeat 0 %a : !obs.arr<8 x i32> {
  ^bb0(%x: !obs.arr<8 x i32>):
    %r = obs.riffle %x : !obs.arr<8 x i32>
    obs.yield %r : !obs.arr<8 x i32>
  }
  %4 = obs.repeat 5 %a : !obs.arr<8 x i32> {
  ^bb0(%x: !obs.arr<8 x i32>):
    obs.yield %x : !obs.arr<8 x i32>
  }
  obs.return %0, %1, %2, %3, %4 : !obs.arr<8 x i32>, !obs.arr<8 x i32>, !obs.arr<8 x i32>, !obs.arr<8 x i32>, !obs.arr<8 x i32>
}

// -----

// A sub-program that does something, and a sync-only sub-program, stay.
// CHECK-LABEL: obs.kernel @programs_not_identity
// CHECK: obs.two
// CHECK: obs.rev
// CHECK: obs.one
// CHECK: obs.sync
obs.kernel @programs_not_identity(%a: !obs.arr<8 x i32>) -> (!obs.arr<8 x i32>, !obs.arr<8 x i32>) {
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %r = obs.rev %h : !obs.arr<4 x i32>
    obs.yield %r : !obs.arr<4 x i32>
  }
  %1 = obs.one %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %s = obs.sync %h : !obs.arr<4 x i32>
    obs.yield %s : !obs.arr<4 x i32>
  }
  obs.return %0, %1 : !obs.arr<8 x i32>, !obs.arr<8 x i32>
}
