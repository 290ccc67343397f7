// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks))' | FileCheck %s
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks))' --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks{mark-defaults=true}))' | FileCheck %s --check-prefix=MARK

// Tests of the serial networks (lib/Builder/Networks.cpp) and of
// obs-expand-networks' default for scans and reductions without a network:
// the shape of each, from its definition (run = ceil(N / threads); runs in
// sequence under blocked<run>; the runs' totals within each warp; the
// warps' totals; each element's prefix added back).

// 8 elements on 2 threads: runs of 4, so three stages in sequence, each
// taking element j - 1 of its run into element j (written blocked<4>);
// the two runs' totals (elements 3 and 7) as a stage of their own; one
// Kogge-Stone stage; each run's prefix, the total of the run before it in
// its warp (read in every run, the first its own), as a stage of its own;
// then each element of a run but the first takes in its run's prefix (an
// integer add: computed everywhere and selected, with no branch).
// CHECK-LABEL: obs.kernel @serial_scan
// CHECK-NOT: obs.scan
// CHECK: arith.remui %{{.*}}, %c4
// CHECK: arith.cmpi eq, %{{.*}}, %c1
// CHECK: obs.sync blocked<4> %{{.*}} : !obs.arr<8 x i32>
// CHECK: arith.cmpi eq, %{{.*}}, %c2
// CHECK: obs.sync blocked<4> %{{.*}} : !obs.arr<8 x i32>
// CHECK: arith.cmpi eq, %{{.*}}, %c3
// CHECK: %[[RUNS:.*]] = obs.sync blocked<4> %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.generate : !obs.arr<2 x i32>
// CHECK: arith.muli %{{.*}}, %c4
// CHECK: arith.addi %{{.*}}, %c3
// CHECK: obs.index %[[RUNS]]
// CHECK: obs.sync %{{.*}} : !obs.arr<2 x i32>
// CHECK: arith.andi %{{.*}}, %c31
// CHECK: arith.cmpi uge, %{{.*}}, %c1
// CHECK: %[[TOTALS:.*]] = obs.sync %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.generate : !obs.arr<2 x i32>
// CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %c31
// CHECK: %[[HAS:.*]] = arith.cmpi ne, %[[LANE]], %c0
// CHECK: %[[FROM:.*]] = arith.select %[[HAS]]
// CHECK: obs.index %[[TOTALS]][%[[FROM]]]
// CHECK-NOT: obs.index
// CHECK: %[[PREFIXES:.*]] = obs.sync %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.generate : !obs.arr<8 x i32>
// CHECK: %[[X:.*]] = obs.index %[[RUNS]]
// CHECK: %[[R:.*]] = arith.divui %{{.*}}, %c4
// CHECK: %[[P:.*]] = obs.index %[[PREFIXES]][%[[R]]]
// CHECK: %[[LATER:.*]] = arith.cmpi ne, %[[R]], %c0
// CHECK: %[[SUM:.*]] = arith.addi %[[P]], %[[X]]
// CHECK: arith.select %[[LATER]], %[[SUM]], %[[X]]
// CHECK-NOT: scf.if
// CHECK: %[[OUT:.*]] = obs.sync blocked<4> %{{.*}} : !obs.arr<8 x i32>
// CHECK-NOT: obs.sync
// CHECK: obs.return %[[OUT]]
obs.kernel @serial_scan(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32>
    attributes {threads = 2} {
  %r = obs.scan %a : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// 80 elements on 40 threads: runs of 2, 40 totals in two warps, 5
// Kogge-Stone stages within each; each run's prefix adds, in the second
// warp, the first warp's total (element 31), read by every run; the final
// stage finds an element's run as i / 2.
// CHECK-LABEL: obs.kernel @serial_warps
// CHECK: obs.sync blocked<2> %{{.*}} : !obs.arr<80 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<40 x i32>
// CHECK-COUNT-5: obs.sync %{{.*}} : !obs.arr<40 x i32>
// CHECK: obs.generate : !obs.arr<40 x i32>
// CHECK: arith.divui %{{.*}}, %c32
// CHECK: obs.index %{{.*}}[%c31{{.*}}] : !obs.arr<40 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<40 x i32>
// CHECK: arith.divui %{{.*}}, %c2
// CHECK: obs.sync blocked<2> %{{.*}} : !obs.arr<80 x i32>
// CHECK-NOT: obs.sync
obs.kernel @serial_warps(%a: !obs.arr<80 x i32>) -> !obs.arr<80 x i32>
    attributes {threads = 40} {
  %r = obs.scan %a network(serial) : !obs.arr<80 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<80 x i32>
}

// -----

// 128 elements on 128 threads: runs of one, four warps. Each element of
// warp v takes in the warps' totals (elements 31, 63, 95) before v, folded
// left to right and chosen by v without a branch, in the one stage after
// the warps' Kogge-Stone.
// CHECK-LABEL: obs.kernel @serial_four_warps
// CHECK-COUNT-5: obs.sync %{{.*}} : !obs.arr<128 x i32>
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32
// CHECK: %[[W0:.*]] = obs.index %{{.*}}[%c31{{.*}}]
// CHECK: %[[W1:.*]] = obs.index %{{.*}}[%c63{{.*}}]
// CHECK: %[[AFTER1:.*]] = arith.cmpi ult, %c1{{.*}}, %[[WARP]]
// CHECK: %[[S1:.*]] = arith.addi %[[W0]], %[[W1]]
// CHECK: %[[F1:.*]] = arith.select %[[AFTER1]], %[[S1]], %[[W0]]
// CHECK: %[[W2:.*]] = obs.index %{{.*}}[%c95{{.*}}]
// CHECK: %[[AFTER2:.*]] = arith.cmpi ult, %c2{{.*}}, %[[WARP]]
// CHECK: %[[S2:.*]] = arith.addi %[[F1]], %[[W2]]
// CHECK: arith.select %[[AFTER2]], %[[S2]], %[[F1]]
// CHECK-NOT: scf.if
// CHECK: obs.sync %{{.*}} : !obs.arr<128 x i32>
// CHECK-NOT: obs.sync
obs.kernel @serial_four_warps(%a: !obs.arr<128 x i32>) -> !obs.arr<128 x i32>
    attributes {threads = 128} {
  %r = obs.scan %a : !obs.arr<128 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<128 x i32>
}

// -----

// Without `threads`, one thread per element: runs of one, so the warp's
// Kogge-Stone stages (distance 1, 2, 4) are the whole scan, and no stage
// is written. A float scan takes the same network: its association
// order, which rounds, is the reference target's too
// (lowerScan's scanInSerialOrder).
// CHECK-LABEL: obs.kernel @runs_of_one
// CHECK-NOT: blocked
// CHECK: arith.cmpi uge, %{{.*}}, %c1
// CHECK: obs.sync
// CHECK: arith.cmpi uge, %{{.*}}, %c2
// CHECK: obs.sync
// CHECK: arith.cmpi uge, %{{.*}}, %c4
// CHECK: %[[R:.*]] = obs.sync
// CHECK: arith.addf
// CHECK: obs.sync
// CHECK: arith.addf
// CHECK: obs.sync
// CHECK: arith.addf
// CHECK: %[[F:.*]] = obs.sync
// CHECK-NOT: obs.sync
// CHECK-NOT: obs.scan
// CHECK: obs.return %[[R]], %[[F]]
obs.kernel @runs_of_one(%a: !obs.arr<8 x i32>, %b: !obs.arr<8 x f32>)
    -> (!obs.arr<8 x i32>, !obs.arr<8 x f32>) {
  %r = obs.scan %a : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %f = obs.scan %b : !obs.arr<8 x f32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    obs.yield %s : f32
  }
  obs.return %r, %f : !obs.arr<8 x i32>, !obs.arr<8 x f32>
}

// -----

// An empty scan is its input; runs longer than 64 (one thread, 65
// elements) take Sklansky's network instead of the serial one: its
// ceil(log2 65) = 7 levels, where the fold would have every element fold
// again from the start.
// MARK-LABEL: obs.kernel @edges
// MARK: obs.scan %arg1 network(sklansky) : !obs.arr<65 x i32>
// CHECK-LABEL: obs.kernel @edges
// CHECK-NOT: obs.keeps_fold
// CHECK-COUNT-7: obs.sync {{.*}} : !obs.arr<65 x i32>
// CHECK-NOT: obs.sync
// CHECK-NOT: obs.scan
// CHECK: obs.return %arg0,
obs.kernel @edges(%a: !obs.arr<0 x i32>, %b: !obs.arr<65 x i32>)
    -> (!obs.arr<0 x i32>, !obs.arr<65 x i32>) attributes {threads = 1} {
  %r = obs.scan %a : !obs.arr<0 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %l = obs.scan %b : !obs.arr<65 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return %r, %l : !obs.arr<0 x i32>, !obs.arr<65 x i32>
}

// -----

// 10 elements on 3 threads: runs of 4 (the last one of 2), each folded
// left to right in one stage (run r from element 4r to min(4r + 4, 10)),
// then the warp's fold: run r takes in run r + 1, then r + 2, where they
// exist; the total is run 0's.
// CHECK-LABEL: obs.kernel @serial_reduce
// CHECK-NOT: obs.reduce
// CHECK: obs.generate : !obs.arr<3 x i32>
// CHECK: ^bb0(%[[R:.*]]: index):
// CHECK: %[[FIRST:.*]] = arith.muli %[[R]], %c4
// CHECK: %[[END:.*]] = arith.addi %[[FIRST]], %c4
// CHECK: %[[LAST:.*]] = arith.minui %[[END]], %c10
// CHECK: %[[NEXT:.*]] = arith.addi %[[FIRST]], %c1
// CHECK: %[[START:.*]] = obs.index %arg0[%[[FIRST]]]
// CHECK: scf.for %[[J:.*]] = %[[NEXT]] to %[[LAST]] step %{{.*}} iter_args(%[[SOFAR:.*]] = %[[START]])
// CHECK: %[[X:.*]] = obs.index %arg0[%[[J]]]
// CHECK: arith.addi %[[SOFAR]], %[[X]]
// CHECK: obs.sync %{{.*}} : !obs.arr<3 x i32>
// CHECK-NOT: obs.sync %{{.*}} : !obs.arr<3 x i32>
// CHECK: arith.addi %{{.*}}, %c1
// CHECK: arith.cmpi ult, %{{.*}}, %c3
// CHECK: arith.addi %{{.*}}, %c2
// CHECK: arith.cmpi ult, %{{.*}}, %c3
// CHECK: %[[FOLDED:.*]] = obs.sync %{{.*}} : !obs.arr<3 x i32>
// CHECK: %[[TOTAL:.*]] = obs.index %[[FOLDED]][%c0]
// CHECK: obs.yield %[[TOTAL]]
obs.kernel @serial_reduce(%a: !obs.arr<10 x i32>) -> !obs.arr<1 x i32>
    attributes {threads = 3} {
  %s = obs.reduce %a : !obs.arr<10 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  %t = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %s : i32
  }
  obs.return %t : !obs.arr<1 x i32>
}

