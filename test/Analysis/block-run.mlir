// RUN: obs-opt %s -split-input-file -allow-unregistered-dialect --test-obs-block-run -verify-diagnostics

// Tests of lib/Analysis/BlockRun.cpp on hand-written gpu.funcs: what the
// simulation records, the hazards it finds, and that it fails closed, with
// an error at the op, on whatever it cannot follow.

gpu.module @m {
  // Each thread writes its element and, after a block barrier, reads the
  // mirror one: 64 writes, 64 reads, no hazard.
  // expected-remark @+1 {{192 accesses, 1 barriers}}
  gpu.func @mirror(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c63 = arith.constant 63 : index
    %c0 = arith.constant 0 : i32
    memref.store %c0, %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %m = arith.subi %c63, %t : index
    %x = memref.load %buf[%m] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // Each thread stores three times in a loop, more than its one place per
  // load and store in the log: the accesses made after the first thread's
  // third store are ordered by thread at the end (the pass checks that
  // every run's accesses come out in thread order, and its own accesses in
  // program order). 4 x 3 stores, then 4 loads and 4 stores of results, no
  // hazard.
  // expected-remark @+1 {{20 accesses, 1 barriers}}
  gpu.func @more_than_one_each(%out: memref<4xi32>) workgroup(%buf: memref<12xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %v = arith.constant 7 : i32
    %base = arith.muli %t, %c3 : index
    scf.for %k = %c0 to %c3 step %c1 {
      %i = arith.addi %base, %k : index
      memref.store %v, %buf[%i] : memref<12xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %m = arith.subi %c3, %t : index
    %x = memref.load %buf[%m] : memref<12xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<4xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // A warp barrier does not order threads 0 and 63, which are in two warps.
  // expected-remark @+1 {{192 accesses, 1 barriers}}
  gpu.func @across_warps(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c63 = arith.constant 63 : index
    %c0 = arith.constant 0 : i32
    %mask = arith.constant -1 : i32
    memref.store %c0, %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    nvvm.bar.warp.sync %mask : i32
    %m = arith.subi %c63, %t : index
    // expected-remark @+1 {{read after write: thread 0 then thread 63, element 0}}
    %x = memref.load %buf[%m] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // An index read from memory may be anywhere in its buffer: two threads'
  // stores may meet.
  // expected-remark @+1 {{4 accesses, 0 barriers, data-dependent}}
  gpu.func @scatter(%in: memref<2xindex>) workgroup(%buf: memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : i32
    %i = memref.load %in[%t] : memref<2xindex>
    // expected-remark @+1 {{write after write: thread 0 then thread 1, anywhere}}
    memref.store %c0, %buf[%i] : memref<8xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // In the second iteration the index comes from memory: it is forgotten,
  // not kept from the first iteration, where it was the thread's id.
  // expected-remark @+1 {{6 accesses, 0 barriers, data-dependent}}
  gpu.func @forgotten(%in: memref<2xindex>) workgroup(%buf: memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %v = arith.constant 0 : i32
    scf.for %k = %c0 to %c2 step %c1 {
      %first = arith.cmpi eq, %k, %c0 : index
      %i = scf.if %first -> (index) {
        scf.yield %t : index
      } else {
        %loaded = memref.load %in[%t] : memref<2xindex>
        scf.yield %loaded : index
      }
      // expected-remark @+1 {{write after write: thread 0 then thread 1, anywhere}}
      memref.store %v, %buf[%i] : memref<8xi32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // A fold over global memory touches nothing another thread sees: it is
  // skipped, and its load counts once, as a read of anywhere in its buffer
  // that does not depend on data.
  // expected-remark @+1 {{4 accesses, 0 barriers}}
  gpu.func @fold(%in: memref<64xi32>, %out: memref<2xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0 : i32
    %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (i32) {
      %x = memref.load %in[%k] : memref<64xi32>
      %s = arith.addi %acc, %x : i32
      scf.yield %s : i32
    }
    memref.store %sum, %out[%t] : memref<2xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // An op whose effects the simulation cannot see is an error.
  gpu.func @opaque(%out: memref<2xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    // expected-error @+1 {{has memory effects the analysis cannot see, so it cannot prove the kernel safe}}
    "test.opaque"(%out) : (memref<2xi32>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m {
  // Memory touched other than by memref.load and memref.store is an error.
  gpu.func @copy(%in: memref<2xi32>) workgroup(%buf: memref<2xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    // expected-error @+1 {{reads or writes memory that the analysis follows only through memref.load and memref.store}}
    memref.copy %in, %buf : memref<2xi32> to memref<2xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // A mutable global is shared by every thread and block: the simulation
  // cannot follow it.
  memref.global "private" @counts : memref<2xi32>
  gpu.func @mutable_global(%out: memref<2xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %g = memref.get_global @counts : memref<2xi32>
    // expected-error @+1 {{reads memory that is neither the kernel's arguments, its shared buffers, a thread's own scratch nor a constant table}}
    %x = memref.load %g[%t] : memref<2xi32>
    memref.store %x, %out[%t] : memref<2xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // A constant table is known data: its entry is an index like any other.
  memref.global "private" constant @table : memref<2xi32> = dense<[1, 0]>
  // expected-remark @+1 {{2 accesses, 0 barriers}}
  gpu.func @constant_table(%out: memref<2xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %g = memref.get_global @table : memref<2xi32>
    %e = memref.load %g[%t] : memref<2xi32>
    %i = arith.index_cast %e : i32 to index
    memref.store %e, %out[%i] : memref<2xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // A barrier that only some threads reach.
  gpu.func @divergent(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %low = arith.cmpi ult, %t, %c32 : index
    scf.if %low {
      // expected-error @+1 {{is a barrier that threads 0 and 32 do not pass alike: some threads could skip it}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // A barrier under a condition on data.
  gpu.func @on_data(%in: memref<2xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : i32
    %x = memref.load %in[%t] : memref<2xi32>
    %p = arith.cmpi eq, %x, %c0 : i32
    // expected-error @+1 {{holds a barrier under a condition that depends on data}}
    scf.if %p {
      gpu.barrier
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // A loop whose bound is read from memory, touching nothing another thread
  // can see: any number of iterations, skipped (the two loads of the
  // bounds are the accesses).
  // expected-remark @+1 {{2 accesses, 0 barriers}}
  gpu.func @unknown_trips(%in: memref<2xindex>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.load %in[%t] : memref<2xindex>
    scf.for %k = %c0 to %n step %c1 {
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // A loop whose bound is read from memory, writing shared memory: it
  // cannot be followed.
  gpu.func @unknown_trips_shared(%in: memref<2xindex>) workgroup(%buffer: memref<2xindex, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.load %in[%t] : memref<2xindex>
    // expected-error @+1 {{is a loop whose bounds depend on data, and it touches shared memory, stores to global memory or holds a barrier or a warp exchange}}
    scf.for %k = %c0 to %n step %c1 {
      memref.store %k, %buffer[%t] : memref<2xindex, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // A loop whose trip count depends on data (scf.while), touching nothing
  // another thread can see: skipped, its reads of global memory counted
  // once each as reads of anywhere in the buffer.
  // expected-remark @+1 {{2 accesses, 0 barriers}}
  gpu.func @while(%in: memref<2xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c0i = arith.constant 0 : index
    %r = scf.while (%x = %c0) : (i32) -> i32 {
      %v = memref.load %in[%c0i] : memref<2xi32>
      %p = arith.cmpi slt, %x, %v : i32
      scf.condition(%p) %x : i32
    } do {
    ^bb0(%y: i32):
      scf.yield %y : i32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // The same, storing to global memory: it cannot be followed.
  gpu.func @while_stores(%in: memref<2xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c0i = arith.constant 0 : index
    // expected-error @+1 {{is a loop whose trip count depends on data, and it touches shared memory, stores to global memory or holds a barrier or a warp exchange}}
    %r = scf.while (%x = %c0) : (i32) -> i32 {
      %p = arith.cmpi slt, %x, %c0 : i32
      scf.condition(%p) %x : i32
    } do {
    ^bb0(%y: i32):
      memref.store %y, %in[%c0i] : memref<2xi32>
      scf.yield %y : i32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // Regions other than scf.if, scf.for and scf.while.
  gpu.func @execute_region() kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    // expected-error @+1 {{has regions the analysis cannot follow}}
    %r = scf.execute_region -> i32 {
      %c0 = arith.constant 0 : i32
      scf.yield %c0 : i32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // A view at a shift read from memory.
  gpu.func @unknown_view(%in: memref<2xindex>) workgroup(%arena: memref<64xi8, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %shift = memref.load %in[%t] : memref<2xindex>
    // expected-error @+1 {{views memory the analysis cannot follow}}
    %v = memref.view %arena[%shift][] : memref<64xi8, #gpu.address_space<workgroup>> to memref<4xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // The block index the lowering addresses global memory with is block 0's;
  // each thread stores to its own element: no hazard.
  // expected-remark @+1 {{2 accesses, 0 barriers}}
  gpu.func @block_for_addresses() workgroup(%buf: memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %c0 = arith.constant 0 : i32
    %i = arith.addi %b, %t : index
    memref.store %c0, %buf[%i] : memref<8xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // The block index the kernel's own code computes with (obs.block_id,
  // obs.extent: obs.data) is any block's, so an index computed from it may
  // be anywhere: what block 0 does proves nothing for the others.
  // expected-remark @+1 {{2 accesses, 0 barriers, data-dependent}}
  gpu.func @block_as_data() workgroup(%buf: memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %b = gpu.block_id x {obs.data}
    %c0 = arith.constant 0 : i32
    %i = arith.addi %b, %t : index
    // expected-remark @+1 {{write after write: thread 0 then thread 1, anywhere}}
    memref.store %c0, %buf[%i] : memref<8xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // A loop whose trip count depends on data may not hold an exchange between
  // the threads of a warp: threads whose counts differ would skip it.
  gpu.func @while_shuffles(%in: memref<2xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c0i = arith.constant 0 : index
    %v = memref.load %in[%c0i] : memref<2xi32>
    // expected-error @+1 {{is a loop whose trip count depends on data, and it touches shared memory, stores to global memory or holds a barrier or a warp exchange}}
    %r = scf.while (%x = %c0) : (i32) -> i32 {
      %p = arith.cmpi slt, %x, %v : i32
      scf.condition(%p) %x : i32
    } do {
    ^bb0(%y: i32):
      %s, %valid = gpu.shuffle xor %y, %c1, %c32 : i32
      scf.yield %s : i32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // Atomic updates of one element commute: two threads' atomics at places
  // from memory race with nothing (a histogram's counts).
  // expected-remark @+1 {{4 accesses, 0 barriers, data-dependent}}
  gpu.func @atomics_commute(%in: memref<2xindex>) workgroup(%buf: memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : i32
    %i = memref.load %in[%t] : memref<2xindex>
    %old = memref.atomic_rmw addi %c1, %buf[%i] : (i32, memref<8xi32, #gpu.address_space<workgroup>>) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  // Atomics of two kinds at one place do not commute: an add and a max of
  // one count give a result that depends on their order.
  // expected-remark @+1 {{2 accesses, 0 barriers}}
  gpu.func @atomic_kinds_race(%out: memref<2xi32>) workgroup(%buf: memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %is0 = arith.cmpi eq, %t, %c0 : index
    scf.if %is0 {
      %a = memref.atomic_rmw addi %one, %buf[%c0] : (i32, memref<8xi32, #gpu.address_space<workgroup>>) -> i32
    } else {
      // expected-remark @+1 {{write after write: thread 0 then thread 1, element 0}}
      %m = memref.atomic_rmw maxs %one, %buf[%c0] : (i32, memref<8xi32, #gpu.address_space<workgroup>>) -> i32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // An atomic update against a plain read of the same buffer, with no
  // barrier between them, is a race like any other.
  // expected-remark @+1 {{4 accesses, 0 barriers}}
  gpu.func @atomic_against_read(%out: memref<2xi32>) workgroup(%buf: memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    %old = memref.atomic_rmw addi %one, %buf[%t] : (i32, memref<8xi32, #gpu.address_space<workgroup>>) -> i32
    %other = arith.subi %c1, %t : index
    // expected-remark @+1 {{read after write: thread 0 then thread 1, element 0}}
    %x = memref.load %buf[%other] : memref<8xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // The stores of one scatter without a combine at places from memory are
  // left to the check the ref and cpu targets make as they run.
  // expected-remark @+1 {{4 accesses, 0 barriers, data-dependent}}
  gpu.func @checked_scatter(%in: memref<2xindex>) workgroup(%buf: memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : i32
    %i = memref.load %in[%t] : memref<2xindex>
    memref.store %c0, %buf[%i] {obs.checked_scatter} : memref<8xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // ... but not where the simulation knows the places: both threads write
  // element 3, whatever the data.
  // expected-remark @+1 {{2 accesses, 0 barriers}}
  gpu.func @scatter_collides(%in: memref<2xindex>) workgroup(%buf: memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : index
    // expected-remark @+1 {{write after write: thread 0 then thread 1, element 3}}
    memref.store %c0, %buf[%c3] {obs.checked_scatter} : memref<8xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // ... nor against a plain read: the check covers the scatter's own stores.
  // expected-remark @+1 {{6 accesses, 0 barriers, data-dependent}}
  gpu.func @scatter_against_read(%in: memref<2xindex>) workgroup(%buf: memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : i32
    %i = memref.load %in[%t] : memref<2xindex>
    memref.store %c0, %buf[%i] {obs.checked_scatter} : memref<8xi32, #gpu.address_space<workgroup>>
    %other = arith.subi %c1, %t : index
    // expected-remark @+1 {{read after write: thread 0 then thread 1, element 0}}
    %x = memref.load %buf[%other] : memref<8xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Reads of an array in shuffles (obs.shuffle_read checks, as the lowering
// emits them): each lane reads element t - 1 (lane 0 its own, t), which
// thread t - 1 computed. shfl.sync.up by 1 takes exactly those lanes'
// values; by 2 it takes lane 1's own value for element 0, computed by
// thread 0, and so on: the run reports the first such lane. A shuffle
// with no read checked before it has no owner to agree with.
gpu.module @m {
  // expected-remark @+1 {{64 accesses, 0 barriers}}
  gpu.func @shuffle_up(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c31 = arith.constant 31 : index
    %c64 = arith.constant 64 : index
    %lane = arith.andi %t, %c31 : index
    %has = arith.cmpi uge, %lane, %c1 : index
    %tm1 = arith.subi %t, %c1 : index
    %e = arith.select %has, %tm1, %t : index
    %owner = arith.remui %e, %c64 : index
    %check = arith.cmpi eq, %owner, %t {obs.shuffle_read = 0 : i64} : index
    %v = arith.index_cast %t : index to i32
    %mask = arith.constant -1 : i32
    %d = arith.constant 1 : i32
    %first = arith.constant 0 : i32
    %s = nvvm.shfl.sync up %mask, %v, %d, %first {obs.shuffle_read = 0 : i64} : i32 -> i32
    memref.store %s, %out[%t] : memref<64xi32>
    gpu.return
  }

  // expected-remark @+1 {{64 accesses, 0 barriers}}
  gpu.func @shuffle_up_too_far(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c31 = arith.constant 31 : index
    %c64 = arith.constant 64 : index
    %lane = arith.andi %t, %c31 : index
    %has = arith.cmpi uge, %lane, %c1 : index
    %tm1 = arith.subi %t, %c1 : index
    %e = arith.select %has, %tm1, %t : index
    %owner = arith.remui %e, %c64 : index
    %check = arith.cmpi eq, %owner, %t {obs.shuffle_read = 0 : i64} : index
    %v = arith.index_cast %t : index to i32
    %mask = arith.constant -1 : i32
    %d = arith.constant 2 : i32
    %first = arith.constant 0 : i32
    // expected-remark @+1 {{a shuffle from a lane that is not the owner of sync 0: thread 1, element 0, owner 0, source 1}}
    %s = nvvm.shfl.sync up %mask, %v, %d, %first {obs.shuffle_read = 0 : i64} : i32 -> i32
    memref.store %s, %out[%t] : memref<64xi32>
    gpu.return
  }

  // expected-remark @+1 {{32 accesses, 0 barriers}}
  gpu.func @shuffle_unchecked(%out: memref<32xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %v = arith.index_cast %t : index to i32
    %mask = arith.constant -1 : i32
    %m = arith.constant 1 : i32
    %last = arith.constant 31 : i32
    // expected-remark @+1 {{a shuffle from a lane that is not the owner of sync 3: thread 0, element -1, owner -1, source 1}}
    %s = nvvm.shfl.sync bfly %mask, %v, %m, %last {obs.shuffle_read = 3 : i64} : i32 -> i32
    memref.store %s, %out[%t] : memref<32xi32>
    gpu.return
  }
}

// -----

// Only the low five bits of a shuffle's offset count (PTX: bval = b[4:0]):
// up by 33 is up by 1, so each lane takes t - 1, the element it reads.
gpu.module @m {
  // expected-remark @+1 {{64 accesses, 0 barriers}}
  gpu.func @shuffle_up_wide_offset(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c31 = arith.constant 31 : index
    %c64 = arith.constant 64 : index
    %lane = arith.andi %t, %c31 : index
    %has = arith.cmpi uge, %lane, %c1 : index
    %tm1 = arith.subi %t, %c1 : index
    %e = arith.select %has, %tm1, %t : index
    %owner = arith.remui %e, %c64 : index
    %check = arith.cmpi eq, %owner, %t {obs.shuffle_read = 0 : i64} : index
    %v = arith.index_cast %t : index to i32
    %mask = arith.constant -1 : i32
    %d = arith.constant 33 : i32
    %first = arith.constant 0 : i32
    %s = nvvm.shfl.sync up %mask, %v, %d, %first {obs.shuffle_read = 0 : i64} : i32 -> i32
    memref.store %s, %out[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

// A compare-and-swap's read of the pair's first element, e = t & ~1: its
// own in even lanes, the odd lane's partner's in odd ones. bfly by 1 takes
// the partner's value in every lane; marked obs.own_lanes_kept, the even
// lanes keep their own (the read selects it), so only the odd lanes' source
// is asked to be the owner. Unmarked, the even lanes' shuffle takes from
// the partner, which did not compute their element; marked but by 2, the
// odd lanes take from the wrong lane.
gpu.module @m {
  // expected-remark @+1 {{64 accesses, 0 barriers}}
  gpu.func @shuffle_own_kept(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %odd = arith.andi %t, %c1 : index
    %e = arith.subi %t, %odd : index
    %owner = arith.remui %e, %c64 : index
    %check = arith.cmpi eq, %owner, %t {obs.shuffle_read = 0 : i64} : index
    %v = arith.index_cast %t : index to i32
    %mask = arith.constant -1 : i32
    %m = arith.constant 1 : i32
    %last = arith.constant 31 : i32
    %s = nvvm.shfl.sync bfly %mask, %v, %m, %last {obs.shuffle_read = 0 : i64, obs.own_lanes_kept} : i32 -> i32
    %r = arith.select %check, %v, %s : i32
    memref.store %r, %out[%t] : memref<64xi32>
    gpu.return
  }

  // expected-remark @+1 {{64 accesses, 0 barriers}}
  gpu.func @shuffle_own_not_kept(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %odd = arith.andi %t, %c1 : index
    %e = arith.subi %t, %odd : index
    %owner = arith.remui %e, %c64 : index
    %check = arith.cmpi eq, %owner, %t {obs.shuffle_read = 0 : i64} : index
    %v = arith.index_cast %t : index to i32
    %mask = arith.constant -1 : i32
    %m = arith.constant 1 : i32
    %last = arith.constant 31 : i32
    // expected-remark @+1 {{a shuffle from a lane that is not the owner of sync 0: thread 0, element 0, owner 0, source 1}}
    %s = nvvm.shfl.sync bfly %mask, %v, %m, %last {obs.shuffle_read = 0 : i64} : i32 -> i32
    memref.store %s, %out[%t] : memref<64xi32>
    gpu.return
  }

  // expected-remark @+1 {{64 accesses, 0 barriers}}
  gpu.func @shuffle_own_kept_wrong_partner(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %odd = arith.andi %t, %c1 : index
    %e = arith.subi %t, %odd : index
    %owner = arith.remui %e, %c64 : index
    %check = arith.cmpi eq, %owner, %t {obs.shuffle_read = 0 : i64} : index
    %v = arith.index_cast %t : index to i32
    %mask = arith.constant -1 : i32
    %m = arith.constant 2 : i32
    %last = arith.constant 31 : i32
    // expected-remark @+1 {{a shuffle from a lane that is not the owner of sync 0: thread 1, element 0, owner 0, source 3}}
    %s = nvvm.shfl.sync bfly %mask, %v, %m, %last {obs.shuffle_read = 0 : i64, obs.own_lanes_kept} : i32 -> i32
    %r = arith.select %check, %v, %s : i32
    memref.store %r, %out[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

// Fails closed where it cannot follow memory (hunt 28): a loop whose trip
// count depends on data is skipped only where it touches nothing another
// thread sees, and a subview of a shared buffer is such memory, though the
// run does not track it: skipped, the neighbour's read raced unseen.
gpu.module @m {
  gpu.func @subview_in_data_loop(%in: memref<64xindex>, %out: memref<64xindex>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %buf[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    %sub = memref.subview %buf[0] [64] [1] : memref<64xi32, #gpu.address_space<workgroup>> to memref<64xi32, strided<[1]>, #gpu.address_space<workgroup>>
    %n = arith.addi %t, %c1 : index
    %w = arith.remui %n, %c64 : index
    %lim = memref.load %in[%t] : memref<64xindex>
    // expected-error @+1 {{is a loop whose trip count depends on data, and it touches shared memory}}
    %r = scf.while (%i = %c0) : (index) -> index {
      %more = arith.cmpi ult, %i, %lim : index
      scf.condition(%more) %i : index
    } do {
    ^bb0(%i2: index):
      %x = memref.load %sub[%w] : memref<64xi32, strided<[1]>, #gpu.address_space<workgroup>>
      %xi = arith.index_cast %x : i32 to index
      %i3 = arith.addi %i2, %xi : index
      scf.yield %i3 : index
    }
    memref.store %r, %out[%t] : memref<64xindex>
    gpu.return
  }
}

// -----

// A place from data in a view of shared memory whose size is known only at
// run time is anywhere from the view's start to its buffer's end (its
// extents' product counted no bytes, and the threads' stores raced unseen,
// hunt 28).
gpu.module @m {
  // expected-remark @+1 {{128 accesses, 0 barriers, data-dependent}}
  gpu.func @data_place_in_dynamic_view(%in: memref<64xindex>) workgroup(%arena: memref<256xi8, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %v = memref.view %arena[%c0][%c64] : memref<256xi8, #gpu.address_space<workgroup>> to memref<?xi32, #gpu.address_space<workgroup>>
    %d = memref.load %in[%t] : memref<64xindex>
    %x = arith.index_cast %t : index to i32
    // expected-remark @+1 {{write after write: thread 0 then thread 1, anywhere}}
    memref.store %x, %v[%d] : memref<?xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A place outside its shared memref is the program's error, at the access
// (a negative one wrapped the bytes and crashed the hazard search, hunt 28).
gpu.module @m {
  gpu.func @negative_place(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %cm1 = arith.constant -1 : index
    %v = arith.constant 0 : i32
    // expected-error @+1 {{writes outside its memref in thread 0 (warp 0), at place -1}}
    memref.store %v, %buf[%cm1] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A thread's own scratch and a constant table have no hazards, but a place
// outside them is the program's error too (hunt 34: a store past a
// memref.alloca at the thread id was accepted).
gpu.module @m {
  gpu.func @past_scratch(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %v = arith.constant 0 : i32
    %a = memref.alloca() : memref<1xi32>
    // expected-error @+1 {{writes outside its memref in thread 1 (warp 0), at index 1 of 1}}
    memref.store %v, %a[%t] : memref<1xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  memref.global "private" constant @table : memref<2x3xi32> = dense<[[1, 2, 3], [4, 5, 6]]>
  gpu.func @past_table(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %row = arith.addi %t, %c2 : index
    %c0 = arith.constant 0 : index
    %table = memref.get_global @table : memref<2x3xi32>
    // expected-error @+1 {{reads outside its memref in thread 0 (warp 0), at index 2 of dimension 0 of 2}}
    %x = memref.load %table[%row, %c0] : memref<2x3xi32>
    memref.store %x, %out[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

// Under a branch on data, a place outside its view is where it lands: in a
// neighbouring view's bytes here, where it races (review of hunt 28's fix,
// which had put it anywhere in its own view).
gpu.module @m {
  // expected-remark @+1 {{3 accesses, 0 barriers}}
  gpu.func @neighbour_view_under_data_branch(%in: memref<64xi32>) workgroup(%arena: memref<128xi8, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c15 = arith.constant 15 : index
    %c64 = arith.constant 64 : index
    %cm1 = arith.constant -1 : index
    %a = memref.view %arena[%c0][] : memref<128xi8, #gpu.address_space<workgroup>> to memref<16xi32, #gpu.address_space<workgroup>>
    %b = memref.view %arena[%c64][] : memref<128xi8, #gpu.address_space<workgroup>> to memref<16xi32, #gpu.address_space<workgroup>>
    %v = arith.constant 7 : i32
    %is0 = arith.cmpi eq, %t, %c0 : index
    scf.if %is0 {
      memref.store %v, %a[%c15] : memref<16xi32, #gpu.address_space<workgroup>>
    } else {
      %d = memref.load %in[%t] : memref<64xi32>
      %z = arith.constant 0 : i32
      %go = arith.cmpi ne, %d, %z : i32
      scf.if %go {
        // expected-remark @+1 {{write after write: thread 0 then thread 1}}
        memref.store %v, %b[%cm1] : memref<16xi32, #gpu.address_space<workgroup>>
      }
    }
    gpu.return
  }
}

// -----

// A place past a shared view of run-time size, under a branch on data: as
// for a view of static size, anywhere in its memory, where a branch on data
// sends every thread both ways (hunt 29: it was an error, where the static
// view's was not).
gpu.module @m {
  // expected-remark @+1 {{128 accesses, 0 barriers}}
  gpu.func @guarded(%in: memref<64xindex>, %out: memref<64xi32>) workgroup(%arena: memref<128xi8, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %d = memref.load %in[%c0] : memref<64xindex>
    %n = arith.minui %d, %c32 : index
    %v = memref.view %arena[%c0][%n] : memref<128xi8, #gpu.address_space<workgroup>> to memref<?xi32, #gpu.address_space<workgroup>>
    %ok = arith.cmpi ult, %t, %n : index
    scf.if %ok {
      %x = arith.index_cast %t : index to i32
      // expected-remark @+1 {{write after write: thread 0 then thread 32, anywhere}}
      memref.store %x, %v[%t] : memref<?xi32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}
