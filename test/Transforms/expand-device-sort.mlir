// RUN: obs-opt %s --obs-expand-device -split-input-file | FileCheck %s
// RUN: obs-opt %s --obs-expand-device=tile=4 -split-input-file | FileCheck %s --check-prefix=TILE4
// RUN: obs-opt %s --obs-expand-device -split-input-file --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// Four sorts follow one comparison of the first scalars (radix); three do
// not (merge).
// STATS: obs-expand-device
// STATS-NEXT: 7 device-ops
// STATS: 4 radix-sorts
// STATS-NEXT: 3 merge-sorts

// An i32 sort is four passes of a radix sort of 8-bit digits, in
// onesweep's shape. The start kernel zeros each pass's 256 digit totals
// and writes each pass's shift.
// CHECK-LABEL: obs.kernel private @sort_device_sort_start() -> (!obs.arr<256 x i32>, !obs.arr<256 x i32>, !obs.arr<256 x i32>, !obs.arr<256 x i32>, !obs.arr<1 x i32>, !obs.arr<1 x i32>, !obs.arr<1 x i32>, !obs.arr<1 x i32>) attributes {threads = 256 : i64}
// The count reads each key once and counts its four digits, 16,384 keys a
// block of 1,024 threads, absent keys nowhere; the block's counts are
// added into each pass's totals.
// CHECK-LABEL: obs.kernel private @sort_device_sort_count(%{{.*}}: !obs.arr<16384 x i32> {obs.absent = 0 : i32}) -> (!obs.arr<256 x i32>, !obs.arr<256 x i32>, !obs.arr<256 x i32>, !obs.arr<256 x i32>) attributes {threads = 1024 : i64}
// CHECK: obs.extent
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.xori
// CHECK-COUNT-4: obs.scatter %{{.*}} at %{{.*}} combine(add) global : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<256 x i32>
// A pass's scatter: the tile's digit counts, carried over the tiles before
// it by a look-back per digit over its chain (257 words for one block);
// the pass's row of totals, whose exclusive scan starts each digit, and
// its shift, each read whole. The tile is ranked by digit in segments of
// 512 (three obs.two around a bitonic sort of 512), each segment's digit
// counts by an add scatter.
// CHECK-LABEL: obs.kernel private @sort_device_sort_scatter(
// CHECK-SAME: %{{.*}}: !obs.arr<4096 x i32> {obs.absent = 0 : i32}, %[[CHAIN:[^:]*]]: !obs.arr<257 x i64> {obs.absent = 0 : i64, obs.chain}, %[[ROW:[^:]*]]: !obs.arr<256 x i32> {obs.absent = 0 : i32, obs.global}, %{{.*}}: !obs.arr<1 x i32> {obs.absent = 0 : i32, obs.global}) -> !obs.arr<2147483647 x i32>
// CHECK: %[[COUNTS:.*]] = obs.scatter %{{.*}} at %{{.*}} combine(add) initial(0 : i32) : !obs.arr<4096 x i32>, !obs.arr<4096 x i32> -> !obs.arr<256 x i32>
// CHECK: obs.carry %[[COUNTS]] combine(add) chain(%[[CHAIN]]) : !obs.arr<256 x i32>, !obs.arr<257 x i64>
// CHECK: obs.scan %[[ROW]] network(sklansky) : !obs.arr<256 x i32>
// CHECK: obs.two %{{.*}} : !obs.arr<4096 x i32> -> !obs.arr<4096 x i32>
// CHECK: obs.two %{{.*}} : !obs.arr<2048 x i32> -> !obs.arr<2048 x i32>
// CHECK: obs.two %{{.*}} : !obs.arr<1024 x i32> -> !obs.arr<1024 x i32>
// CHECK: obs.sort %{{.*}} network(bitonic) : !obs.arr<512 x i32>
// CHECK: obs.scatter %{{.*}} at %{{.*}} combine(min) initial(4096 : i32) : !obs.arr<4096 x i32>, !obs.arr<4096 x i32> -> !obs.arr<2048 x i32>
// CHECK: obs.scatter %{{.*}} at %{{.*}} combine(add) initial(0 : i32) : !obs.arr<4096 x i32>, !obs.arr<4096 x i32> -> !obs.arr<2048 x i32>
// CHECK: obs.scatter %{{.*}} at %{{.*}} global : !obs.arr<4096 x i32>, !obs.arr<4096 x i32> -> !obs.arr<2147483647 x i32>
// CHECK-NOT: obs.kernel private @sort_device_sort_scatter
// The plan: a start, one count, then a scatter a pass (obs-expand-device
// clears the chain before each). Passes alternate between a spare array
// and the output, so that the last writes the output; each reads its
// pass's row of totals and its shift.
// CHECK-LABEL: func.func @sort(
// CHECK-SAME: %[[IN:[^:]*]]: memref<?xi32>, %[[OUT:[^:]*]]: memref<?xi32>
// CHECK-NOT: scf.if
// CHECK: %[[ROW0:.*]] = memref.alloc() : memref<256xi32>
// CHECK: %[[SHIFT0:.*]] = memref.alloc() : memref<1xi32>
// CHECK: %[[ROW1:.*]] = memref.alloc() : memref<256xi32>
// CHECK: %[[SHIFT1:.*]] = memref.alloc() : memref<1xi32>
// CHECK: %[[ROW2:.*]] = memref.alloc() : memref<256xi32>
// CHECK: %[[SHIFT2:.*]] = memref.alloc() : memref<1xi32>
// CHECK: %[[ROW3:.*]] = memref.alloc() : memref<256xi32>
// CHECK: %[[SHIFT3:.*]] = memref.alloc() : memref<1xi32>
// CHECK: %[[CHAIN:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: %[[SPARE:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK: obs.launch @sort_device_sort_start grid(%{{.*}}) outs(%[[ROW0]], %[[ROW1]], %[[ROW2]], %[[ROW3]], %[[SHIFT0]], %[[SHIFT1]], %[[SHIFT2]], %[[SHIFT3]] :
// CHECK: obs.launch @sort_device_sort_count grid(%{{.*}}) ins(%[[IN]] : memref<?xi32>) outs(%[[ROW0]], %[[ROW1]], %[[ROW2]], %[[ROW3]] :
// CHECK: obs.launch @obs_clear_chain grid(%{{.*}}) outs(%[[CHAIN]] : memref<?xi64>)
// CHECK: obs.launch @sort_device_sort_scatter grid(%[[TILES:.*]]) ins(%[[IN]], %[[CHAIN]], %[[ROW0]], %[[SHIFT0]] : {{.*}}) outs(%[[SPARE]] : memref<?xi32>)
// CHECK: obs.launch @obs_clear_chain grid(%{{.*}}) outs(%[[CHAIN]] : memref<?xi64>)
// CHECK: obs.launch @sort_device_sort_scatter grid(%[[TILES]]) ins(%[[SPARE]], %[[CHAIN]], %[[ROW1]], %[[SHIFT1]] : {{.*}}) outs(%[[OUT]] : memref<?xi32>)
// CHECK: obs.launch @obs_clear_chain grid(%{{.*}}) outs(%[[CHAIN]] : memref<?xi64>)
// CHECK: obs.launch @sort_device_sort_scatter grid(%[[TILES]]) ins(%[[OUT]], %[[CHAIN]], %[[ROW2]], %[[SHIFT2]] : {{.*}}) outs(%[[SPARE]] : memref<?xi32>)
// CHECK: obs.launch @obs_clear_chain grid(%{{.*}}) outs(%[[CHAIN]] : memref<?xi64>)
// CHECK: obs.launch @sort_device_sort_scatter grid(%[[TILES]]) ins(%[[SPARE]], %[[CHAIN]], %[[ROW3]], %[[SHIFT3]] : {{.*}}) outs(%[[OUT]] : memref<?xi32>)
// CHECK-NOT: obs.launch
// CHECK-NOT: obs.device_sort

