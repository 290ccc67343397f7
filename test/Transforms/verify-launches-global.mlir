// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-verify-launches
// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-statistics \
// RUN:   --pass-pipeline='builtin.module(obs.kernel(obs-verify-sync),obs-verify-launches)' \
// RUN:   2>&1 >/dev/null | FileCheck %s --check-prefix=REUSED

// Tests of the launch proof for global obs.scatters
// (lib/Transforms/VerifyLaunches.cpp, followLaunchOperands and
// proveGlobalScatterPlaces) and of obs.launch's checks of them: a global
// scatter's memref is alone over its allocation; without a combine, a
// place known from the thread ids is written once in the launch. The kept
// cases run against awk in test/obs-run/global-scatter.test.
//
// The second run proves each kernel with obs-verify-sync first, as every
// lowering does: the launch proof then reads the blocks that proof ran
// (findProvedRun) for the seven launches whose scatter has no combine and
// passes the checks before the places (one in each of the first three
// splits, one in each of the next three but two in the fifth), and
// reports the same errors at the same places.
// REUSED: obs-verify-launches
// REUSED-NEXT: 6 launches
// REUSED-NEXT: 7 proved-runs-reused

obs.kernel @put(%v: !obs.arr<8 x i32>, %p: !obs.arr<8 x i32>) -> !obs.arr<32 x i32> {
  // expected-note @+1 {{the scatter}}
  %out = obs.scatter %v at %p global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<32 x i32>
  obs.return %out : !obs.arr<32 x i32>
}

// Kept: places from data, each block's own memrefs.
func.func @kept(%v: memref<32xi32>, %p: memref<32xi32>, %out: memref<32xi32>) {
  obs.launch @put grid(4) ins(%v, %p : memref<32xi32>, memref<32xi32>) outs(%out : memref<32xi32>)
  return
}

// The places come from the memref they scatter into.
// expected-note @+1 {{the allocation}}
func.func @places_alias(%v: memref<32xi32>, %out: memref<32xi32>) {
  // expected-error @+1 {{passes outs 0, the memref of a global obs.scatter, which any block may write at any place, and ins 1 over the same allocation, not proved apart from it: no other operand may touch a global scatter's memory}}
  obs.launch @put grid(4) ins(%v, %out : memref<32xi32>, memref<32xi32>) outs(%out : memref<32xi32>)
  return
}

// -----

obs.kernel @put(%v: !obs.arr<8 x i32>, %p: !obs.arr<8 x i32>) -> !obs.arr<32 x i32> {
  %out = obs.scatter %v at %p global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<32 x i32>
  obs.return %out : !obs.arr<32 x i32>
}

// Views of one allocation on disjoint bytes are apart: a block writes only
// inside its memrefs, so the scatter's writes stay in bytes [128, 256)
// (hunt 27: a key-value sort into two such views was refused).
func.func @view_alias(%p: memref<32xi32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %all = memref.alloc() : memref<256xi8>
  %v = memref.view %all[%c0][] : memref<256xi8> to memref<32xi32>
  %out = memref.view %all[%c128][] : memref<256xi8> to memref<32xi32>
  obs.launch @put grid(4) ins(%v, %p : memref<32xi32>, memref<32xi32>) outs(%out : memref<32xi32>)
  memref.dealloc %all : memref<256xi8>
  return
}

// -----

obs.kernel @put(%v: !obs.arr<8 x i32> {obs.absent = 0 : i32}, %p: !obs.arr<8 x i32> {obs.absent = -1 : i32}) -> !obs.arr<2147483647 x i32> {
  // expected-note @+1 {{the scatter}}
  %out = obs.scatter %v at %p global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<2147483647 x i32>
  obs.return %out : !obs.arr<2147483647 x i32>
}