// -----

// In a sub-program the block's share is not known: a named serial scan has
// runs of one (nothing written), and a scan without a network takes the
// same network.
// CHECK-LABEL: obs.kernel @in_two
// CHECK: obs.two
// CHECK-NOT: blocked
// CHECK: obs.sync %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<4 x i32>
// CHECK-NOT: blocked
// CHECK: obs.sync %{{.*}} : !obs.arr<4 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<4 x i32>
// CHECK-NOT: obs.scan
// CHECK: obs.return
obs.kernel @in_two(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32>
    attributes {threads = 2} {
  %r = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %s = obs.scan %h network(serial) : !obs.arr<4 x i32> {
    ^bb0(%x: i32, %y: i32):
      %z = arith.addi %x, %y : i32
      obs.yield %z : i32
    }
    %u = obs.scan %h : !obs.arr<4 x i32> {
    ^bb0(%x: i32, %y: i32):
      %z = arith.addi %x, %y : i32
      obs.yield %z : i32
    }
    %k = obs.map %s, %u : !obs.arr<4 x i32>, !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
    ^bb0(%x: i32, %y: i32):
      %z = arith.addi %x, %y : i32
      obs.yield %z : i32
    }
    obs.yield %k : !obs.arr<4 x i32>
  }
  obs.return %r : !obs.arr<8 x i32>
}

