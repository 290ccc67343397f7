// RUN: obs-opt %s --obs-verify-sync -verify-diagnostics -split-input-file

// A race in a padded buffer names the array's element, not its place in
// the padded memref: element 32 is row 1, column 0 of rows of 32 + 1
// (word 33 of the buffer), and it is element 32 that thread 32 writes and
// thread 31 reads (lib/Analysis/BlockRun.cpp, the access's element).
obs.kernel @padded_race(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  // expected-error @+2 {{warp scope is unsafe: thread 32 (warp 1) writes element 32 of a shared buffer before the barrier and thread 31 (warp 0) reads it after it (read after write)}}
  // expected-note @+1 {{the buffer holds the array of this op}}
  %s = obs.sync warp strided<64> %a {obs.shared_padding = 1 : i64} : !obs.arr<64 x i32>
  %r = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c32 = arith.constant 32 : index
    %c63 = arith.constant 63 : index
    %low = arith.cmpi ult, %i, %c32 : index
    %mirror = arith.subi %c63, %i : index
    %j = arith.select %low, %mirror, %i : index
    %x = obs.index %s[%j] : !obs.arr<64 x i32>
    obs.yield %x : i32
  }
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// Rows of an array of rows padded so: element (1, 0) of rows of 32 is
// element 32 too.
obs.kernel @padded_rows_race(%a: !obs.arr<2 x !obs.arr<32 x i32>>) -> !obs.arr<2 x !obs.arr<32 x i32>> attributes {threads = 64} {
  // expected-error @+2 {{warp scope is unsafe: thread 32 (warp 1) writes element 32 of a shared buffer before the barrier and thread 31 (warp 0) reads it after it (read after write)}}
  // expected-note @+1 {{the buffer holds the array of this op}}
  %s = obs.sync warp strided<64> %a {obs.shared_padding = 3 : i64} : !obs.arr<2 x !obs.arr<32 x i32>>
  %r = obs.generate : !obs.arr<2 x !obs.arr<32 x i32>> {
  ^bb0(%row: index):
    %inner = obs.generate : !obs.arr<32 x i32> {
    ^bb0(%col: index):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c31 = arith.constant 31 : index
      %first = arith.cmpi eq, %row, %c0 : index
      %mirror = arith.subi %c31, %col : index
      %r2 = arith.select %first, %c1, %row : index
      %c2 = arith.select %first, %mirror, %col : index
      %line = obs.index %s[%r2] : !obs.arr<2 x !obs.arr<32 x i32>>
      %x = obs.index %line[%c2] : !obs.arr<32 x i32>
      obs.yield %x : i32
    }
    obs.yield %inner : !obs.arr<32 x i32>
  }
  obs.return %r : !obs.arr<2 x !obs.arr<32 x i32>>
}
