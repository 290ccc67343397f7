// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-plan-shared, obs-report-cost))' -verify-diagnostics | FileCheck %s
// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-plan-shared{pad-rows=0}, obs-report-cost))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNPADDED
// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-plan-shared))' --obs-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// Tests of the padding in lib/Transforms/PlanShared.cpp: a 32 x 32 tile of
// i32 on one warp, a row per thread, staged in shared memory and read back
// by columns (examples/grid/transpose.mlir's kernel).
//
// Unpadded, thread i stores row i, words 32 i to 32 i + 31, as 8 vector
// stores of 16 bytes (its row starts at a multiple of 16 bytes): the k-th
// store of the warp puts 32 words in each of banks 4k to 4k + 3, 32
// wavefronts where 4 would do (512 bytes). The transposed read of element
// (i, j) is word 32 j + i: at each j the warp reads 32 consecutive words,
// one wavefront. So 8 x 32 + 32 = 288 wavefronts, where the accesses'
// widths allow 8 x 4 + 32 = 64: 4.50 times.
// UNPADDED: remark: one block: {{.*}}shared memory: 40 warp accesses in 288 wavefronts (7.20 each){{.*}}; shared wavefronts 4.50 times the fewest the accesses' widths allow
//
// With 4 elements after each row (rows of 36 words, still 16-byte aligned,
// so still vector stores), the k-th store puts words 36 i + 4k + m in bank
// (4 i + 4k + m) mod 32: 4 words in each bank, 4 wavefronts; the read of
// word 36 j + i meets 32 banks once. 8 x 4 + 32 = 64 wavefronts, the
// fewest. Paddings of 1 to 3 break the rows' 16-byte alignment, so that
// fewer of the stores are vectors (more accesses) and none does better.
// The buffer is 32 x 36 x 4 = 4608 bytes.
// CHECK-LABEL: obs.kernel @transpose_tile
// CHECK-SAME: obs.shared_bytes = 4608
// CHECK: obs.sync plan(strided<32>) %{{.*}} {obs.shared_offsets = array<i64: 0>, obs.shared_padding = 4 : i64}
// STATS: obs-plan-shared
// STATS-NEXT: 4608 shared-bytes
// STATS-NEXT: 1 buffers
// STATS-NEXT: 1 buffers-padded
// expected-remark @+1 {{one block: 1 block barriers, 0 warp barriers; shared memory: 40 warp accesses in 64 wavefronts (1.60 each)}}
obs.kernel @transpose_tile(%tile: !obs.arr<32 x !obs.arr<32 x i32>>)
    -> !obs.arr<32 x !obs.arr<32 x i32>> attributes {threads = 32} {
  // expected-remark @+1 {{shared wavefronts 1.00 times the fewest the accesses' widths allow}}
  %staged = obs.sync plan(strided<32>) %tile : !obs.arr<32 x !obs.arr<32 x i32>>
  %transposed = obs.generate : !obs.arr<32 x !obs.arr<32 x i32>> {
  ^bb0(%i: index):
    %row = obs.generate : !obs.arr<32 x i32> {
    ^bb0(%j: index):
      %source_row = obs.index %staged[%j] : !obs.arr<32 x !obs.arr<32 x i32>>
      %value = obs.index %source_row[%i] : !obs.arr<32 x i32>
      obs.yield %value : i32
    }
    obs.yield %row : !obs.arr<32 x i32>
  }
  // expected-remark @+1 {{the last stage}}
  obs.return %transposed : !obs.arr<32 x !obs.arr<32 x i32>>
}