// -----

// A difference is not associative: the reduce without a network keeps
// the sequential fold's order (marked, for the reference target), computed
// once by one thread in a loop, in one stage (a chain); the scan's is one
// thread's run, a stage per element (blocked<8>: seven stages).
// CHECK-LABEL: obs.kernel @difference
// CHECK: scf.for
// CHECK: arith.subi
// CHECK: obs.sync %{{.*}} : !obs.arr<1 x i32>
// CHECK-NOT: obs.reduce
// CHECK-COUNT-7: obs.sync blocked<8>
// CHECK-NOT: obs.scan
// CHECK: obs.return
obs.kernel @difference(%a: !obs.arr<8 x i32>)
    -> (!obs.arr<1 x i32>, !obs.arr<8 x i32>) {
  %s = obs.reduce %a : !obs.arr<8 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %z = arith.subi %x, %y : i32
    obs.yield %z : i32
  }
  %t = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %s : i32
  }
  %u = obs.scan %a : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.subi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %t, %u : !obs.arr<1 x i32>, !obs.arr<8 x i32>
}

// -----

// A difference scan longer than a chain (64) keeps the fold's order block
// by block: a stage per 64 elements (64, 64, then 22 of 150), in which each
// element folds from the last of the block before, in a loop, and the
// blocks' concatenation.
// CHECK-LABEL: obs.kernel @difference_blocks
// CHECK: %[[FIRST:.*]] = obs.sync %{{.*}} : !obs.arr<64 x i32>
// CHECK: %[[SECOND:.*]] = obs.generate : !obs.arr<64 x i32>
// CHECK: obs.index %[[FIRST]][%c63]
// CHECK: scf.for %{{.*}} = %c64 to
// CHECK: arith.subi
// CHECK: %[[SECOND_SYNC:.*]] = obs.sync %[[SECOND]] : !obs.arr<64 x i32>
// CHECK: obs.index %[[SECOND_SYNC]][%c63]
// CHECK: scf.for %{{.*}} = %c128 to
// CHECK: %[[THIRD_SYNC:.*]] = obs.sync %{{.*}} : !obs.arr<22 x i32>
// CHECK: %[[HEAD:.*]] = obs.conc %{{.*}}, %[[SECOND_SYNC]] : !obs.arr<64 x i32>, !obs.arr<64 x i32>
// CHECK: %[[ALL:.*]] = obs.conc %[[HEAD]], %[[THIRD_SYNC]] : !obs.arr<128 x i32>, !obs.arr<22 x i32>
// CHECK-NOT: obs.scan
// CHECK: obs.return %[[ALL]]
obs.kernel @difference_blocks(%a: !obs.arr<150 x i32>) -> !obs.arr<150 x i32>
    attributes {threads = 64} {
  %s = obs.scan %a : !obs.arr<150 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.subi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<150 x i32>
}

