// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=2048}))' --verify-diagnostics
// RUN: not obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-assign-work{threads=8 strategy=diagonal}))' 2>&1 | FileCheck %s

// expected-error @+2 {{cannot assign work to 2048 threads, more than a block's 1024}}
// CHECK: for the --strategy option: Cannot find option named 'diagonal'!
obs.kernel @too_many(%a: !obs.arr<4096 x i32>) -> !obs.arr<4096 x i32> {
  %0 = obs.sync %a : !obs.arr<4096 x i32>
  obs.return %0 : !obs.arr<4096 x i32>
}