// With tiles of 4, the count's blocks of 16 threads take 16 keys, and a
// scatter's blocks of 4 threads look back for 64 digits each.
// TILE4-LABEL: obs.kernel private @sort_device_sort_count(%{{.*}}: !obs.arr<16 x i32> {obs.absent = 0 : i32})
// TILE4-SAME: attributes {threads = 16 : i64}
// TILE4-LABEL: obs.kernel private @sort_device_sort_scatter(%{{.*}}: !obs.arr<4 x i32> {obs.absent = 0 : i32}, %{{.*}}: !obs.arr<257 x i64>
// TILE4-SAME: threads = 4 : i64
func.func @sort(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    obs.yield %less : i1
  }
  return
}

// -----

// Descending floats: -0.0 taken as 0.0, the bits in IEEE 754's total
// order, then all flipped.
// CHECK-LABEL: obs.kernel private @descending_device_sort_count(
// CHECK: arith.bitcast %{{.*}} : f64 to i64
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK: arith.shrsi
// CHECK: arith.ori
// CHECK: arith.xori
// CHECK: arith.constant -1 : i64
// CHECK: arith.xori
// Eight passes; values ride along in a tuple.
// CHECK-LABEL: obs.kernel private @descending_device_sort_scatter(%{{.*}}: !obs.arr<4096 x tuple<f64, i16>> {obs.absent = [0.000000e+00, 0 : i16]}
// CHECK-SAME: -> (!obs.arr<2147483647 x f64>, !obs.arr<2147483647 x i16>)
// CHECK-LABEL: func.func @descending(
// CHECK-COUNT-8: obs.launch @descending_device_sort_scatter
// CHECK-NOT: obs.launch @descending_device_sort_scatter
func.func @descending(%k: memref<?xf64>, %v: memref<?xi16>, %ok: memref<?xf64>, %ov: memref<?xi16>) {
  obs.device_sort ins(%k, %v : memref<?xf64>, memref<?xi16>) outs(%ok, %ov : memref<?xf64>, memref<?xi16>) {
  ^bb0(%k1: f64, %v1: i16, %k2: f64, %v2: i16):
    %first = arith.cmpf olt, %k2, %k1 : f64
    obs.yield %first : i1
  }
  return
}