// Ten serial scans (one named in @in_two, the empty one in @edges) and
// two reductions; the defaults taken: @serial_scan, @serial_four_warps,
// both of @runs_of_one, @edges' first, @serial_reduce, @in_two's second,
// @bounds' first scan and reduction and @long_runs' scan. Stages:
// 3 + 1 + 1 + 1 + 1, 1 + 1 + 5 + 1 + 1, 5 + 1, 3 + 3, 0, 1 + 2, 2 + 2,
// 6 + 5 + 1 and 25 + 5 + 1 (@bounds' and @long_runs' checkpointed scans)
// and 7 (runs of 43, 384 totals folded within 12 warps by five butterfly
// stages, the 12 warps' totals by one thread, left to right). @difference's two folds are
// chains, counted apart: 1 stage for the reduction, 7 for the scan of 8 by
// one thread; @difference_blocks' and @difference_ends' scans are folds in
// blocks, 3 and 96 stages. Two scans take Sklansky's network past serial's
// bounds (@edges' 65 elements, 7 stages; @bounds' i8, 15): 214 stages in
// all.
// STATS: obs-expand-networks
// STATS-NEXT: 12 scans
// STATS-NEXT: 2 reductions
// STATS-NEXT: 10 serial-defaults
// STATS-NEXT: 2 sklansky-defaults
// STATS-NEXT: 2 chains
// STATS-NEXT: 2 folds-in-blocks
// STATS-NEXT: 2 checkpointed-scans
// STATS-NEXT: 214 stages

// -----

