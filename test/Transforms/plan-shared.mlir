// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-plan-shared))' --verify-diagnostics | FileCheck %s
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-plan-shared))' --verify-diagnostics --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: obs-run %examples/paper/sklansky.mlir --kernel=sklansky9 --threads=256 --target=cpu --emit=obs --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=SKLANSKY

// Tests of lib/Transforms/PlanShared.cpp.

// Three stages, each separated from the one after next by a block barrier:
// the third buffer takes the first one's place.
// CHECK-LABEL: obs.kernel @chain
// CHECK-SAME: obs.shared_bytes = 512
// CHECK: obs.sync %{{.*}} {obs.shared_offsets = array<i64: 0>}
// CHECK: obs.sync %{{.*}} {obs.shared_offsets = array<i64: 256>}
// CHECK: obs.sync %{{.*}} {obs.shared_offsets = array<i64: 0>}
// Over the file: these three and too_big's one.
// STATS: obs-plan-shared
// STATS-NEXT: 512 shared-bytes
// STATS-NEXT: 4 buffers
// STATS-NEXT: 1 buffers-reusing-memory
obs.kernel @chain(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.rev %0 : !obs.arr<64 x i32>
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  %3 = obs.rev %2 : !obs.arr<64 x i32>
  %4 = obs.sync %3 : !obs.arr<64 x i32>
  %5 = obs.rev %4 : !obs.arr<64 x i32>
  obs.return %5 : !obs.arr<64 x i32>
}

// -----

// Above the limit, the error gives the bytes needed.
// expected-error @+1 {{'obs.kernel' op @too_big needs 65536 bytes of shared memory, more than the 49152 a block may use}}
obs.kernel @too_big(%a: !obs.arr<1024 x !obs.arr<16 x f32>>) -> !obs.arr<1024 x !obs.arr<16 x f32>> {
  %0 = obs.sync %a : !obs.arr<1024 x !obs.arr<16 x f32>>
  %1 = obs.rev %0 : !obs.arr<1024 x !obs.arr<16 x f32>>
  obs.return %1 : !obs.arr<1024 x !obs.arr<16 x f32>>
}

// obs-optimize leaves sklansky9 one buffer of 512 i32, padded by 2 after
// every 32 (its compact stages read strides of 2 to 16): 16 x 34 x 4 bytes.
// SKLANSKY: obs-plan-shared
// SKLANSKY-NEXT: 2176 shared-bytes
// SKLANSKY-NEXT: 1 buffers
