// RUN: obs-opt %s -split-input-file --test-obs-symbolic-hazards -verify-diagnostics -o /dev/null
// RUN: obs-opt %s -split-input-file --test-obs-symbolic-hazards --obs-symbolic-box-search=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIMPLEX

// The symbolic proof's sets decided by searching their box of thread ids
// (lib/Analysis/SymbolicSets.cpp, searchBox) where the simplex cannot: the
// search finds the verdicts the block simulation finds, and without it the
// same kernels are undecided.

// SIMPLEX-COUNT-2: symbolic: undecided: index arithmetic too deep for the sets (over 12 floordivs and mods in one)
// SIMPLEX-NOT: remark: symbolic
gpu.module @m {
  // Each thread reads the place of its index's 9 bits reversed, then writes
  // it (in place): no other thread meets it, since the reversal is one to
  // one. Two threads' places take 18 floordivs, past what the simplex
  // decides (kMaxLocals); the set's box of 512 x 512 threads is searched
  // instead. Without the search (--obs-symbolic-box-search=false) it is
  // undecided.
  // expected-remark @+1 {{symbolic: 0 races, agrees}}
  gpu.func @bit_reversal_own(%out: memref<512xi32>) workgroup(%buf: memref<512xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %r0 = arith.constant 0 : index
    %s0 = arith.constant 1 : index
    %s1 = arith.constant 2 : index
    %s2 = arith.constant 4 : index
    %s3 = arith.constant 8 : index
    %s4 = arith.constant 16 : index
    %s5 = arith.constant 32 : index
    %s6 = arith.constant 64 : index
    %s7 = arith.constant 128 : index
    %s8 = arith.constant 256 : index
    %q0 = arith.divui %t, %s0 : index
    %b0 = arith.remui %q0, %c2 : index
    %w0 = arith.muli %b0, %s8 : index
    %r1 = arith.addi %r0, %w0 : index
    %q1 = arith.divui %t, %s1 : index
    %b1 = arith.remui %q1, %c2 : index
    %w1 = arith.muli %b1, %s7 : index
    %r2 = arith.addi %r1, %w1 : index
    %q2 = arith.divui %t, %s2 : index
    %b2 = arith.remui %q2, %c2 : index
    %w2 = arith.muli %b2, %s6 : index
    %r3 = arith.addi %r2, %w2 : index
    %q3 = arith.divui %t, %s3 : index
    %b3 = arith.remui %q3, %c2 : index
    %w3 = arith.muli %b3, %s5 : index
    %r4 = arith.addi %r3, %w3 : index
    %q4 = arith.divui %t, %s4 : index
    %b4 = arith.remui %q4, %c2 : index
    %w4 = arith.muli %b4, %s4 : index
    %r5 = arith.addi %r4, %w4 : index
    %q5 = arith.divui %t, %s5 : index
    %b5 = arith.remui %q5, %c2 : index
    %w5 = arith.muli %b5, %s3 : index
    %r6 = arith.addi %r5, %w5 : index
    %q6 = arith.divui %t, %s6 : index
    %b6 = arith.remui %q6, %c2 : index
    %w6 = arith.muli %b6, %s2 : index
    %r7 = arith.addi %r6, %w6 : index
    %q7 = arith.divui %t, %s7 : index
    %b7 = arith.remui %q7, %c2 : index
    %w7 = arith.muli %b7, %s1 : index
    %r8 = arith.addi %r7, %w7 : index
    %q8 = arith.divui %t, %s8 : index
    %b8 = arith.remui %q8, %c2 : index
    %w8 = arith.muli %b8, %s0 : index
    %r9 = arith.addi %r8, %w8 : index
    %x = memref.load %buf[%r9] : memref<512xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<512xi32>
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%r9] : memref<512xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // Each thread reads its own index instead, which the thread of its bits
  // reversed writes with no barrier between: a race, found by the search
  // with its two threads.
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @bit_reversal_other(%out: memref<512xi32>) workgroup(%buf: memref<512xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %r0 = arith.constant 0 : index
    %s0 = arith.constant 1 : index
    %s1 = arith.constant 2 : index
    %s2 = arith.constant 4 : index
    %s3 = arith.constant 8 : index
    %s4 = arith.constant 16 : index
    %s5 = arith.constant 32 : index
    %s6 = arith.constant 64 : index
    %s7 = arith.constant 128 : index
    %s8 = arith.constant 256 : index
    %q0 = arith.divui %t, %s0 : index
    %b0 = arith.remui %q0, %c2 : index
    %w0 = arith.muli %b0, %s8 : index
    %r1 = arith.addi %r0, %w0 : index
    %q1 = arith.divui %t, %s1 : index
    %b1 = arith.remui %q1, %c2 : index
    %w1 = arith.muli %b1, %s7 : index
    %r2 = arith.addi %r1, %w1 : index
    %q2 = arith.divui %t, %s2 : index
    %b2 = arith.remui %q2, %c2 : index
    %w2 = arith.muli %b2, %s6 : index
    %r3 = arith.addi %r2, %w2 : index
    %q3 = arith.divui %t, %s3 : index
    %b3 = arith.remui %q3, %c2 : index
    %w3 = arith.muli %b3, %s5 : index
    %r4 = arith.addi %r3, %w3 : index
    %q4 = arith.divui %t, %s4 : index
    %b4 = arith.remui %q4, %c2 : index
    %w4 = arith.muli %b4, %s4 : index
    %r5 = arith.addi %r4, %w4 : index
    %q5 = arith.divui %t, %s5 : index
    %b5 = arith.remui %q5, %c2 : index
    %w5 = arith.muli %b5, %s3 : index
    %r6 = arith.addi %r5, %w5 : index
    %q6 = arith.divui %t, %s6 : index
    %b6 = arith.remui %q6, %c2 : index
    %w6 = arith.muli %b6, %s2 : index
    %r7 = arith.addi %r6, %w6 : index
    %q7 = arith.divui %t, %s7 : index
    %b7 = arith.remui %q7, %c2 : index
    %w7 = arith.muli %b7, %s1 : index
    %r8 = arith.addi %r7, %w7 : index
    %q8 = arith.divui %t, %s8 : index
    %b8 = arith.remui %q8, %c2 : index
    %w8 = arith.muli %b8, %s0 : index
    %r9 = arith.addi %r8, %w8 : index
    %x = memref.load %buf[%t] : memref<512xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<512xi32>
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%r9] : memref<512xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
