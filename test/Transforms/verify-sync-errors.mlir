// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(obs.kernel(obs-verify-sync))' --verify-diagnostics

// Tests of lib/Transforms/VerifySync.cpp (the messages are reportHazard's, in
// lib/Transforms/KernelSimulation.cpp): every kind of unsafe choice, each
// with the two threads, the element, the buffer and the kind of hazard.

// A racy warp scope written by hand: thread 0 (warp 0) writes element 0,
// which thread 63 (warp 1) reads after a barrier that only warp 0 waits for.
obs.kernel @racy_warp(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  // expected-note @+2 {{the buffer holds the array of this op}}
  // expected-error-re @+1 {{'obs.sync' op warp scope is unsafe: thread 0 (warp 0) writes element 0 of a shared buffer before the barrier and thread 63 (warp 1) reads it after it (read after write); only a block barrier orders threads of different warps}}
  %0 = obs.sync warp %a : !obs.arr<64 x i32>
  %1 = obs.rev %0 : !obs.arr<64 x i32>
  obs.return %1 : !obs.arr<64 x i32>
}

// -----

// A racy in-place stage written by hand: odds reads both elements of each
// pair, and the two threads of a pair each write one of them.
obs.kernel @racy_inplace(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-note @+1 {{the buffer holds the array of this op}}
  %0 = obs.sync %a : !obs.arr<8 x i32>
  %1 = obs.odds %0 : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %lo = arith.minsi %x, %y : i32
    %hi = arith.maxsi %x, %y : i32
    obs.yield %lo, %hi : i32, i32
  }
  // expected-error-re @+1 {{'obs.sync' op in place is unsafe: thread 1 (warp 0) writes element 1 of a shared buffer and thread 2 (warp 0) reads it in the same stage, with no barrier between them}}
  %2 = obs.sync inplace %1 : !obs.arr<8 x i32>
  %3 = obs.rev %2 : !obs.arr<8 x i32>
  obs.return %3 : !obs.arr<8 x i32>
}

// -----

// A write after read that appears only through buffer reuse: the third
// stage writes the first stage's buffer while the other warp may still be
// reading it for the second stage, and only a warp barrier is between. With
// a buffer each, the warp barrier would be enough.
obs.kernel @reuse(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32>
    attributes {obs.shared_bytes = 512 : i64} {
  // expected-note @+1 {{the buffer holds the array of this op}}
  %0 = obs.sync %a {obs.shared_offsets = array<i64: 0>} : !obs.arr<64 x i32>
  %1 = obs.rev %0 : !obs.arr<64 x i32>
  // expected-error-re @+1 {{'obs.sync' op warp scope is unsafe: thread 63 (warp 1) reads element 0 of a shared buffer, which shares memory with element 0 of another buffer before the barrier and thread 0 (warp 0) writes it after it (write after read through buffer reuse); only a block barrier orders threads of different warps}}
  %2 = obs.sync warp %1 {obs.shared_offsets = array<i64: 256>} : !obs.arr<64 x i32>
  %3 = obs.map %2 : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  // expected-note @+1 {{the other buffer holds the array of this op}}
  %4 = obs.sync %3 {obs.shared_offsets = array<i64: 0>} : !obs.arr<64 x i32>
  %5 = obs.rev %4 : !obs.arr<64 x i32>
  obs.return %5 : !obs.arr<64 x i32>
}

// -----

// The same kernel with its own buffers is safe.
obs.kernel @no_reuse(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %0 = obs.sync %a : !obs.arr<64 x i32>
  %1 = obs.rev %0 : !obs.arr<64 x i32>
  %2 = obs.sync warp %1 : !obs.arr<64 x i32>
  %3 = obs.map %2 : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  %4 = obs.sync %3 : !obs.arr<64 x i32>
  %5 = obs.rev %4 : !obs.arr<64 x i32>
  obs.return %5 : !obs.arr<64 x i32>
}

// -----

// A hazard only across repeat iterations: within an iteration the warp
// barrier orders only a thread's own element, but the next iteration
// reverses what this one wrote, across warps, with only that warp barrier
// between them.
obs.kernel @wrap_around(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  // expected-note @+1 {{the buffer holds the array of this op}}
  %0 = obs.repeat 3 %a : !obs.arr<64 x i32> {
  ^bb0(%x: !obs.arr<64 x i32>):
    %r = obs.rev %x : !obs.arr<64 x i32>
    %s = obs.sync %r : !obs.arr<64 x i32>
    %m = obs.map %s : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
    ^bb0(%v: i32):
      %w = arith.addi %v, %v : i32
      obs.yield %w : i32
    }
    // expected-error-re @+1 {{'obs.sync' op warp scope is unsafe: thread 0 (warp 0) writes element 0 of a shared buffer before the barrier and thread 63 (warp 1) reads it after it (read after write, across repeat iterations)}}
    %t = obs.sync warp %m : !obs.arr<64 x i32>
    obs.yield %t : !obs.arr<64 x i32>
  }
  obs.return %0 : !obs.arr<64 x i32>
}