// -----

// An i8 sort in place is one pass, which must not read and write one
// array: it starts from a copy.
// CHECK-LABEL: func.func @bytes(
// CHECK-SAME: %[[A:.*]]: memref<?xi8>
// CHECK: %[[SPARE:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: obs.launch @bytes_device_sort_copy_tile grid(%{{.*}}) ins(%[[A]] : memref<?xi8>) outs(%[[SPARE]] : memref<?xi8>)
// CHECK: obs.launch @bytes_device_sort_count grid(%{{.*}}) ins(%[[SPARE]] : memref<?xi8>)
// CHECK: obs.launch @bytes_device_sort_scatter grid(%{{.*}}) ins(%[[SPARE]], %{{.*}}, %{{.*}}, %{{.*}} : {{.*}}) outs(%[[A]] : memref<?xi8>)
func.func @bytes(%a: memref<?xi8>) {
  obs.device_sort ins(%a : memref<?xi8>) outs(%a : memref<?xi8>) {
  ^bb0(%x: i8, %y: i8):
    %less = arith.cmpi ult, %x, %y : i8
    obs.yield %less : i1
  }
  return
}

// -----

// Only the values are sorted where they are: the one pass still must not
// read and write one array, so it starts from a copy of both.
// CHECK-LABEL: func.func @values_in_place(
// CHECK-SAME: %[[K:[^:]*]]: memref<?xi8>, %[[V:[^:]*]]: memref<?xi32>, %[[K2:[^:]*]]: memref<?xi8>
// CHECK: obs.launch @values_in_place_device_sort_copy_tile grid(%{{.*}}) ins(%[[K]], %[[V]] : memref<?xi8>, memref<?xi32>) outs(%[[SK:.*]], %[[SV:.*]] : memref<?xi8>, memref<?xi32>)
// CHECK: obs.launch @values_in_place_device_sort_scatter grid(%{{.*}}) ins(%[[SK]], %[[SV]], %{{.*}}, %{{.*}}, %{{.*}} : {{.*}}) outs(%[[K2]], %[[V]] : memref<?xi8>, memref<?xi32>)
func.func @values_in_place(%k: memref<?xi8>, %v: memref<?xi32>, %k2: memref<?xi8>) {
  obs.device_sort ins(%k, %v : memref<?xi8>, memref<?xi32>) outs(%k2, %v : memref<?xi8>, memref<?xi32>) {
  ^bb0(%x: i8, %xv: i32, %y: i8, %yv: i32):
    %less = arith.cmpi ult, %x, %y : i8
    obs.yield %less : i1
  }
  return
}

