// RUN: obs-opt %s --obs-expand-device -split-input-file -verify-diagnostics | FileCheck %s

// Tests of lib/Transforms/DeviceExpansion/Halos.cpp: a halo argument
// becomes an obs.global argument, the memref whole, and the kernel reads a
// pull array of its block's tile and halo from it instead.

// Clamped, at run-time sizes: element j of block b is place 4 b + j - 1,
// kept inside [0, n) (n the memref's length, the global argument's
// extent). The launches run a private copy of the kernel: the public one
// also stands for one block over its tile (its one-block instance, which
// embedders call by its name), and keeps that meaning, a global argument
// of the tile's 4 places (found by a defect hunt: its PTX read the halo at
// place 2^31 - 2 of the memref).
// CHECK-LABEL: obs.kernel @clamped(
// CHECK-SAME: %{{.*}}: !obs.arr<4 x i32> {obs.absent = 0 : i32, obs.global}) -> !obs.arr<4 x i32>
// CHECK-LABEL: obs.kernel private @clamped_launched(
// CHECK-SAME: %[[X:.*]]: !obs.arr<2147483647 x i32> {obs.absent = 0 : i32, obs.global}) -> !obs.arr<4 x i32>
// CHECK: %[[N:.*]] = obs.extent %[[X]]
// CHECK: %[[VIEW:.*]] = obs.generate : !obs.arr<6 x i32> {
// CHECK-NEXT: ^bb0(%[[J:.*]]: index):
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[B:.*]] = obs.block_id
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[START:.*]] = arith.muli %[[B]], %[[C4]]
// CHECK: %[[AT:.*]] = arith.addi %[[START]], %[[J]]
// CHECK: %[[PLACE:.*]] = arith.subi %[[AT]], %{{.*}} : index
// CHECK: %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[BELOW:.*]] = arith.minsi %[[PLACE]], %[[LAST]]
// CHECK: %[[CLAMPED:.*]] = arith.maxsi %[[BELOW]], %[[ZERO]]
// CHECK: obs.index %[[X]][%[[CLAMPED]]]
// CHECK: obs.generate : !obs.arr<4 x i32>
// CHECK: obs.index %[[VIEW]]
// CHECK-LABEL: func.func @run_clamped(
// CHECK: obs.launch @clamped_launched grid(
obs.kernel @clamped(%x: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, clamp>, obs.absent = 0 : i32}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %v = obs.index %x[%i] : !obs.arr<6 x i32>
    obs.yield %v : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

func.func @run_clamped(%x: memref<?xi32>, %y: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %x, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %c4 : index
  obs.launch @clamped grid(%tiles) ins(%x : memref<?xi32>) outs(%y : memref<?xi32>)
  return
}

// -----

// Zeros, at static sizes: the global argument is the memref's 8 places; a
// place outside reads place 0 and takes the absent value (zero without an
// obs.absent, which the global argument then takes as its own) instead.
// CHECK-LABEL: obs.kernel @padded(
// CHECK-SAME: %{{.*}}: !obs.arr<4 x i32> {obs.absent = 0 : i32, obs.global}) -> !obs.arr<4 x i32>
// CHECK-LABEL: obs.kernel private @padded_launched(
// CHECK-SAME: %[[X:.*]]: !obs.arr<8 x i32> {obs.absent = 0 : i32, obs.global}) -> !obs.arr<4 x i32>
// CHECK: obs.generate : !obs.arr<6 x i32>
// CHECK: %[[NOT_BEFORE:.*]] = arith.cmpi sge, %[[PLACE:.*]], %[[ZERO:.*]] : index
// CHECK: %[[BEFORE_END:.*]] = arith.cmpi slt, %[[PLACE]], %{{.*}} : index
// CHECK: %[[INSIDE:.*]] = arith.andi %[[NOT_BEFORE]], %[[BEFORE_END]]
// CHECK: %[[SAFE:.*]] = arith.select %[[INSIDE]], %[[PLACE]], %[[ZERO]]
// CHECK: %[[READ:.*]] = obs.index %[[X]][%[[SAFE]]]
// CHECK: %[[OUTSIDE:.*]] = arith.constant 0 : i32
// CHECK: arith.select %[[INSIDE]], %[[READ]], %[[OUTSIDE]] : i32
// CHECK-LABEL: func.func @run_padded(
// CHECK: obs.launch @padded_launched grid(2)
obs.kernel @padded(%x: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, zero>}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %v = obs.index %x[%i] : !obs.arr<6 x i32>
    obs.yield %v : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