// -----

// In place needs an array in shared memory to overwrite: this stage reads
// only the kernel's argument, in global memory.
obs.kernel @nothing_to_overwrite(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.sync' op in place has nothing to overwrite: a stage in place overwrites the one array it reads from shared memory, where that array is of its type '!obs.arr<8 x i32>' and no later stage reads it; this stage reads no such array, or more than one array from shared memory}}
  %0 = obs.sync inplace %a : !obs.arr<8 x i32>
  %1 = obs.rev %0 : !obs.arr<8 x i32>
  obs.return %1 : !obs.arr<8 x i32>
}

// -----

// Not flat (as the reference target verifies kernels): the verifier runs
// on a flattened copy, as the GPU targets lower the kernel. The two
// instances' syncs merge into one over 128 elements; reversing a 64-element
// half crosses warps, so the written warp scope is rejected at the sync as
// written.
obs.kernel @not_flat(%a: !obs.arr<128 x i32>) -> !obs.arr<128 x i32> {
  %0 = obs.two %a : !obs.arr<128 x i32> -> !obs.arr<128 x i32> {
  ^bb0(%h: !obs.arr<64 x i32>):
    // expected-note @+2 {{the buffer holds the array of this op}}
    // expected-error-re @+1 {{'obs.sync' op warp scope is unsafe: thread {{[0-9]+}} (warp {{[0-9]}}) writes element {{[0-9]+}} of a shared buffer before the barrier and thread {{[0-9]+}} (warp {{[0-9]}}) reads it after it (read after write)}}
    %s = obs.sync warp %h : !obs.arr<64 x i32>
    %r = obs.rev %s : !obs.arr<64 x i32>
    obs.yield %r : !obs.arr<64 x i32>
  }
  obs.return %0 : !obs.arr<128 x i32>
}

// -----

// In place over an array that a later stage still reads: the output stage
// reads %sums[0] again (for %low) after %high's stage has overwritten it.
// No two threads race; the value is simply gone (found by obs-fuzz).
obs.kernel @read_later(%a: !obs.arr<2 x i8>) -> !obs.arr<2 x i8> attributes {threads = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = obs.generate : !obs.arr<1 x i8> {
  ^bb0(%i: index):
    %x = obs.index %a[%c0] : !obs.arr<2 x i8>
    %y = obs.index %a[%c1] : !obs.arr<2 x i8>
    %s = arith.addi %x, %y : i8
    obs.yield %s : i8
  }
  %sums = obs.sync %0 : !obs.arr<1 x i8>
  %sum = obs.index %sums[%c0] : !obs.arr<1 x i8>
  %1 = obs.map %a : !obs.arr<2 x i8> -> !obs.arr<2 x i8> {
  ^bb0(%x: i8):
    %y = arith.addi %x, %sum : i8
    obs.yield %y : i8
  }
  %low, %high = obs.halve %1 : !obs.arr<2 x i8>
  // expected-error @+1 {{'obs.sync' op in place has nothing to overwrite: a stage in place overwrites the one array it reads from shared memory, where that array is of its type '!obs.arr<1 x i8>' and no later stage reads it; this stage reads no such array, or more than one array from shared memory}}
  %2 = obs.sync inplace %high : !obs.arr<1 x i8>
  %3 = obs.conc %low, %2 : !obs.arr<1 x i8>, !obs.arr<1 x i8>
  obs.return %3 : !obs.arr<2 x i8>
}

// -----

