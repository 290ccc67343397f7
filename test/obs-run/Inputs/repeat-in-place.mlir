// Obsidian's most common use of syncIP: the last stage of a repE body,
// in place. For test/obs-run/repeat-in-place.test.

// Seed 001's merger (examples/paper/merger.mlir) with its compare-and-swap
// in place over the riffled array, one thread per pair: the riffle's sync
// writes the buffer the next iteration reads, and the swaps overwrite it.
obs.kernel @merger_in_place(%input: !obs.arr<16 x i32>) -> !obs.arr<16 x i32>
    attributes {threads = 8} {
  %result = obs.repeat 4 %input : !obs.arr<16 x i32> {
  ^bb0(%a: !obs.arr<16 x i32>):
    %riffled = obs.riffle %a : !obs.arr<16 x i32>
    %stored = obs.sync %riffled : !obs.arr<16 x i32>
    %swapped = obs.evens %stored : !obs.arr<16 x i32> {
    ^bb0(%x: i32, %y: i32):
      %less = arith.cmpi slt, %x, %y : i32
      %first = arith.select %less, %x, %y : i32
      %second = arith.select %less, %y, %x : i32
      obs.yield %first, %second : i32, i32
    }
    %next = obs.sync inplace blocked<2> %swapped : !obs.arr<16 x i32>
    obs.yield %next : !obs.arr<16 x i32>
  }
  obs.return %result : !obs.arr<16 x i32>
}

// The body reads only the repeat's own array, and overwrites it: one
// buffer serves every iteration, and each reads what the one before wrote
// there. Each pair (x, y) becomes (y, x + y), five times.
obs.kernel @pairs_in_place(%input: !obs.arr<64 x i32>) -> !obs.arr<64 x i32>
    attributes {threads = 32} {
  %result = obs.repeat 5 %input : !obs.arr<64 x i32> {
  ^bb0(%a: !obs.arr<64 x i32>):
    %e = obs.evens %a : !obs.arr<64 x i32> {
    ^bb0(%x: i32, %y: i32):
      %sum = arith.addi %x, %y : i32
      obs.yield %y, %sum : i32, i32
    }
    %s = obs.sync inplace blocked<2> %e : !obs.arr<64 x i32>
    obs.yield %s : !obs.arr<64 x i32>
  }
  obs.return %result : !obs.arr<64 x i32>
}
