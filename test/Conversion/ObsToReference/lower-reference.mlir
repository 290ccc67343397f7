// RUN: obs-opt %s --obs-lower-reference --split-input-file | FileCheck %s
// RUN: obs-opt %s --obs-lower-reference --obs-statistics --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// Tests of lib/Conversion/ObsToReference: the ref target.

// A kernel becomes a function over memrefs: arguments, then destinations.
// Every array is materialised into its own buffer by a loop; the sync is the
// identity; the result is copied out and the buffers freed.
// CHECK-LABEL: func.func @increv(
// CHECK-SAME: %[[IN:.*]]: memref<10xi32>, %[[OUT:.*]]: memref<10xi32>)
// CHECK: %[[MAPPED:.*]] = memref.alloc() : memref<10xi32>
// CHECK: scf.for %[[I:.*]] =
// CHECK:   %[[X:.*]] = memref.load %[[IN]][%[[I]]]
// CHECK:   %[[Y:.*]] = arith.addi %[[X]]
// CHECK:   memref.store %[[Y]], %[[MAPPED]][%[[I]]]
// CHECK: %[[REVERSED:.*]] = memref.alloc() : memref<10xi32>
// CHECK: scf.for %[[J:.*]] =
// CHECK:   %[[K:.*]] = arith.subi %{{.*}}, %[[J]] : index
// CHECK:   memref.load %[[MAPPED]][%[[K]]]
// CHECK: scf.for
// CHECK:   memref.load %[[REVERSED]]
// CHECK:   memref.store %{{.*}}, %[[OUT]]
// CHECK: memref.dealloc %[[MAPPED]]
// CHECK: memref.dealloc %[[REVERSED]]
// CHECK: return
// The five kernels below allocate 2, 0, 3 (result, part, rev), 2
// (iteration, riffle) and 2 (sorted, merged) buffers.
// STATS: obs-lower-reference
// STATS-NEXT: 5 kernels
// STATS-NEXT: 9 buffers
obs.kernel @increv(%input: !obs.arr<10 x i32>) -> !obs.arr<10 x i32> {
  %one = arith.constant 1 : i32
  %incremented = obs.map %input : !obs.arr<10 x i32> -> !obs.arr<10 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %stored = obs.sync %incremented : !obs.arr<10 x i32>
  %result = obs.rev %stored : !obs.arr<10 x i32>
  obs.return %result : !obs.arr<10 x i32>
}

// -----

// Tuples are stored as one memref per scalar, nested arrays as more
// dimensions.
// CHECK-LABEL: func.func @layout(
// CHECK-SAME: memref<4xi32>, %{{.*}}: memref<4xf32>, %{{.*}}: memref<2x3xf64>, %{{.*}}: memref<4xi32>, %{{.*}}: memref<4xf32>)
obs.kernel @layout(%p: !obs.arr<4 x tuple<i32, f32>>, %g: !obs.arr<2 x !obs.arr<3 x f64>>) -> !obs.arr<4 x tuple<i32, f32>> {
  obs.return %p : !obs.arr<4 x tuple<i32, f32>>
}

// -----

// two runs its sub-program on each half, in a loop over the halves: copy
// the half in, run the program, copy the part out.
// CHECK-LABEL: func.func @two_rev(
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<8xi32>
// CHECK: scf.for %[[S:.*]] = %c0{{.*}} to %c2{{.*}} step
// CHECK:   %[[PART:.*]] = memref.alloc() : memref<4xi32>
// CHECK:   scf.for
// CHECK:     memref.store %{{.*}}, %[[PART]]
// CHECK:   %[[REV:.*]] = memref.alloc() : memref<4xi32>
// CHECK:   scf.for
// CHECK:     memref.load %[[PART]]
// CHECK:   scf.for
// CHECK:     memref.load %[[REV]]
// CHECK:     memref.store %{{.*}}, %[[OUT]]
// CHECK:   memref.dealloc %[[PART]]
// CHECK:   memref.dealloc %[[REV]]
obs.kernel @two_rev(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %r = obs.rev %h : !obs.arr<4 x i32>
    %s = obs.sync %r : !obs.arr<4 x i32>
    obs.yield %s : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// repeat is a loop, not unrolled: the body's result is copied back into the
// buffer of the iteration.
// CHECK-LABEL: func.func @repeat_riffle(
// CHECK: %[[CUR:.*]] = memref.alloc() : memref<8xi32>
// CHECK: scf.for
// CHECK:   memref.store %{{.*}}, %[[CUR]]
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step
// CHECK:   %[[R:.*]] = memref.alloc() : memref<8xi32>
// CHECK:   scf.for
// CHECK:     memref.load %[[CUR]]
// CHECK:     memref.store %{{.*}}, %[[R]]
// CHECK:   scf.for
// CHECK:     memref.load %[[R]]
// CHECK:     memref.store %{{.*}}, %[[CUR]]
// CHECK:   memref.dealloc %[[R]]
// CHECK-NOT: obs.riffle
obs.kernel @repeat_riffle(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.repeat 5 %a : !obs.arr<8 x i32> {
  ^bb0(%x: !obs.arr<8 x i32>):
    %r = obs.riffle %x : !obs.arr<8 x i32>
    obs.yield %r : !obs.arr<8 x i32>
  }
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// A sort is a bottom-up merge sort: ceil(log2 13) = 4 passes, each merging
// runs pairwise into a second buffer (the next element from the right run
// only where `less` says it strictly precedes the left run's), then copying
// it back.
// CHECK-LABEL: func.func @sort13(
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<13xi32>
// CHECK: %[[MERGED:.*]] = memref.alloc() : memref<13xi32>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step
// CHECK:   scf.for
// CHECK:     scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[I:.*]] = %{{.*}}, %[[J:.*]] = %{{.*}})
// CHECK:       scf.if
// CHECK:         scf.if
// CHECK:           %[[RIGHT:.*]] = memref.load %[[OUT]][%[[J]]]
// CHECK:           %[[LEFT:.*]] = memref.load %[[OUT]][%[[I]]]
// CHECK:           arith.cmpi slt, %[[RIGHT]], %[[LEFT]]
// CHECK:       memref.store %{{.*}}, %[[MERGED]][%[[K]]]
// CHECK:       scf.yield
// CHECK:   scf.for
// CHECK:     memref.load %[[MERGED]]
// CHECK:     memref.store %{{.*}}, %[[OUT]]
obs.kernel @sort13(%a: !obs.arr<13 x i32>) -> !obs.arr<13 x i32> {
  %0 = obs.sort %a : !obs.arr<13 x i32> {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    obs.yield %less : i1
  }
  obs.return %0 : !obs.arr<13 x i32>
}