func.func @run_padded(%x: memref<8xi32>, %y: memref<8xi32>) {
  obs.launch @padded grid(2) ins(%x : memref<8xi32>) outs(%y : memref<8xi32>)
  return
}

// -----

// Wrapped: the place's remainder by the length (at least 1), made
// non-negative. A kernel no launch names is one block over its tile: its
// global argument is the tile's 4 places.
// CHECK-LABEL: obs.kernel @wrapped(
// CHECK-SAME: %[[X:.*]]: !obs.arr<4 x i32> {obs.absent = 0 : i32, obs.global})
// CHECK: %[[LENGTH:.*]] = arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK: %[[REMAINDER:.*]] = arith.remsi %{{.*}}, %[[LENGTH]] : index
// CHECK: %[[NEGATIVE:.*]] = arith.cmpi slt, %[[REMAINDER]], %{{.*}} : index
// CHECK: %[[UP:.*]] = arith.addi %[[REMAINDER]], %[[LENGTH]]
// CHECK: %[[WRAPPED:.*]] = arith.select %[[NEGATIVE]], %[[UP]], %[[REMAINDER]]
// CHECK: obs.index %[[X]][%[[WRAPPED]]]
obs.kernel @wrapped(%x: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, wrap>}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %v = obs.index %x[%i] : !obs.arr<6 x i32>
    obs.yield %v : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

// -----

// The global argument has one length: launches over memrefs of two are
// refused.
obs.kernel @twice(%x: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, clamp>}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %v = obs.index %x[%i] : !obs.arr<6 x i32>
    obs.yield %v : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

func.func @run_twice(%a: memref<8xi32>, %b: memref<8xi32>, %c: memref<12xi32>, %d: memref<12xi32>) {
  obs.launch @twice grid(2) ins(%a : memref<8xi32>) outs(%b : memref<8xi32>)
  // expected-error @+1 {{'obs.launch' op launches @twice over 12 places of its argument 0, which has a halo, where another launch passes 8 places: a halo argument is one memref whole in every block, so all of the kernel's launches pass it at one static length, or all at lengths known at run time}}
  obs.launch @twice grid(3) ins(%c : memref<12xi32>) outs(%d : memref<12xi32>)
  return
}

// -----

// Nor at a static length and at one known at run time, which the error
// names as such (not as the bound of run-time lengths).
obs.kernel @mixed(%x: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, clamp>, obs.absent = 0 : i32}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %v = obs.index %x[%i] : !obs.arr<6 x i32>
    obs.yield %v : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

func.func @run_mixed(%a: memref<8xi32>, %b: memref<8xi32>, %c: memref<?xi32>, %d: memref<?xi32>, %g: index) {
  obs.launch @mixed grid(2) ins(%a : memref<8xi32>) outs(%b : memref<8xi32>)
  // expected-error @+1 {{'obs.launch' op launches @mixed over a length known at run time of its argument 0, which has a halo, where another launch passes 8 places}}
  obs.launch @mixed grid(%g) ins(%c : memref<?xi32>) outs(%d : memref<?xi32>)
  return
}

// -----

// In a nested module, the copy for the launches is named apart in that
// module's symbol table: named in the outer one, it kept the name `kw` beside
// the kernel (the review after hunt 31).
// CHECK-LABEL: module @inner
// CHECK: obs.kernel @kw(
// CHECK: obs.kernel private @kw_launched(
// CHECK: obs.launch @kw_launched grid(2)
module @inner {
  obs.kernel @kw(%x: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, wrap>}) -> !obs.arr<4 x i32> attributes {threads = 4} {
    %r = obs.generate : !obs.arr<4 x i32> {
    ^bb0(%i: index):
      %v = obs.index %x[%i] : !obs.arr<6 x i32>
      obs.yield %v : i32
    }
    obs.return %r : !obs.arr<4 x i32>
  }
  func.func @run(%x: memref<8xi32>, %y: memref<8xi32>) {
    obs.launch @kw grid(2) ins(%x : memref<8xi32>) outs(%y : memref<8xi32>)
    return
  }
}
