// Counting sort of keys in 0..255, as the FHPC 2013 Obsidian paper
// ("Counting and occurrence sort for GPUs using an embedded language")
// builds it: a histogram of the keys, the exclusive scan of its counts
// (where each key's run of places starts), and the reconstruction of the
// output from those starts (later Obsidian's Reconstruct.hs: key k fills
// places [start[k], start[k + 1])). Reconstruct.hs has thread k write key
// k's run, a loop as long as the run; here each place finds its key
// instead, the last k with start[k] <= place, by a binary search of the
// starts in shared memory, so that every block writes one tile of the
// output, four bytes an element, whatever the keys. Four launches, about
// eight bytes of global memory per key (`--emit=plan`). The keys must be
// in 0..255. Any number of keys up to 2^31 - 1, with kernels compiled once
// for every n.
//
//   obs-run examples/obsidian/counting_sort.mlir --entry=counting_sort \
//       --target=cpu --input=keys.txt
obs.kernel @clear_bins() -> !obs.arr<256 x i32> attributes {threads = 256} {
  %zeros = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%i: index):
    %zero = arith.constant 0 : i32
    obs.yield %zero : i32
  }
  obs.return %zeros : !obs.arr<256 x i32>
}

// The histogram: a block's counts in shared memory, added into the
// global counts with atomics (as examples/obsidian/histogram.mlir).
obs.kernel @count_tile(%keys: !obs.arr<4096 x i32> {obs.absent = -1 : i32}) -> !obs.arr<256 x i32> attributes {threads = 256} {
  %ones = obs.generate : !obs.arr<4096 x i32> {
  ^bb0(%i: index):
    %one = arith.constant 1 : i32
    obs.yield %one : i32
  }
  %counts = obs.scatter %ones at %keys combine(add) initial(0 : i32) : !obs.arr<4096 x i32>, !obs.arr<4096 x i32> -> !obs.arr<256 x i32>
  %bins = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%i: index):
    %bin = arith.index_cast %i : index to i32
    obs.yield %bin : i32
  }
  %total = obs.scatter %counts at %bins combine(add) global : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<256 x i32>
  obs.return %total : !obs.arr<256 x i32>
}

// start[k] = counts[0] + ... + counts[k - 1]: the exclusive scan, as the
// inclusive one less each count.
obs.kernel @run_starts(%counts: !obs.arr<256 x i32>) -> !obs.arr<256 x i32> attributes {threads = 256} {
  %ends = obs.scan %counts network(sklansky) : !obs.arr<256 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %stored = obs.sync %ends : !obs.arr<256 x i32>
  %starts = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%k: index):
    %end = obs.index %stored[%k] : !obs.arr<256 x i32>
    %count = obs.index %counts[%k] : !obs.arr<256 x i32>
    %start = arith.subi %end, %count : i32
    obs.yield %start : i32
  }
  obs.return %starts : !obs.arr<256 x i32>
}

// Tile b of the output, places 4096 b onwards: place p holds the key whose
// run holds it, the last k with start[k] <= p (start[0] is 0, so there is
// one; a key with no keys before the next shares its start, and the search
// passes it). Eight halvings of [0, 256), with start[hi] > p standing for
// start[256] = n. Places past the output's end are not written.
obs.kernel @fill_tile(%starts: !obs.arr<256 x i32> {obs.absent = 0 : i32, obs.global}) -> !obs.arr<4096 x i32> attributes {threads = 256} {
  %staged = obs.sync %starts : !obs.arr<256 x i32>
  %keys = obs.generate : !obs.arr<4096 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %c4096 = arith.constant 4096 : index
    %block = obs.block_id
    %first = arith.muli %block, %c4096 : index
    %place = arith.addi %first, %i : index
    %p = arith.index_cast %place : index to i32
    %found:2 = scf.for %step = %c0 to %c8 step %c1 iter_args(%lo = %c0, %hi = %c256) -> (index, index) {
      %sum = arith.addi %lo, %hi : index
      %half = arith.shrui %sum, %c1 : index
      %start = obs.index %staged[%half] : !obs.arr<256 x i32>
      %before = arith.cmpi sle, %start, %p : i32
      %nextLo = arith.select %before, %half, %lo : index
      %nextHi = arith.select %before, %hi, %half : index
      scf.yield %nextLo, %nextHi : index, index
    }
    %key = arith.index_cast %found#0 : index to i32
    obs.yield %key : i32
  }
  obs.return %keys : !obs.arr<4096 x i32>
}

// out = in's keys in ascending order.
func.func @counting_sort(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %tile = arith.constant 4096 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %tile : index
  %counts = memref.alloc() : memref<256xi32>
  %starts = memref.alloc() : memref<256xi32>
  obs.launch @clear_bins grid(1) outs(%counts : memref<256xi32>)
  obs.launch @count_tile grid(%tiles) ins(%in : memref<?xi32>) outs(%counts : memref<256xi32>)
  obs.launch @run_starts grid(1) ins(%counts : memref<256xi32>) outs(%starts : memref<256xi32>)
  obs.launch @fill_tile grid(%tiles) ins(%starts : memref<256xi32>) outs(%out : memref<?xi32>)
  memref.dealloc %counts : memref<256xi32>
  memref.dealloc %starts : memref<256xi32>
  return
}
