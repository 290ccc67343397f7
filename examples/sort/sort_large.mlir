// Sorts 2^20 i32 keys, or any other number of them: a use of
// obs.device_sort (examples/device/sort.mlir has its variants). Run it with
//
//   obs-run sort_large.mlir --entry=sort --target=cpu --input=KEYS.txt
//
// --obs-expand-device makes it an LSD radix sort in onesweep's shape: one
// count of every pass's digits, then four passes of 8 bits, each scattering
// the tiles' keys stably to their places after the digits of the tiles
// before (a look-back); 44.27 bytes per key on 2^20 keys in 10 launches
// (obs-run --emit=plan), where the bitonic plan for 2^20 keys
// only (bitonic_large.mlir, block sorts then 77 merge launches) moves 624.

func.func @sort(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    obs.yield %less : i1
  }
  return
}
