// Later Obsidian's histogram (Examples/Simple/Histogram.hs, which
// atomically increments a global array at data-dependent indices), as GPU
// libraries build it: each block of 1,024 threads counts the values 0..255
// among its 16,384 numbers in shared memory, with shared-memory atomics,
// then adds its 256 counts into the global histogram with global atomics
// (a `global` obs.scatter with combine(add)). Numbers outside 0..255 are
// not counted. One launch clears the histogram, one counts: any number of
// numbers up to 2^31 - 1. The tile is large so that the blocks' 1 KiB of
// counts add little to the 4 bytes each number is read: 4.06 bytes per
// number in all (`--emit=plan`; 4.25 with tiles of 4,096).
//
//   obs-run examples/obsidian/histogram.mlir --entry=histogram \
//       --target=cpu --input=numbers.txt

// Zeros over the histogram.
obs.kernel @clear_bins() -> !obs.arr<256 x i32> attributes {threads = 256} {
  %zeros = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%i: index):
    %zero = arith.constant 0 : i32
    obs.yield %zero : i32
  }
  obs.return %zeros : !obs.arr<256 x i32>
}

// A block's 16,384 numbers counted in shared memory, then added into the
// histogram. A partial last block's absent numbers read as -1, which is no
// bin.
obs.kernel @count_tile(%a: !obs.arr<16384 x i32> {obs.absent = -1 : i32}) -> !obs.arr<256 x i32> attributes {threads = 1024} {
  %ones = obs.generate : !obs.arr<16384 x i32> {
  ^bb0(%i: index):
    %one = arith.constant 1 : i32
    obs.yield %one : i32
  }
  %counts = obs.scatter %ones at %a combine(add) initial(0 : i32) : !obs.arr<16384 x i32>, !obs.arr<16384 x i32> -> !obs.arr<256 x i32>
  %bins = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%i: index):
    %bin = arith.index_cast %i : index to i32
    obs.yield %bin : i32
  }
  %total = obs.scatter %counts at %bins combine(add) global : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<256 x i32>
  obs.return %total : !obs.arr<256 x i32>
}

// bins[v] = how many of in's numbers are v, for v in 0..255.
func.func @histogram(%in: memref<?xi32>, %bins: memref<256xi32>) {
  %c0 = arith.constant 0 : index
  %tile = arith.constant 16384 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %tiles = arith.ceildivui %n, %tile : index
  obs.launch @clear_bins grid(1) outs(%bins : memref<256xi32>)
  obs.launch @count_tile grid(%tiles) ins(%in : memref<?xi32>) outs(%bins : memref<256xi32>)
  return
}
