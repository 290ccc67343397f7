// Counting sort of keys in 0..255, as the FHPC 2013 Obsidian paper
// ("Counting and occurrence sort for GPUs using an embedded language")
// builds it: a histogram of the keys, the exclusive scan of its counts
// (where each key's run of places starts), and the reconstruction of the
// output from those starts (later Obsidian's Reconstruct.hs: key k fills
// places [start[k], start[k + 1])). The reconstruction scatters each key
// to the start of its run in global memory, combined by max (keys with no
// elements start where the next key does, and the larger key wins), then
// a running maximum fills each run. The keys must be in 0..255. Any number
// of keys up to 2^31 - 1, with kernels compiled once for every n.
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

// Zeros over a tile of the output: the smallest key.
obs.kernel @clear_tile() -> !obs.arr<4096 x i32> attributes {threads = 256} {
  %zeros = obs.generate : !obs.arr<4096 x i32> {
  ^bb0(%i: index):
    %zero = arith.constant 0 : i32
    obs.yield %zero : i32
  }
  obs.return %zeros : !obs.arr<4096 x i32>
}

// Key k at start[k], into the output itself; a start at n (a key after the
// last one present) is past its end, and writes nothing.
obs.kernel @mark_runs(%starts: !obs.arr<256 x i32> {obs.absent = -1 : i32}) -> !obs.arr<2147483647 x i32> attributes {threads = 256} {
  %keys = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%k: index):
    %key = arith.index_cast %k : index to i32
    obs.yield %key : i32
  }
  %marked = obs.scatter %keys at %starts combine(max) global : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<2147483647 x i32>
  obs.return %marked : !obs.arr<2147483647 x i32>
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
  obs.launch @clear_tile grid(%tiles) outs(%out : memref<?xi32>)
  obs.launch @mark_runs grid(1) ins(%starts : memref<256xi32>) outs(%out : memref<?xi32>)
  obs.device_scan inclusive ins(%out : memref<?xi32>) outs(%out : memref<?xi32>)
      identity [-2147483648 : i32] {
  ^bb0(%x: i32, %y: i32):
    %m = arith.maxsi %x, %y : i32
    obs.yield %m : i32
  }
  memref.dealloc %counts : memref<256xi32>
  memref.dealloc %starts : memref<256xi32>
  return
}