// -----

// A `less` the radix sort cannot follow (by magnitude) merges. A tile
// (4,096 i32, 16 KiB) is sorted by merges of runs that double, from one
// element to the tile, each round a synced array of the tile; from runs of
// 8 on (pairs longer than a walk of 8), the round first finds the merge
// path's crossing of every 8th diagonal (512 i32). The last round's
// elements are the output. 12 rounds, 11 synced, 9 of them with
// crossings: 21 syncs with the tile's load. `less` is called on present
// elements only: runs stop at obs.extent.
// CHECK-LABEL: obs.kernel private @by_magnitude_device_sort_sort_tile(%{{.*}}: !obs.arr<4096 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4096 x i32> attributes {threads = 256 : i64}
// CHECK: obs.extent
// CHECK: obs.sync strided<256> %{{.*}} : !obs.arr<4096 x i32>
// CHECK-COUNT-3: obs.sync strided<256> %{{.*}} : !obs.arr<4096 x i32>
// CHECK: obs.sync strided<256> %{{.*}} : !obs.arr<512 x i32>
// CHECK: scf.for
// CHECK: arith.maxsi
// CHECK: obs.sync strided<256> %{{.*}} : !obs.arr<4096 x i32>
// CHECK-COUNT-15: obs.sync strided<256>
// CHECK-NOT: obs.sync
// CHECK: obs.return
// The merge reads the previous pass's array whole, at places two binary
// searches find (the tile's first and last crossings of the merge path),
// then its window, then each thread's crossing every 8 outputs.
// CHECK-LABEL: obs.kernel private @by_magnitude_device_sort_merge(%{{.*}}: !obs.arr<2147483647 x i32> {obs.absent = 0 : i32, obs.global}, %{{.*}}: !obs.arr<1 x i64> {obs.absent = 0 : i64}) -> !obs.arr<4096 x i32> attributes {threads = 256 : i64}
// CHECK: obs.extent %{{.*}} : !obs.arr<2147483647 x i32>
// CHECK: obs.block_id
// CHECK: obs.sync strided<256> %{{.*}} : !obs.arr<2 x i64>
// CHECK: obs.sync strided<256> %{{.*}} : !obs.arr<4096 x i32>
// CHECK: obs.sync strided<256> %{{.*}} : !obs.arr<512 x i32>
// CHECK-LABEL: obs.kernel private @by_magnitude_device_sort_run_length_twice(
// The plan: every pass a length up to 2^31 - 1 may need (19: runs of
// 4,096 up to 2^30), each gated
// by the length, the last that runs writing the output.
// CHECK-LABEL: func.func @by_magnitude(
// CHECK-SAME: %[[IN:[^:]*]]: memref<?xi32>, %[[OUT:[^:]*]]: memref<?xi32>
// CHECK: %[[SPARE0:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK: %[[RUNS0:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: %[[SPARE1:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK: %[[RUNS1:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: obs.launch @by_magnitude_device_sort_run_length_first grid(%{{.*}}) outs(%[[RUNS0]] : memref<?xi64>)
// CHECK: obs.launch @by_magnitude_device_sort_sort_tile grid(%{{.*}}) ins(%[[IN]] : memref<?xi32>) outs(%[[OUT]] : memref<?xi32>)
// CHECK: obs.launch @by_magnitude_device_sort_sort_tile grid(%{{.*}}) ins(%[[IN]] : memref<?xi32>) outs(%[[SPARE0]] : memref<?xi32>)
// CHECK: obs.launch @by_magnitude_device_sort_merge grid(%{{.*}}) ins(%[[SPARE0]], %[[RUNS0]] : memref<?xi32>, memref<?xi64>) outs(%[[OUT]] : memref<?xi32>)
// CHECK: obs.launch @by_magnitude_device_sort_merge grid(%{{.*}}) ins(%[[SPARE0]], %[[RUNS0]] : memref<?xi32>, memref<?xi64>) outs(%[[SPARE1]] : memref<?xi32>)
// CHECK: obs.launch @by_magnitude_device_sort_run_length_twice grid(%{{.*}}) ins(%[[RUNS0]] : memref<?xi64>) outs(%[[RUNS1]] : memref<?xi64>)
// CHECK: obs.launch @by_magnitude_device_sort_merge grid(%{{.*}}) ins(%[[SPARE1]], %[[RUNS1]] : memref<?xi32>, memref<?xi64>) outs(%[[OUT]] : memref<?xi32>)
// CHECK-COUNT-34: obs.launch @by_magnitude_device_sort_merge
// CHECK-NOT: obs.launch @by_magnitude_device_sort_merge
// CHECK-NOT: obs.device_sort
func.func @by_magnitude(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %zero = arith.constant 0 : i32
    %minusX = arith.subi %zero, %x : i32
    %minusY = arith.subi %zero, %y : i32
    %absX = arith.maxsi %x, %minusX : i32
    %absY = arith.maxsi %y, %minusY : i32
    %less = arith.cmpi slt, %absX, %absY : i32
    obs.yield %less : i1
  }
  return
}

