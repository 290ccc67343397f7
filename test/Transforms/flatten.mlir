// RUN: obs-opt %s --obs-flatten --split-input-file | FileCheck %s
// RUN: obs-opt %s --obs-flatten --obs-statistics --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// Tests of lib/Transforms/Flatten.cpp.

// two with a sync: the instances' syncs become one sync over the whole
// array, whose element s*K + l is element l of instance s.
// CHECK-LABEL: obs.kernel @two_sync
// CHECK: %[[G:.*]] = obs.generate : !obs.arr<8 x i32> {
// CHECK-NEXT: ^bb0(%[[E:.*]]: index):
// CHECK: %[[S:.*]] = arith.divui %[[E]], %c4
// CHECK: %[[L:.*]] = arith.remui %[[E]], %c4
// CHECK: %[[VIEW:.*]] = obs.generate : !obs.arr<4 x i32> {
// CHECK: arith.muli %[[S]], %c4
// CHECK: obs.index %arg0[
// CHECK: %[[REV:.*]] = obs.rev %[[VIEW]] : !obs.arr<4 x i32>
// CHECK: obs.index %[[REV]][%[[L]]]
// CHECK: %[[SYNC:.*]] = obs.sync warp strided<4> %[[G]] : !obs.arr<8 x i32>
// CHECK-NOT: obs.two
// CHECK: obs.return
obs.kernel @two_sync(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %r = obs.rev %h : !obs.arr<4 x i32>
    %s = obs.sync warp strided<4> %r : !obs.arr<4 x i32>
    obs.yield %s : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// Without syncs, two is an index function and stays.
// CHECK-LABEL: obs.kernel @two_pure
// CHECK: obs.two
// STATS-NOT: lifted
obs.kernel @two_pure(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %r = obs.rev %h : !obs.arr<4 x i32>
    obs.yield %r : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// ilv P = riffle (two P (unriffle a)); one P runs P on the second half.
// CHECK-LABEL: obs.kernel @ilv_one
// CHECK: %[[U:.*]] = obs.unriffle %arg0
// CHECK: obs.generate
// CHECK: %[[S1:.*]] = obs.sync %{{.*}} : !obs.arr<8 x i32>
// CHECK: %[[R:.*]] = obs.riffle
// CHECK: %[[LO:.*]], %[[HI:.*]] = obs.halve %[[R]]
// CHECK: %[[REV:.*]] = obs.rev %[[HI]] : !obs.arr<4 x i32>
// CHECK: %[[S2:.*]] = obs.sync inplace %[[REV]] : !obs.arr<4 x i32>
// CHECK: obs.conc %[[LO]], %[[S2]]
// CHECK-NOT: obs.ilv
// CHECK-NOT: obs.one
obs.kernel @ilv_one(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.ilv %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %r = obs.rev %h : !obs.arr<4 x i32>
    %s = obs.sync %r : !obs.arr<4 x i32>
    obs.yield %s : !obs.arr<4 x i32>
  }
  %1 = obs.one %0 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %r = obs.rev %h : !obs.arr<4 x i32>
    %s = obs.sync inplace %r : !obs.arr<4 x i32>
    obs.yield %s : !obs.arr<4 x i32>
  }
  obs.return %1 : !obs.arr<8 x i32>
}

// -----

// Nested two: the inner level flattens first; each level's sync ends up
// over the whole array, in order.
// CHECK-LABEL: obs.kernel @nested
// CHECK: obs.sync %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync %{{.*}} : !obs.arr<8 x i32>
// CHECK-NOT: obs.two
// Over the whole file: 1 + 1 + 3 + 1 syncs merged (the nested kernel
// merges its inner sync twice), seven combinators lifted (both ones
// included).
// STATS: obs-flatten
// STATS-DAG: 6 merged-syncs
// STATS-DAG: 7 lifted
obs.kernel @nested(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %1 = obs.two %h : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
    ^bb0(%q: !obs.arr<2 x i32>):
      %r = obs.rev %q : !obs.arr<2 x i32>
      %s = obs.sync %r : !obs.arr<2 x i32>
      obs.yield %s : !obs.arr<2 x i32>
    }
    %2 = obs.rev %1 : !obs.arr<4 x i32>
    %3 = obs.sync %2 : !obs.arr<4 x i32>
    obs.yield %3 : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// A repeat with syncs inside a two becomes a repeat over the whole array
// whose body is the flattened two of its body.
// CHECK-LABEL: obs.kernel @two_repeat
// CHECK: %[[R:.*]] = obs.repeat 3 %arg0 : !obs.arr<8 x i32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: !obs.arr<8 x i32>):
// CHECK: obs.sync %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.yield
// CHECK-NOT: obs.two
obs.kernel @two_repeat(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %r = obs.repeat 3 %h : !obs.arr<4 x i32> {
    ^bb0(%x: !obs.arr<4 x i32>):
      %y = obs.riffle %x : !obs.arr<4 x i32>
      %s = obs.sync %y : !obs.arr<4 x i32>
      obs.yield %s : !obs.arr<4 x i32>
    }
    obs.yield %r : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// one whose body yields its own argument (a sync beside it keeps the body
// from folding): the high half goes straight into the conc. The argument
// dies with the one, so the conc must not keep using it (found by valgrind
// on the libFuzzer corpus: a use of a freed block argument).
// CHECK-LABEL: obs.kernel @one_yields_argument
// CHECK: %[[LO:.*]], %[[HI:.*]] = obs.halve %arg0 : !obs.arr<8 x i32>
// CHECK: obs.sync %[[HI]] : !obs.arr<4 x i32>
// CHECK: %[[C:.*]] = obs.conc %[[LO]], %[[HI]]
// CHECK: obs.return %[[C]]
obs.kernel @one_yields_argument(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.one %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %s = obs.sync %h : !obs.arr<4 x i32>
    obs.yield %h : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<8 x i32>
}
