// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=32}))' | FileCheck %s

// Tests of lib/Transforms/AssignWork.cpp: a work assignment the user wrote
// needs 64 threads, so the block gets them, though the option asks for 32;
// the open sync is assigned for the 64 (found by obs-fuzz: the kernel used
// to get 32 threads and no longer verified).
// CHECK-LABEL: obs.kernel @user_needs_more
// CHECK-SAME: threads = 64
// CHECK: obs.sync strided<64>
// CHECK: obs.sync strided<64>
obs.kernel @user_needs_more(%a: !obs.arr<128 x i32>) -> !obs.arr<128 x i32> {
  %0 = obs.sync strided<64> %a : !obs.arr<128 x i32>
  %1 = obs.rev %0 : !obs.arr<128 x i32>
  %2 = obs.sync %1 : !obs.arr<128 x i32>
  obs.return %2 : !obs.arr<128 x i32>
}
