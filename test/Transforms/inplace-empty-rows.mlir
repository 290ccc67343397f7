// RUN: obs-opt %s --obs-inplace --obs-statistics 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: obs-run %s --kernel=k --target=ref --input=5 | FileCheck %s --check-prefix=RESULT
// RUN: obs-run %s --kernel=k --target=cpu --input=5 | FileCheck %s --check-prefix=RESULT
// RUN: obs-run %s --kernel=k --target=cpu --strategy=compact --thread-order=reverse --input=5 | FileCheck %s --check-prefix=RESULT

// A stage whose elements are empty rows (hunt 23): the search for identity
// writes walked each element's leaves with a counter that never reached an
// extent of 0, and obs-inplace grew without end (out of memory, 18 GB). An
// element of empty rows has no leaf; none of its writes is dropped, and the
// in-place choice is still made and proved.
// CHECK: obs.sync %{{.*}} : !obs.arr<1 x !obs.arr<0 x i32>>
// CHECK: obs.sync plan(inplace) %{{.*}} : !obs.arr<1 x !obs.arr<0 x i32>>
// STATS: obs-inplace
// STATS-NEXT: 1 syncs-in-place
// STATS-NEXT: 0 identity-writes-dropped
// The kernel returns its argument: [5].
// RESULT-NOT: error
// RESULT: [5]
obs.kernel @k(%f: !obs.arr<1 x i32>) -> !obs.arr<1 x i32> {
  %g = obs.generate : !obs.arr<1 x !obs.arr<0 x i32>> {
  ^bb0(%i: index):
    %row = obs.generate : !obs.arr<0 x i32> {
    ^bb0(%j: index):
      %c1 = arith.constant 1 : i32
      obs.yield %c1 : i32
    }
    obs.yield %row : !obs.arr<0 x i32>
  }
  %b = obs.sync %g : !obs.arr<1 x !obs.arr<0 x i32>>
  %s = obs.sync %b : !obs.arr<1 x !obs.arr<0 x i32>>
  %o = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%k: index):
    %c0 = arith.constant 0 : index
    %row = obs.index %s[%c0] : !obs.arr<1 x !obs.arr<0 x i32>>
    %v = obs.index %f[%k] : !obs.arr<1 x i32>
    obs.yield %v : i32
  }
  obs.return %o : !obs.arr<1 x i32>
}
