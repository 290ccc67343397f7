// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-plan-shared, obs-report-cost))' -verify-diagnostics | FileCheck %s
// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-plan-shared{pad-rows=0}, obs-report-cost))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNPADDED
// RUN: obs-opt %s --pass-pipeline='builtin.module(obs.kernel(obs-plan-shared))' --obs-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
//
// The padded buffer lowers to rows of 32 + 1 (element e at row e div 32,
// column e mod 32), a view of the arena that carries the padding, and
// reads back what was stored: the evens of 0, 1, ..., 63, in any thread
// order. Only obs-plan-shared runs (a warp's array would otherwise be kept
// in shuffles, with no buffer).
// RUN: awk 'BEGIN { printf "["; for (i = 0; i < 32; i++) printf "%%s%%d", (i ? ", " : ""), 2 * i; print "]" }' > %t.expected
// RUN: for run in "--target=ref" "--target=cpu --passes=plan-shared" "--target=cpu --passes=plan-shared --thread-order=reverse" "--target=cpu --passes=plan-shared --thread-order=shuffle:4"; do \
// RUN:   obs-run %s --kernel=evens_of $run --input=iota > %t.out && cmp %t.out %t.expected || { echo "$run: wrong"; exit 1; }; \
// RUN: done
// RUN: obs-run %s --kernel=evens_of --target=cpu --passes=plan-shared --emit=gpu | FileCheck %s --check-prefix=GPU

// Tests of lib/Transforms/PlanShared.cpp's padding of a flat array: a
// one-dimensional buffer of at least two rows of 32 elements is padded as
// an array of rows of 32 (lib/Dialect/Obs/Storage.cpp).
//
// One warp reads the evens of 64 i32: lane i reads word 2 i. Unpadded,
// lanes i and i + 16 meet bank 2 i mod 32: the read takes 2 wavefronts
// where 1 would do, and the stores (lane i writes words i and i + 32) one
// each: 3 warp accesses in 4 wavefronts. With one element after every 32,
// word 2 i of the second row (i >= 16) moves to 2 i + 1, an odd bank: 3 in
// 3. The buffer is 2 rows of 33 words, 264 bytes.
// UNPADDED: remark: one block: {{.*}}shared memory: 3 warp accesses in 4 wavefronts (1.33 each){{.*}}; shared wavefronts 1.33 times the fewest the accesses' widths allow
// CHECK-LABEL: obs.kernel @evens_of
// CHECK-SAME: obs.shared_bytes = 264
// CHECK: obs.sync plan(strided<32>) %{{.*}} {obs.shared_offsets = array<i64: 0>, obs.shared_padding = 1 : i64} : !obs.arr<64 x i32>
// STATS: obs-plan-shared
// STATS-NEXT: 264 shared-bytes
// STATS-NEXT: 1 buffers
// STATS-NEXT: 1 buffers-padded
// GPU: workgroup(%{{.*}} : memref<264xi8, #gpu.address_space<workgroup>>
// GPU: memref.view %{{.*}} {obs.owner = {{.*}}, obs.shared_padding = 1 : i64} : memref<264xi8, #gpu.address_space<workgroup>> to memref<2x33xi32, #gpu.address_space<workgroup>>
// expected-remark @+1 {{one block: 1 block barriers, 0 warp barriers; shared memory: 3 warp accesses in 3 wavefronts (1.00 each)}}
obs.kernel @evens_of(%a: !obs.arr<64 x i32>) -> !obs.arr<32 x i32> attributes {threads = 32} {
  // expected-remark @+1 {{the stage this sync ends: 1 block barriers, 0 warp barriers; shared memory: 2 warp accesses in 2 wavefronts (1.00 each)}}
  %s = obs.sync plan(strided<32>) %a : !obs.arr<64 x i32>
  %e = obs.generate : !obs.arr<32 x i32> {
  ^bb0(%i: index):
    %c2 = arith.constant 2 : index
    %j = arith.muli %i, %c2 : index
    %x = obs.index %s[%j] : !obs.arr<64 x i32>
    obs.yield %x : i32
  }
  // expected-remark @+1 {{the last stage: 0 block barriers, 0 warp barriers; shared memory: 1 warp accesses in 1 wavefronts (1.00 each)}}
  obs.return %e : !obs.arr<32 x i32>
}
