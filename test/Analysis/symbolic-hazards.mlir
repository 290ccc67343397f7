// RUN: obs-opt %s -split-input-file --test-obs-symbolic-hazards -verify-diagnostics

// Tests of lib/Analysis/SymbolicHazards.cpp on hand-written gpu.funcs: the
// races the symbolic proof finds, each function also run through the block
// simulation, whose races must be the same ones (the pass fails otherwise);
// and what it leaves undecided, at the op that stops it. The counts are the
// racing pairs of ops.

gpu.module @m {
  // Each thread writes its element and, after a block barrier, reads its
  // neighbour's (the last thread wraps to the first): no race.
  // expected-remark @+1 {{symbolic: 0 races, agrees}}
  gpu.func @neighbour(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %n = arith.addi %t, %c1 : index
    %w = arith.remui %n, %c64 : index
    %x = memref.load %buf[%w] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // The same without the barrier: the neighbour's read races with its
  // write.
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @neighbour_unordered(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    %n = arith.addi %t, %c1 : index
    %w = arith.remui %n, %c64 : index
    %x = memref.load %buf[%w] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // A bitonic partner, t xor 4 (a sum of t's bits), is in the thread's own
  // warp: a warp barrier orders the exchange.
  // expected-remark @+1 {{symbolic: 0 races, agrees}}
  gpu.func @partner_in_warp(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %mask = arith.constant -1 : i32
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    nvvm.bar.warp.sync %mask : i32
    %p = arith.xori %t, %c4 : index
    %x = memref.load %buf[%p] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // The partner t xor 32 is in the other warp, which a warp barrier does
  // not order.
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @partner_across_warps(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %mask = arith.constant -1 : i32
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    nvvm.bar.warp.sync %mask : i32
    %p = arith.xori %t, %c32 : index
    %x = memref.load %buf[%p] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // Obsidian's riffle as places: t mod 2 * 32 + t floordiv 2 is a
  // permutation, so no two threads write one place; t floordiv 2 is not.
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @riffle(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>, %half: memref<32xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %v = arith.index_cast %t : index to i32
    %low = arith.remui %t, %c2 : index
    %high = arith.divui %t, %c2 : index
    %base = arith.muli %low, %c32 : index
    %r = arith.addi %base, %high : index
    memref.store %v, %buf[%r] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %v, %half[%high] : memref<32xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // A loop whose iterations each read the neighbour and write their own
  // element, with a barrier after each: iteration k's epochs are 2k and
  // 2k + 1, and no two accesses of one epoch meet.
  // expected-remark @+1 {{symbolic: 0 races, agrees}}
  gpu.func @rounds(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %n = arith.addi %t, %k : index
      %w = arith.remui %n, %c64 : index
      %x = memref.load %buf[%w] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      memref.store %x, %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // The same with one barrier an iteration: iteration k's write and
  // iteration k + 1's read are in one epoch, and meet.
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @rounds_wrapping(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %n = arith.addi %t, %k : index
      %w = arith.remui %n, %c64 : index
      %x = memref.load %buf[%w] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      memref.store %x, %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // A stage that reads what it has itself written: thread t writes its
  // element, then reads it back in the same stage (an unsafe in-place
  // stage); a read before the write is fine.
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @reads_own_write(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %before = memref.load %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %before, %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    %after = memref.load %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %after, %out[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // A place read from memory is anywhere in its buffer; atomics of one kind
  // commute.
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @from_data(%in: memref<64xindex>) workgroup(%buf: memref<8xi32, #gpu.address_space<workgroup>>, %counts: memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : i32
    %i = memref.load %in[%t] : memref<64xindex>
    memref.store %c1, %buf[%i] : memref<8xi32, #gpu.address_space<workgroup>>
    %old = memref.atomic_rmw addi %c1, %counts[%i] : (i32, memref<8xi32, #gpu.address_space<workgroup>>) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  // Branches on the thread id are cases: threads below 32 write the low
  // half, the others read it after a barrier, so nothing races.
  // expected-remark @+1 {{symbolic: 0 races, agrees}}
  gpu.func @halves(%out: memref<64xi32>) workgroup(%buf: memref<32xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %low = arith.cmpi ult, %t, %c32 : index
    scf.if %low {
      %v = arith.index_cast %t : index to i32
      memref.store %v, %buf[%t] : memref<32xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %h = arith.select %low, %t, %c32 : index
    %j = arith.subi %t, %h : index
    %x = memref.load %buf[%j] : memref<32xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // A product of two thread-dependent values is not quasi-affine.
  gpu.func @square(%out: memref<64xi32>) workgroup(%buf: memref<4096xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : i32
    // expected-remark @+1 {{symbolic: undecided: an index of shared memory the proof cannot express}}
    %s = arith.muli %t, %t : index
    memref.store %c0, %buf[%s] : memref<4096xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // A barrier under a branch is not followed.
  gpu.func @barrier_in_branch(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c64 = arith.constant 64 : index
    %all = arith.cmpi ult, %t, %c64 : index
    scf.if %all {
      // expected-remark @+1 {{symbolic: undecided: a barrier inside a branch}}
      gpu.barrier
    }
    gpu.return
  }
}