// In place on a sync that a repeat body yields (syncIP ending repE's body)
// overwrites the array its stage reads, which the next iteration then
// reads: the proof decides it like any in-place stage. Here one thread per
// element reads both of its pair, and its partner overwrites one of them.
obs.kernel @yielded_in_place(%a: !obs.arr<16 x i32>) -> !obs.arr<16 x i32> {
  // The buffers the iterations take turns at are the repeat's.
  // expected-note @+1 {{the buffer holds the array of this op}}
  %m = obs.repeat 4 %a : !obs.arr<16 x i32> {
  ^bb0(%x: !obs.arr<16 x i32>):
    %r = obs.riffle %x : !obs.arr<16 x i32>
    %s = obs.sync %r : !obs.arr<16 x i32>
    %e = obs.evens %s : !obs.arr<16 x i32> {
    ^bb0(%p: i32, %q: i32):
      %lo = arith.minsi %p, %q : i32
      %hi = arith.maxsi %p, %q : i32
      obs.yield %lo, %hi : i32, i32
    }
    // expected-error @+1 {{'obs.sync' op in place is unsafe: thread 0 (warp 0) writes element 0 of a shared buffer and thread 1 (warp 0) reads it in the same stage, with no barrier between them}}
    %t = obs.sync inplace %e : !obs.arr<16 x i32>
    obs.yield %t : !obs.arr<16 x i32>
  }
  obs.return %m : !obs.arr<16 x i32>
}

// -----

// In place on a yielded sync whose stage reads two arrays (the repeat's and
// a sync's): the array it yields must go to the buffer the next iteration
// reads, and it cannot both overwrite one of them and read the other.
obs.kernel @yielded_reads_two(%a: !obs.arr<16 x i32>) -> !obs.arr<16 x i32> {
  %m = obs.repeat 4 %a : !obs.arr<16 x i32> {
  ^bb0(%x: !obs.arr<16 x i32>):
    %r = obs.rev %x : !obs.arr<16 x i32>
    %s = obs.sync %r : !obs.arr<16 x i32>
    %sum = obs.map %s, %x : !obs.arr<16 x i32>, !obs.arr<16 x i32> -> !obs.arr<16 x i32> {
    ^bb0(%p: i32, %q: i32):
      %o = arith.addi %p, %q : i32
      obs.yield %o : i32
    }
    // expected-error @+1 {{'obs.sync' op in place cannot apply: the repeat body yields its array, which then overwrites the buffer the iteration read only where its stage reads the repeat's own array and nothing else does; this stage reads another array too, or another stage reads the repeat's}}
    %t = obs.sync inplace %sum : !obs.arr<16 x i32>
    obs.yield %t : !obs.arr<16 x i32>
  }
  obs.return %m : !obs.arr<16 x i32>
}

// -----

// In place on a sync that is only returned: its stage writes the results in
// global memory. A written placement the lowering cannot honour is
// rejected, not dropped.
obs.kernel @returned_in_place(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.sync %a : !obs.arr<8 x i32>
  %1 = obs.rev %0 : !obs.arr<8 x i32>
  // expected-error @+1 {{'obs.sync' op in place cannot apply: its array is only returned, so its stage writes the kernel's results in global memory, not a shared buffer}}
  %2 = obs.sync inplace %1 : !obs.arr<8 x i32>
  obs.return %2 : !obs.arr<8 x i32>
}

// -----

// A warp scope that would be safe in block 0 only: each element reads the
// one 32 * block places on, which is in its own warp in block 0 and in the
// other warp in block 1. The proof takes obs.block_id to be any block.
obs.kernel @warp_safe_in_block_0(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  // expected-note @+2 {{the buffer holds the array of this op}}
  // expected-error @+1 {{'obs.sync' op warp scope is unsafe: thread 0 (warp 0) writes element 0 of a shared buffer before the barrier and thread 32 (warp 1) reads it after it (read after write); only a block barrier orders threads of different warps}}
  %0 = obs.sync warp %a : !obs.arr<64 x i32>
  %block = obs.block_id
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %shift = arith.muli %block, %c32 : index
    %j = arith.addi %i, %shift : index
    %k = arith.remui %j, %c64 : index
    %x = obs.index %0[%k] : !obs.arr<64 x i32>
    obs.yield %x : i32
  }
  obs.return %1 : !obs.arr<64 x i32>
}

// -----

// A stage in place that reads two arrays from shared memory, each of its
// type and read by no other stage: which to overwrite is not one array, and
// the message says so (it said the stage read none).
obs.kernel @inplace_reads_two(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %first = obs.sync %a : !obs.arr<64 x i32>
  %reversed = obs.rev %a : !obs.arr<64 x i32>
  %second = obs.sync %reversed : !obs.arr<64 x i32>
  %sum = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %x = obs.index %first[%i] : !obs.arr<64 x i32>
    %y = obs.index %second[%i] : !obs.arr<64 x i32>
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  // expected-error @+1 {{'obs.sync' op in place has nothing to overwrite: a stage in place overwrites the one array it reads from shared memory, where that array is of its type '!obs.arr<64 x i32>' and no later stage reads it; this stage reads no such array, or more than one array from shared memory}}
  %t = obs.sync inplace %sum : !obs.arr<64 x i32>
  %r = obs.rev %t : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}
