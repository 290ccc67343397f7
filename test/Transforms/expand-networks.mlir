// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks))' | FileCheck %s
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks))' --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// Tests of lib/Transforms/ExpandNetworks.cpp and lib/Builder/Networks.cpp:
// the shape of each network, from its definition.

// sklansky 3 = two (two (two id ->- fan ->- sync) ->- fan ->- sync) ->- fan ->- sync
// CHECK-LABEL: obs.kernel @sklansky
// CHECK-NOT: obs.scan
// CHECK: obs.two %{{.*}} : !obs.arr<8 x i32> -> !obs.arr<8 x i32>
// CHECK: obs.two %{{.*}} : !obs.arr<4 x i32> -> !obs.arr<4 x i32>
// CHECK: obs.two %{{.*}} : !obs.arr<2 x i32> -> !obs.arr<2 x i32>
// CHECK: obs.fan %{{.*}} : !obs.arr<2 x i32>
// CHECK: arith.addi
// CHECK: obs.sync %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.fan %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.fan %{{.*}} : !obs.arr<8 x i32>
// CHECK: %[[R:.*]] = obs.sync %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.return %[[R]]
obs.kernel @sklansky(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %r = obs.scan %a network(sklansky) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// Kogge-Stone on 8: stages at distance 1, 2, 4; element i >= s adds in
// element i - s, the others are copied.
// CHECK-LABEL: obs.kernel @kogge_stone
// CHECK: arith.cmpi uge, %{{.*}}, %c1
// CHECK: scf.if
// CHECK: arith.subi %{{.*}}, %c1
// CHECK: obs.sync
// CHECK: arith.cmpi uge, %{{.*}}, %c2
// CHECK: arith.subi %{{.*}}, %c2
// CHECK: obs.sync
// CHECK: arith.cmpi uge, %{{.*}}, %c4
// CHECK: arith.subi %{{.*}}, %c4
// CHECK: obs.sync
// CHECK-NOT: obs.sync
// CHECK: obs.return
obs.kernel @kogge_stone(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %r = obs.scan %a network(kogge_stone) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// Brent-Kung on 8: 2 log 8 - 1 = 5 stages. Up-sweep: i & (2s-1) == 2s-1
// for s = 1, 2, 4; down-sweep: i & (2s-1) == s-1 and i >= 3s-1 for s = 2, 1.
// CHECK-LABEL: obs.kernel @brent_kung
// CHECK: arith.andi %{{.*}}, %c1 :
// CHECK: arith.cmpi eq, %{{.*}}, %c1
// CHECK: obs.sync
// CHECK: arith.andi %{{.*}}, %c3 :
// CHECK: arith.cmpi eq, %{{.*}}, %c3
// CHECK: obs.sync
// CHECK: arith.andi %{{.*}}, %c7 :
// CHECK: arith.cmpi eq, %{{.*}}, %c7
// CHECK: obs.sync
// CHECK: arith.andi %{{.*}}, %c3 :
// CHECK: arith.cmpi eq, %{{.*}}, %c1
// CHECK: arith.cmpi uge, %{{.*}}, %c5
// CHECK: obs.sync
// CHECK: arith.andi %{{.*}}, %c1 :
// CHECK: arith.cmpi eq, %{{.*}}, %c0
// CHECK: arith.cmpi uge, %{{.*}}, %c2
// CHECK: obs.sync
// CHECK-NOT: obs.sync
// CHECK: obs.return
obs.kernel @brent_kung(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %r = obs.scan %a network(brent_kung) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// Seed 001's sorter on 8: repE 3 (tau ->>- repE 3 merger step).
// CHECK-LABEL: obs.kernel @periodic
// CHECK: obs.repeat 3
// CHECK: obs.unriffle
// CHECK: obs.sync
// CHECK: obs.one
// CHECK: obs.rev %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.sync
// CHECK: obs.repeat 3
// CHECK: obs.riffle
// CHECK: obs.sync
// CHECK: obs.evens
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: arith.select
// CHECK: obs.sync
obs.kernel @periodic(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %r = obs.sort %a network(periodic) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    obs.yield %less : i1
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// sortOE 2 = two (two id ->- sync ->- evens) ->- sync ->- mergeOE 2, and
// mergeOE 2 = ilv (evens) ->- sync ->- odds.
// CHECK-LABEL: obs.kernel @odd_even_merge
// CHECK: obs.two %{{.*}} : !obs.arr<4 x i32> -> !obs.arr<4 x i32>
// CHECK: obs.two %{{.*}} : !obs.arr<2 x i32> -> !obs.arr<2 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.evens %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.ilv %{{.*}} : !obs.arr<4 x i32> -> !obs.arr<4 x i32>
// CHECK: obs.evens %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<4 x i32>
// CHECK: %[[R:.*]] = obs.odds %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.return %[[R]]
obs.kernel @odd_even_merge(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %r = obs.sort %a network(odd_even_merge) : !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    obs.yield %less : i1
  }
  obs.return %r : !obs.arr<4 x i32>
}

// -----

// bsort 2 = two (bsort 1) ->- sync ->- one rev ->- bmerge 2, where
// bsort 1 = one rev ->- halfClean and bmerge 2 = halfClean ->- sync ->-
// two halfClean; halfClean = riffle ->- evens ->- unriffle.
// CHECK-LABEL: obs.kernel @bitonic
// CHECK: obs.two %{{.*}} : !obs.arr<4 x i32> -> !obs.arr<4 x i32>
// CHECK: obs.one %{{.*}} : !obs.arr<2 x i32> -> !obs.arr<2 x i32>
// CHECK: obs.riffle %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.evens %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.unriffle %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.one %{{.*}} : !obs.arr<4 x i32> -> !obs.arr<4 x i32>
// CHECK: obs.rev %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.riffle %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.evens %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.unriffle %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.two %{{.*}} : !obs.arr<4 x i32> -> !obs.arr<4 x i32>
// CHECK: obs.riffle %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.evens %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.unriffle %{{.*}} : !obs.arr<2 x i32>
// CHECK-NOT: obs.sync
// CHECK: obs.return
obs.kernel @bitonic(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %r = obs.sort %a network(bitonic) : !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    obs.yield %less : i1
  }
  obs.return %r : !obs.arr<4 x i32>
}

// -----

// A tree on 5: levels of 3, 2 and 1 elements; the odd last element moves
// up; the reduce's result is element 0 of the last level.
// CHECK-LABEL: obs.kernel @tree
// CHECK: obs.generate : !obs.arr<3 x i32>
// CHECK: arith.cmpi ult, %{{.*}}, %c5
// CHECK: scf.if
// CHECK: %[[L1:.*]] = obs.sync %{{.*}} : !obs.arr<3 x i32>
// CHECK: obs.generate : !obs.arr<2 x i32>
// CHECK: arith.cmpi ult, %{{.*}}, %c3
// CHECK: %[[L2:.*]] = obs.sync %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.generate : !obs.arr<1 x i32>
// CHECK-NOT: scf.if
// CHECK: %[[L3:.*]] = obs.sync %{{.*}} : !obs.arr<1 x i32>
// CHECK: %[[SUM:.*]] = obs.index %[[L3]][%c0] : !obs.arr<1 x i32>
// CHECK: obs.generate : !obs.arr<1 x i32>
// CHECK: obs.yield %[[SUM]] : i32
obs.kernel @tree(%a: !obs.arr<5 x i32>) -> !obs.arr<1 x i32> {
  %sum = obs.reduce %a network(tree) : !obs.arr<5 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %r = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %sum : i32
  }
  obs.return %r : !obs.arr<1 x i32>
}

// -----

// In element code there are no stages to expand into: a scan of each row
// and a tree inside a generate stay, computed by each thread.
// CHECK-LABEL: obs.kernel @in_element_code
// CHECK: obs.map
// CHECK: obs.scan %{{.*}} network(sklansky)
// CHECK: obs.generate
// CHECK: obs.reduce %{{.*}} network(tree)
// CHECK-NOT: obs.sync
obs.kernel @in_element_code(%rows: !obs.arr<4 x !obs.arr<8 x i32>>) -> (!obs.arr<4 x !obs.arr<8 x i32>>, !obs.arr<1 x i32>) {
  %scanned = obs.map %rows : !obs.arr<4 x !obs.arr<8 x i32>> -> !obs.arr<4 x !obs.arr<8 x i32>> {
  ^bb0(%row: !obs.arr<8 x i32>):
    %s = obs.scan %row network(sklansky) : !obs.arr<8 x i32> {
    ^bb0(%x: i32, %y: i32):
      %z = arith.addi %x, %y : i32
      obs.yield %z : i32
    }
    obs.yield %s : !obs.arr<8 x i32>
  }
  %total = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    %row = obs.index %rows[%i] : !obs.arr<4 x !obs.arr<8 x i32>>
    %sum = obs.reduce %row network(tree) : !obs.arr<8 x i32> -> i32 {
    ^bb0(%x: i32, %y: i32):
      %z = arith.addi %x, %y : i32
      obs.yield %z : i32
    }
    obs.yield %sum : i32
  }
  obs.return %scanned, %total : !obs.arr<4 x !obs.arr<8 x i32>>, !obs.arr<1 x i32>
}

// Three kinds of network, 23 syncs: 3 + 3 + 5 for the scans, 4 + 3 + 2
// for the sorts and 3 for the tree.
// STATS: obs-expand-networks
// STATS-NEXT: 3 scans
// STATS-NEXT: 3 sorts
// STATS-NEXT: 1 reductions
// STATS-NEXT: 23 stages