// A scan's serial default is bounded by what its stages hold: 16,384 i32
// (64 KiB) on 384 threads would take more than half a block's shared
// memory, and 24,576 i8 in runs of 64 would give 1.5 million elements of
// run stages to simulate. The first stays serial without run stages: its
// runs of 43 (the last of 2, padded to 384) keep their left folds every 8
// elements, six stages of 384 (the last the runs' totals), each continuing
// from the one before; the totals are scanned in warps by five stages, and
// the runs' prefixes are one more. The result is no stage: each element
// continues its run's fold from the checkpoint before it (the first five
// stages concatenated: c_k[r] at 384 k + r), in a loop of at most 8, and
// takes in its run's prefix (Sklansky's network would take as much shared
// memory as the run stages). The second takes Sklansky's: 15 levels of
// 24,576, 368,640 elements. A reduction of as many folds its runs in a
// loop and takes the serial default.
// MARK-LABEL: obs.kernel @bounds
// MARK: obs.scan %arg0 network(serial) :
// MARK: obs.scan %arg1 network(sklansky) :
// MARK: obs.reduce %arg0 network(serial) :
// CHECK-LABEL: obs.kernel @bounds
// CHECK: %[[C0_START:.*]] = obs.index %arg0[%{{.*}}] : !obs.arr<16384 x i32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[C0_START]])
// CHECK: %[[C0:.*]] = obs.sync %{{.*}} : !obs.arr<384 x i32>
// CHECK: %[[C1_START:.*]] = obs.index %[[C0]][%{{.*}}] : !obs.arr<384 x i32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[C1_START]])
// CHECK: %[[C1:.*]] = obs.sync %{{.*}} : !obs.arr<384 x i32>
// CHECK-COUNT-4: obs.sync {{.*}} : !obs.arr<384 x i32>
// CHECK: obs.conc %[[C0]], %[[C1]] : !obs.arr<384 x i32>, !obs.arr<384 x i32>
// CHECK: %[[KEPT:.*]] = obs.conc {{.*}} : !obs.arr<1536 x i32>, !obs.arr<384 x i32>
// CHECK-COUNT-6: obs.sync {{.*}} : !obs.arr<384 x i32>
// CHECK-NOT: obs.sync
// CHECK: %[[RESULT:.*]] = obs.generate : !obs.arr<16384 x i32>
// CHECK: %[[R:.*]] = arith.divui %{{.*}}, %c43
// CHECK: %[[FIRST:.*]] = arith.muli %[[R]], %c43
// CHECK: %[[OFFSET:.*]] = arith.subi %{{.*}}, %[[FIRST]]
// CHECK: %[[J:.*]] = arith.divui %[[OFFSET]], %c8
// CHECK: %[[IN_FIRST:.*]] = arith.cmpi eq, %[[J]], %c0
// CHECK: %[[CHECKPOINT:.*]] = obs.index %[[KEPT]][%{{.*}}] : !obs.arr<1920 x i32>
// CHECK: %[[START:.*]] = scf.if %[[IN_FIRST]]
// CHECK: obs.index %arg0[%[[FIRST]]]
// CHECK: scf.yield %[[CHECKPOINT]]
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[START]])
// CHECK-NOT: obs.sync
// CHECK: obs.index %{{.*}} : !obs.arr<384 x i32>
// CHECK-NOT: obs.sync {{.*}} : !obs.arr<16384 x i32>
// CHECK-COUNT-15: obs.sync {{.*}} : !obs.arr<24576 x i8>
// CHECK-NOT: obs.scan
// CHECK-NOT: obs.reduce
// CHECK: obs.return %[[RESULT]],
obs.kernel @bounds(%a: !obs.arr<16384 x i32>, %b: !obs.arr<24576 x i8>)
    -> (!obs.arr<16384 x i32>, !obs.arr<24576 x i8>, !obs.arr<1 x i32>)
    attributes {threads = 384} {
  %l = obs.scan %a : !obs.arr<16384 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %m = obs.scan %b : !obs.arr<24576 x i8> {
  ^bb0(%x: i8, %y: i8):
    %s = arith.addi %x, %y : i8
    obs.yield %s : i8
  }
  %t = obs.reduce %a : !obs.arr<16384 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %g = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %t : i32
  }
  obs.return %l, %m, %g : !obs.arr<16384 x i32>, !obs.arr<24576 x i8>, !obs.arr<1 x i32>
}

