// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=256}))' | FileCheck %s
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=256}))' --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=256 strategy=cost refine-with=promote-registers keep-refined=true}))' | FileCheck %s --check-prefix=KEPT
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=256 strategy=cost refine-with=promote-registers keep-refined=true}))' --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=KEPT-STATS

// A kernel's own `strategy` (lib/Transforms/AssignWork.cpp) wins over the
// pass's option, as its `threads` do, and round-trips.

// Blocked, written, under the option's strided: blocked, and nothing costed.
// CHECK-LABEL: obs.kernel @blocked
// CHECK-SAME: attributes {strategy = #obs.strategy<blocked>, threads = 256 : i64}
// CHECK: obs.sync plan(blocked<2>) %{{.*}} : !obs.arr<512 x i32>
// Under the option's cost, with keep-refined: dealt out blocked, not
// costed.
// KEPT-LABEL: obs.kernel @blocked
// KEPT: obs.sync plan(blocked<2>) %{{.*}} : !obs.arr<512 x i32>
obs.kernel @blocked(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32>
    attributes {strategy = #obs.strategy<blocked>, threads = 256} {
  %m = obs.map %a : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %s = obs.sync %m : !obs.arr<512 x i32>
  %n = obs.map %s : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %x : i32
    obs.yield %y : i32
  }
  obs.return %n : !obs.arr<512 x i32>
}

// -----

// Strided, written, under the option's cost with keep-refined: dealt out
// strided, not costed, and then refined (registers: the stage after reads
// each element in the thread that computed it).
// KEPT-LABEL: obs.kernel @strided
// KEPT: obs.sync plan(strided<256> registers) %{{.*}} : !obs.arr<512 x i32>
obs.kernel @strided(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32>
    attributes {strategy = #obs.strategy<strided>, threads = 256} {
  %m = obs.map %a : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %s = obs.sync %m : !obs.arr<512 x i32>
  %n = obs.map %s : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %x : i32
    obs.yield %y : i32
  }
  obs.return %n : !obs.arr<512 x i32>
}

// -----

// `cost`, written, under the option's strided: the strategies are costed on
// copies (which do not carry the kernel's `cost`, or each would cost
// again), and one of them goes into the plan.
// CHECK-LABEL: obs.kernel @costed
// CHECK-SAME: attributes {strategy = #obs.strategy<cost>, threads = 256 : i64}
// CHECK: obs.sync plan({{strided<256>|blocked<2>|compact<256>}}) %{{.*}} : !obs.arr<512 x i32>
// STATS: obs-assign-work
// STATS: 3 strategies-costed
// Under the option's cost too, and only this kernel is costed:
// KEPT-STATS: obs-assign-work
// KEPT-STATS: 3 strategies-costed
obs.kernel @costed(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32>
    attributes {strategy = #obs.strategy<cost>, threads = 256} {
  %m = obs.map %a : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %s = obs.sync %m : !obs.arr<512 x i32>
  %r = obs.rev %s : !obs.arr<512 x i32>
  obs.return %r : !obs.arr<512 x i32>
}