// -----

// A length known when compiling: 5,000 (i32, f32) pairs, in tiles of
// 2,048 (16 KiB of 8-byte pairs), take two passes (runs of 2,048, then
// 4,096 with 904), and only the launches that length runs are written: no
// one-tile sort into the outputs, no pass past the second.
// CHECK-LABEL: func.func @two_keys_known(
// CHECK-SAME: %{{[^:]*}}: memref<5000xi32>, %{{[^:]*}}: memref<5000xf32>, %[[OK:[^:]*]]: memref<5000xi32>, %[[OV:[^:]*]]: memref<5000xf32>
// CHECK: obs.launch @two_keys_known_device_sort_run_length_first grid(%[[C3:.*]]) outs
// CHECK: obs.launch @two_keys_known_device_sort_sort_tile grid(%[[C3]]) ins({{.*}}) outs(%[[SPARE:[^,]*]],
// CHECK-NOT: obs.launch @two_keys_known_device_sort_sort_tile
// CHECK: obs.launch @two_keys_known_device_sort_merge grid(%[[C3]])
// CHECK: obs.launch @two_keys_known_device_sort_run_length_twice grid(%[[C3]])
// CHECK: obs.launch @two_keys_known_device_sort_merge grid(%[[C3]]) ins({{.*}}) outs(%[[OK]], %[[OV]] : memref<5000xi32>, memref<5000xf32>)
// CHECK-NOT: obs.launch
func.func @two_keys_known(%k: memref<5000xi32>, %v: memref<5000xf32>, %ok: memref<5000xi32>, %ov: memref<5000xf32>) {
  obs.device_sort ins(%k, %v : memref<5000xi32>, memref<5000xf32>) outs(%ok, %ov : memref<5000xi32>, memref<5000xf32>) {
  ^bb0(%k1: i32, %v1: f32, %k2: i32, %v2: f32):
    %before = arith.cmpi slt, %k1, %k2 : i32
    %same = arith.cmpi eq, %k1, %k2 : i32
    %larger = arith.cmpf ogt, %v1, %v2 : f32
    %tie = arith.andi %same, %larger : i1
    %first = arith.ori %before, %tie : i1
    obs.yield %first : i1
  }
  return
}

// -----

// A strict weak order written as a three-way comparison that is -1: judged
// by what it computes on samples, not by the predicate of its last compare
// (an `eq`), it is `slt`, and merges (the radix sort follows only one
// comparison of the keys).
// CHECK-LABEL: func.func @three_way
// CHECK: obs.launch @three_way_device_sort_merge
func.func @three_way(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %lt = arith.cmpi slt, %x, %y : i32
    %gt = arith.cmpi sgt, %x, %y : i32
    %minus = arith.constant -1 : i32
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %ordered = arith.select %gt, %one, %zero : i32
    %cmp3 = arith.select %lt, %minus, %ordered : i32
    %less = arith.cmpi eq, %cmp3, %minus : i32
    obs.yield %less : i1
  }
  return
}