// -----

// A difference scan whose array takes more than half a block's shared
// memory (6,200 i32, 24,800 bytes) keeps the fold's order without a stage
// of the array: each block's last element is a stage of one element,
// folded in a loop from the one of the block before (96 of them, the 97th
// block's last element is never needed), and each element folds its block
// up to itself from the end of the block before (from the array's first
// element in the first block), at most 64 elements, where the fold from the
// start folds up to 6,200.
// MARK-LABEL: obs.kernel @difference_ends
// MARK: obs.scan %arg0 {obs.keeps_fold} :
// CHECK-LABEL: obs.kernel @difference_ends
// CHECK: obs.index %arg0[%c0]
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c64
// CHECK: arith.subi
// CHECK: %[[FIRST_END:.*]] = obs.sync %{{.*}} : !obs.arr<1 x i32>
// CHECK: obs.index %[[FIRST_END]][%c0]
// CHECK: scf.for %{{.*}} = %c64 to %c128
// CHECK: %[[SECOND_END:.*]] = obs.sync %{{.*}} : !obs.arr<1 x i32>
// CHECK: obs.index %[[SECOND_END]][%c0]
// CHECK: scf.for %{{.*}} = %c128 to %c192
// CHECK-COUNT-94: obs.sync {{.*}} : !obs.arr<1 x i32>
// CHECK-NOT: obs.sync
// CHECK: %[[ENDS:.*]] = obs.conc {{.*}} : !obs.arr<64 x i32>, !obs.arr<32 x i32>
// CHECK: %[[RESULT:.*]] = obs.generate : !obs.arr<6200 x i32>
// CHECK: %[[BLOCK:.*]] = arith.divui %{{.*}}, %c64
// CHECK: %[[IN_FIRST:.*]] = arith.cmpi eq, %[[BLOCK]], %c0
// CHECK: %[[BEFORE:.*]] = obs.index %[[ENDS]][%{{.*}}] : !obs.arr<96 x i32>
// CHECK: %[[START:.*]] = scf.if %[[IN_FIRST]]
// CHECK: obs.index %arg0[%c0]
// CHECK: scf.yield %[[BEFORE]]
// CHECK: %[[FROM:.*]] = arith.select %[[IN_FIRST]], %c1
// CHECK: scf.for %{{.*}} = %[[FROM]] to %{{.*}} iter_args(%{{.*}} = %[[START]])
// CHECK: arith.subi
// CHECK-NOT: obs.sync
// CHECK: obs.return %[[RESULT]]
obs.kernel @difference_ends(%a: !obs.arr<6200 x i32>) -> !obs.arr<6200 x i32>
    attributes {threads = 32} {
  %s = obs.scan %a : !obs.arr<6200 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.subi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<6200 x i32>
}

// -----

// Long runs (6,200 i32 on 32 threads: 32 runs of 194, the last of 186)
// still fold at most 8 elements each: their checkpoints are 8 apart, 25
// stages of 32 (24 and the runs' totals; 3,200 bytes together, under half
// a block's shared memory), then the warp's five steps and the prefixes.
// CHECK-LABEL: obs.kernel @long_runs
// CHECK-COUNT-31: obs.sync {{.*}} : !obs.arr<32 x i32>
// CHECK-NOT: obs.sync
// CHECK: %[[RESULT:.*]] = obs.generate : !obs.arr<6200 x i32>
// CHECK: %[[R:.*]] = arith.divui %{{.*}}, %c194
// CHECK: %[[FIRST:.*]] = arith.muli %[[R]], %c194
// CHECK: %[[OFFSET:.*]] = arith.subi %{{.*}}, %[[FIRST]]
// CHECK: arith.divui %[[OFFSET]], %c8
// CHECK: obs.index %{{.*}} : !obs.arr<768 x i32>
// CHECK: scf.for
// CHECK: obs.return %[[RESULT]]
obs.kernel @long_runs(%a: !obs.arr<6200 x i32>) -> !obs.arr<6200 x i32>
    attributes {threads = 32} {
  %s = obs.scan %a : !obs.arr<6200 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<6200 x i32>
}
