// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=32}))' | FileCheck %s

// Tests of lib/Transforms/AssignWork.cpp: a work assignment the user wrote
// needs 64 threads, so the block gets them, though the option asks for 32;
// the open sync is assigned for the 64 (found by obs-fuzz: the kernel used
// to get 32 threads and no longer verified).
// CHECK-LABEL: obs.kernel @user_needs_more
// CHECK-SAME: threads = 64
// CHECK: obs.sync strided<64>
// CHECK: obs.sync plan(strided<64>)
obs.kernel @user_needs_more(%a: !obs.arr<128 x i32>) -> !obs.arr<128 x i32> {
  %0 = obs.sync strided<64> %a : !obs.arr<128 x i32>
  %1 = obs.rev %0 : !obs.arr<128 x i32>
  %2 = obs.sync %1 : !obs.arr<128 x i32>
  obs.return %2 : !obs.arr<128 x i32>
}

// compact<256> (and strided<256>) name 256 threads even over 16 elements,
// as the sync verifier counts them: the block gets 256 (found by obs-fuzz:
// the kernel got 64 and no longer verified).
// CHECK-LABEL: obs.kernel @user_names_more_than_elements
// CHECK-SAME: threads = 256
// CHECK: obs.sync compact<256>
obs.kernel @user_names_more_than_elements(%a: !obs.arr<16 x f64>) -> !obs.arr<16 x f64> {
  %0 = obs.sync compact<256> %a : !obs.arr<16 x f64>
  obs.return %0 : !obs.arr<16 x f64>
}
