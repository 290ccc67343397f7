// RUN: obs-opt %s -split-input-file --test-obs-symbolic-hazards -verify-diagnostics
// RUN: obs-opt %s -split-input-file --test-obs-symbolic-hazards -verify-diagnostics --obs-symbolic-box-search=false

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
  // A block of one warp: every warp barrier orders every two threads, so
  // the write and the partner's read, in different phases, need no set.
  // The one set is the write's with itself (two threads, one place).
  // expected-remark @+1 {{symbolic: 0 races, agrees (2 pairs, 1 sets)}}
  gpu.func @partner_in_only_warp(%out: memref<32xi32>) workgroup(%buf: memref<32xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %mask = arith.constant -1 : i32
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%t] : memref<32xi32, #gpu.address_space<workgroup>>
    nvvm.bar.warp.sync %mask : i32
    %p = arith.xori %t, %c4 : index
    %x = memref.load %buf[%p] : memref<32xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<32xi32>
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

// -----

// Integers wrap at their width: the symbolic values are the integers'
// arithmetic, the program's is modular (found by a cross-check hunt,
// where the engine took every cast and narrow sum to be the identity).

gpu.module @m {
  // i8's truncation keeps t mod 256: threads t and t + 256 store to one
  // place.
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @truncation_wraps(%out: memref<512xi32>) workgroup(%buf: memref<512xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %t = gpu.thread_id x
    %v = arith.index_cast %t : index to i32
    %b = arith.trunci %v : i32 to i8
    %u = arith.extui %b : i8 to i32
    %p = arith.index_cast %u : i32 to index
    memref.store %v, %buf[%p] : memref<512xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // For t < 256, sext(trunc(t + 128)) + 128 is t again: every thread its
  // own place, where the integers' arithmetic put t + 256.
  // expected-remark @+1 {{symbolic: 0 races, agrees}}
  gpu.func @narrow_round_trip(%out: memref<512xi32>) workgroup(%buf: memref<512xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %c128 = arith.constant 128 : i32
    %v = arith.index_cast %t : index to i32
    %a = arith.addi %v, %c128 : i32
    %b = arith.trunci %a : i32 to i8
    %e = arith.extsi %b : i8 to i32
    %r = arith.addi %e, %c128 : i32
    %p = arith.index_cast %r : i32 to index
    memref.store %v, %buf[%p] : memref<512xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // An i8 sum that overflows: t + 100 wraps past 127 (thread 28's is
  // -128), and an unsigned remainder of a value that may be negative has
  // no meaning over the integers: it is left unexpressed.
  gpu.func @narrow_sum_wraps(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c100 = arith.constant 100 : i8
    %c64 = arith.constant 64 : i8
    %v = arith.index_cast %t : index to i8
    %a = arith.addi %v, %c100 : i8
    // expected-remark @+1 {{symbolic: undecided}}
    %r = arith.remui %a, %c64 : i8
    %p = arith.index_castui %r : i8 to index
    %w = arith.index_cast %t : index to i32
    memref.store %w, %buf[%p] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // An index cast to i1 keeps the low bit: odd threads store to place 1,
  // even ones to 0. A boolean is a constant or data in every case, and a
  // cast of an expression to one is left unexpressed.
  gpu.func @cast_to_i1(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-remark @+1 {{symbolic: undecided}}
    %odd = arith.index_cast %t : index to i1
    %p = arith.select %odd, %c1, %c0 : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%p] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // Bounds past 2^40 are bounds still: t * 2^41 lies in [0, 63 * 2^41],
  // and its remainder by 2^41 is 0 for every thread, so all store to one
  // place (the bounds saturated at 2^40 made the remainder t * 2^41).
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @far_remainder(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %big = arith.constant 2199023255552 : index
    %m = arith.muli %t, %big : index
    %p = arith.remui %m, %big : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%p] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // (t * 2^41) >> 41 is t: each thread its own place (the saturated bounds
  // made the quotient 0 for every thread).
  // expected-remark @+1 {{symbolic: 0 races, agrees}}
  gpu.func @far_quotient(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %big = arith.constant 2199023255552 : index
    %c41 = arith.constant 41 : index
    %m = arith.muli %t, %big : index
    %p = arith.shrui %m, %c41 : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%p] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // 64-bit arithmetic past 63 bits may wrap, which has no quasi-affine
  // form: t * 2^56 fits, t * 2^56 * 32 is t * 2^61, which wraps from
  // thread 4 on. (Its remainder by 64 keeps the place inside the buffer,
  // as the simulation requires: every thread writes place 0.)
  gpu.func @wraps_at_64(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %big = arith.constant 72057594037927936 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %m = arith.muli %t, %big : index
    // expected-remark @+1 {{symbolic: undecided}}
    %p = arith.muli %m, %c32 : index
    %q = arith.remui %p, %c64 : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%q] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // An unsigned i8 loop from 0 to 200 by 100 runs twice (200 is -56 as a
  // signed i8, which would run it never): every thread stores to place 0
  // in it. Bounds negative as signed integers are not followed.
  gpu.func @unsigned_loop(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %lo = arith.constant 0 : i8
    %hi = arith.constant 200 : i8
    %st = arith.constant 100 : i8
    %v = arith.index_cast %t : index to i32
    // expected-remark @+1 {{symbolic: undecided: an unsigned loop whose bounds may be negative}}
    scf.for unsigned %k = %lo to %hi step %st : i8 {
      %c0 = arith.constant 0 : index
      memref.store %v, %buf[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // An i8 loop from -100 to 60 runs 160 times: thread 0 writes places
  // 0..159, and thread 1 reads place 150 in the same epoch. The trip count
  // is not upstream's getStaticTripCount, which subtracts the bounds in 8
  // bits and found none (hunt 27).
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @narrow_loop(%out: memref<64xi32>) workgroup(%buf: memref<256xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c150 = arith.constant 150 : index
    %lo = arith.constant -100 : i8
    %hi = arith.constant 60 : i8
    %st = arith.constant 1 : i8
    %c100 = arith.constant 100 : i32
    %v = arith.index_cast %t : index to i32
    %is0 = arith.cmpi eq, %t, %c0 : index
    %is1 = arith.cmpi eq, %t, %c1 : index
    scf.if %is0 {
      scf.for %k = %lo to %hi step %st : i8 {
        %e = arith.extsi %k : i8 to i32
        %s = arith.addi %e, %c100 : i32
        %p = arith.index_cast %s : i32 to index
        memref.store %v, %buf[%p] : memref<256xi32, #gpu.address_space<workgroup>>
      }
    }
    scf.if %is1 {
      %x = memref.load %buf[%c150] : memref<256xi32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%t] : memref<64xi32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // p is -1 or a value read from memory: data, as the simulation knows it
  // (a select on data), so the store under `p ult 4` writes anywhere in %b
  // (bytes 16..31 of the arena), where the threads' stores race with each
  // other, and never reaches %a[3] (bytes 12..15). The symbolic proof kept
  // the -1 unconditioned and found the load racing with a store at place -1
  // of %b (hunt 27: the radix sort's scatter).
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @select_on_data(%in: memref<64xindex>) workgroup(%arena: memref<32xi8, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %cm1 = arith.constant -1 : index
    %a = memref.view %arena[%c0][] : memref<32xi8, #gpu.address_space<workgroup>> to memref<4xi32, #gpu.address_space<workgroup>>
    %b = memref.view %arena[%c16][] : memref<32xi8, #gpu.address_space<workgroup>> to memref<4xi32, #gpu.address_space<workgroup>>
    %t = gpu.thread_id x
    %x = memref.load %a[%c3] : memref<4xi32, #gpu.address_space<workgroup>>
    %d = memref.load %in[%t] : memref<64xindex>
    %neg = arith.cmpi slt, %d, %c0 : index
    %p = arith.select %neg, %cm1, %d : index
    %ok = arith.cmpi ult, %p, %c4 : index
    scf.if %ok {
      memref.store %x, %b[%p] : memref<4xi32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // A select whose condition holds in every thread, of the thread id or
  // data: the simulation knows a select's value only where it knows every
  // operand, so the place is data, anywhere in the buffer, and the stores
  // race; the symbolic proof follows it.
  // expected-remark @+1 {{symbolic: 1 races, agrees}}
  gpu.func @select_of_data(%in: memref<64xindex>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c64 = arith.constant 64 : index
    %t = gpu.thread_id x
    %v = arith.index_cast %t : index to i32
    %d = memref.load %in[%t] : memref<64xindex>
    %always = arith.cmpi ult, %t, %c64 : index
    %p = arith.select %always, %t, %d : index
    memref.store %v, %buf[%p] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // t & (2^63 - 1) is t: a mask of every bit but the sign's has no
  // modulus (2^63 overflowed into a set the builder could not hold, which
  // was taken as a race with no threads, hunt 28).
  // expected-remark @+1 {{symbolic: 0 races, agrees}}
  gpu.func @mask_of_63_bits(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %mask = arith.constant 9223372036854775807 : index
    %p = arith.andi %t, %mask : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%p] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
