// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-promote-registers))' | FileCheck %s
// RUN: obs-opt %s --split-input-file --obs-verify-sync | FileCheck %s --check-prefix=VERIFIED

// Tests of lib/Transforms/PromoteRegisters.cpp's search budget: registers
// hold 16 rounds, but the pass tries more than 8 only where the work
// assignment is written (a network's schedule, or the user's), since
// obs-assign-work runs its search once per strategy. 512 elements on 32
// threads are 16 rounds each; each thread reads back only its own.

// A planned assignment of 16 rounds: not tried.
// CHECK-LABEL: obs.kernel @planned
// CHECK: obs.sync plan(strided<32>) %{{.*}} : !obs.arr<512 x i32>
// CHECK-NOT: registers
// CHECK: obs.return
obs.kernel @planned(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> attributes {threads = 32} {
  %m = obs.map %a : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  %s = obs.sync plan(strided<32>) %m : !obs.arr<512 x i32>
  %n = obs.map %s : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %x : i32
    obs.yield %y : i32
  }
  %r = obs.sync plan(strided<32>) %n : !obs.arr<512 x i32>
  obs.return %r : !obs.arr<512 x i32>
}

// -----

// A written one: tried, and kept.
// CHECK-LABEL: obs.kernel @written
// CHECK: obs.sync strided<32> plan(registers) %{{.*}} : !obs.arr<512 x i32>
obs.kernel @written(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> attributes {threads = 32} {
  %m = obs.map %a : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  %s = obs.sync strided<32> %m : !obs.arr<512 x i32>
  %n = obs.map %s : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %x : i32
    obs.yield %y : i32
  }
  %r = obs.sync strided<32> %n : !obs.arr<512 x i32>
  obs.return %r : !obs.arr<512 x i32>
}

// -----

// Registers the user wrote, on the kernel's default sweep of 16 rounds: the
// budget is the pass's, not the storage's, so the claim is proved and kept.
// VERIFIED-LABEL: obs.kernel @user
// VERIFIED: obs.sync registers %{{.*}} : !obs.arr<512 x i32>
obs.kernel @user(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> attributes {threads = 32} {
  %m = obs.map %a : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  %s = obs.sync registers %m : !obs.arr<512 x i32>
  %n = obs.map %s : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %x : i32
    obs.yield %y : i32
  }
  %r = obs.sync %n : !obs.arr<512 x i32>
  obs.return %r : !obs.arr<512 x i32>
}