// Kept: sizes known at run time.
func.func @kept_dynamic(%v: memref<?xi32>, %p: memref<?xi32>, %out: memref<?xi32>, %blocks: index) {
  obs.launch @put grid(%blocks) ins(%v, %p : memref<?xi32>, memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// The same, writing into its own places.
// expected-note @+1 {{the allocation}}
func.func @dynamic_alias(%v: memref<?xi32>, %p: memref<?xi32>, %blocks: index) {
  // expected-error @+1 {{passes outs 0, the memref of a global obs.scatter, which any block may write at any place, and ins 1 over the same allocation}}
  obs.launch @put grid(%blocks) ins(%v, %p : memref<?xi32>, memref<?xi32>) outs(%p : memref<?xi32>)
  return
}

// -----

// Places from the thread ids: two threads of a block write place 0.
obs.kernel @halves(%v: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %p = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c2 = arith.constant 2 : index
    %half = arith.divui %i, %c2 : index
    %place = arith.index_cast %half : index to i32
    obs.yield %place : i32
  }
  // expected-note @+1 {{the scatter}}
  %out = obs.scatter %v at %p global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %out : !obs.arr<8 x i32>
}

func.func @halves_once(%v: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{writes place 0 of outs 0 twice, through a global obs.scatter without a combine: threads 0 and 1 of every block write it}}
  obs.launch @halves grid(1) ins(%v : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

// Places from the thread ids, each once in a block, but every block writes
// them.
obs.kernel @identity(%v: !obs.arr<8 x i32> {obs.absent = 0 : i32}) -> !obs.arr<8 x i32> {
  %p = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %place = arith.index_cast %i : index to i32
    obs.yield %place : i32
  }
  // expected-note @+1 {{the scatter}}
  %out = obs.scatter %v at %p global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %out : !obs.arr<8 x i32>
}

// Kept: one block.
func.func @one_block(%v: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @identity grid(1) ins(%v : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

func.func @two_blocks(%v: memref<16xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{writes place 0 of outs 0 twice, through a global obs.scatter without a combine: thread 0 writes it in every block, whatever the block's data, and the launch runs 2 blocks}}
  obs.launch @identity grid(2) ins(%v : memref<16xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

obs.kernel @identity(%v: !obs.arr<8 x i32> {obs.absent = 0 : i32}) -> !obs.arr<8 x i32> {
  %p = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %place = arith.index_cast %i : index to i32
    obs.yield %place : i32
  }
  // expected-note @+1 {{the scatter}}
  %out = obs.scatter %v at %p global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %out : !obs.arr<8 x i32>
}

func.func @any_blocks(%v: memref<?xi32>, %out: memref<?xi32>, %blocks: index) {
  // expected-error @+1 {{thread 0 writes it in every block, whatever the block's data, and the launch runs any number of blocks}}
  obs.launch @identity grid(%blocks) ins(%v : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// -----

obs.kernel @identity(%v: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %p = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %place = arith.index_cast %i : index to i32
    obs.yield %place : i32
  }
  %out = obs.scatter %v at %p combine(add) global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %out : !obs.arr<8 x i32>
}

// Kept: with a combine, every block adds into the same places.
func.func @sums(%v: memref<16xi32>, %out: memref<8xi32>) {
  obs.launch @identity grid(2) ins(%v : memref<16xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

obs.kernel @identity(%v: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %p = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %place = arith.index_cast %i : index to i32
    obs.yield %place : i32
  }
  %out = obs.scatter %v at %p combine(add) global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %out : !obs.arr<8 x i32>
}

// A global scatter's memref is one for all blocks: no grid factor.
func.func @chunked(%v: memref<16xi32>, %out: memref<16xi32>) {
  // expected-error @+1 {{passes outs (memref<16xi32>), but @identity over 2 blocks needs (memref<8xi32>)}}
  obs.launch @identity grid(2) ins(%v : memref<16xi32>) outs(%out : memref<16xi32>)
  return
}

// -----

obs.kernel @identity(%v: !obs.arr<8 x i32> {obs.absent = 0 : i32}) -> !obs.arr<8 x i32> {
  %p = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %place = arith.index_cast %i : index to i32
    obs.yield %place : i32
  }
  // expected-note @+1 {{the scatter}}
  %out = obs.scatter %v at %p combine(add) global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %out : !obs.arr<8 x i32>
}

func.func @laid_out(%v: memref<16xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{has layouts, but outs 0 holds a global obs.scatter's result, which every block sees whole: launch it without layouts}}
  obs.launch @identity grid(2) ins(%v : memref<16xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 8 + i)>, affine_map<(b, i) -> (i)>]
  return
}

// -----

// An obs.global argument is read by every block at any place: other
// operands may read its allocation, none may write it, whatever the sizes.
obs.kernel @gather(%table: !obs.arr<2147483647 x i32> {obs.absent = 0 : i32, obs.global}, %at: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  %0 = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %p = obs.index %at[%i] : !obs.arr<4 x i32>
    %q = arith.index_castui %p : i32 to index
    %x = obs.index %table[%q] : !obs.arr<2147483647 x i32>
    obs.yield %x : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}

// Kept: the table read whole, and read again as the places.
func.func @read_twice(%table: memref<?xi32>, %out: memref<?xi32>, %g: index) {
  obs.launch @gather grid(%g) ins(%table, %table : memref<?xi32>, memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// expected-note @+1 {{the allocation}}
func.func @written_in_place(%table: memref<?xi32>, %at: memref<?xi32>, %g: index) {
  // expected-error @+1 {{passes ins 0, an 'obs.global' argument (as a device op's scalars and halos are) that any block may read at any place, and writes outs 0 over the same allocation, not proved apart from it: blocks run in any order, so no operand may write a global argument's memory}}
  obs.launch @gather grid(%g) ins(%table, %at : memref<?xi32>, memref<?xi32>) outs(%table : memref<?xi32>)
  return
}

// -----

obs.kernel @gather(%table: !obs.arr<16 x i32> {obs.global}, %at: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %0 = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %p = obs.index %at[%i] : !obs.arr<4 x i32>
    %q = arith.index_castui %p : i32 to index
    %x = obs.index %table[%q] : !obs.arr<16 x i32>
    obs.yield %x : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}

// With static sizes too: two views of one allocation, the table and what
// a block writes, on bytes they share.
// expected-note @+1 {{the allocation}}
func.func @written_through_a_view(%bytes: memref<96xi8>, %at: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c60 = arith.constant 60 : index
  %table = memref.view %bytes[%c0][] : memref<96xi8> to memref<16xi32>
  %out = memref.view %bytes[%c60][] : memref<96xi8> to memref<8xi32>
  // expected-error @+1 {{passes ins 0, an 'obs.global' argument (as a device op's scalars and halos are) that any block may read at any place, and writes outs 0 over the same allocation, not proved apart from it}}
  obs.launch @gather grid(2) ins(%table, %at : memref<16xi32>, memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

obs.kernel @gather(%table: !obs.arr<64 x i32> {obs.global}, %at: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %0 = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %p = obs.index %at[%i] : !obs.arr<4 x i32>
    %q = arith.index_castui %p : i32 to index
    %x = obs.index %table[%q] : !obs.arr<64 x i32>
    obs.yield %x : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}

// Every block reads the whole table, so all of it must lie inside its
// allocation: a reinterpret_cast that makes 16 numbers a table of 64 is
// rejected, as a chunk past the end would be.
// expected-note @+1 {{the allocation}}
func.func @table_past_its_allocation(%small: memref<16xi32>, %at: memref<8xi32>, %out: memref<8xi32>) {
  %table = memref.reinterpret_cast %small to offset: [0], sizes: [64], strides: [1] : memref<16xi32> to memref<64xi32>
  // expected-error @+1 {{ins 0, which every block sees whole, places element 16 at byte 64 of its allocation, which holds 64 bytes}}
  obs.launch @gather grid(2) ins(%table, %at : memref<64xi32>, memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

obs.kernel @put(%v: !obs.arr<8 x i32>, %p: !obs.arr<8 x i32>) -> !obs.arr<32 x i32> {
  %out = obs.scatter %v at %p global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<32 x i32>
  obs.return %out : !obs.arr<32 x i32>
}

// So must a global scatter's memref, which every block may write anywhere.
// expected-note @+1 {{the allocation}}
func.func @scatter_past_its_allocation(%v: memref<32xi32>, %p: memref<32xi32>, %small: memref<8xi32>) {
  %out = memref.reinterpret_cast %small to offset: [0], sizes: [32], strides: [1] : memref<8xi32> to memref<32xi32>
  // expected-error @+1 {{outs 0, which every block sees whole, places element 8 at byte 32 of its allocation, which holds 32 bytes}}
  obs.launch @put grid(4) ins(%v, %p : memref<32xi32>, memref<32xi32>) outs(%out : memref<32xi32>)
  return
}
