// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(obs-gpu-index-width))' | FileCheck %s
// What the pass prints reads back: obs-opt registers DLTI, whose data
// layout the pass gives a gpu.module.
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(obs-gpu-index-width))' | obs-opt --split-input-file -o /dev/null
// RUN: obs-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(obs-gpu-index-width))' --obs-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// Tests of lib/Transforms/GPU/GPUIndexWidth.cpp: a module whose every index the
// range analysis bounds within 32 bits gets 32-bit indices; one value it
// cannot bound keeps the module at 64.

// Thread ids bounded by the known block size, offsets by the memref: every
// index fits.
// CHECK-LABEL: gpu.module @bounded
// CHECK-SAME: dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>
gpu.module @bounded {
  gpu.func @k(%in: memref<512xi32>, %out: memref<512xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    %i = arith.muli %t, %c2 : index
    %j = arith.addi %i, %c1 : index
    %x = memref.load %in[%i] : memref<512xi32>
    %y = memref.load %in[%j] : memref<512xi32>
    %s = arith.addi %x, %y : i32
    memref.store %s, %out[%i] : memref<512xi32>
    gpu.return
  }
}

// -----

// An index from 64-bit data may be anything.
// CHECK-LABEL: gpu.module @from_data
// CHECK-NOT: dlti.dl_spec
gpu.module @from_data {
  gpu.func @k(%in: memref<4xi64>, %out: memref<4xi32>) kernel
      attributes {known_block_size = array<i32: 4, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<4xi64>
    %i = arith.index_cast %v : i64 to index
    %c3 = arith.constant 3 : index
    %k = arith.andi %i, %c3 : index
    %x = arith.index_cast %i : index to i32
    memref.store %x, %out[%k] : memref<4xi32>
    gpu.return
  }
}

// -----

// A product that may pass 2^31: 255 * 10,000,000.
// CHECK-LABEL: gpu.module @large_product
// CHECK-NOT: dlti.dl_spec
gpu.module @large_product {
  gpu.func @k(%out: memref<256xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %big = arith.constant 10000000 : index
    %c256 = arith.constant 256 : index
    %t = gpu.thread_id x
    %p = arith.muli %t, %big : index
    %r = arith.remui %p, %c256 : index
    %x = arith.index_cast %r : index to i32
    memref.store %x, %out[%t] : memref<256xi32>
    gpu.return
  }
}

// -----

// A length known only at run time, as an `index` argument.
// CHECK-LABEL: gpu.module @run_time_length
// CHECK-NOT: dlti.dl_spec
gpu.module @run_time_length {
  gpu.func @k(%out: memref<?xi32>, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %inside = arith.cmpi ult, %t, %n : index
    scf.if %inside {
      %x = arith.index_cast %t : index to i32
      memref.store %x, %out[%t] : memref<?xi32>
    }
    gpu.return
  }
}

// -----

// An unsigned cast of a value that may be negative: 32 bits would
// zero-extend a different number.
// CHECK-LABEL: gpu.module @unsigned_cast
// CHECK-NOT: dlti.dl_spec
gpu.module @unsigned_cast {
  gpu.func @k(%out: memref<256xi64>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    %d = arith.subi %t, %c1 : index
    %x = arith.index_castui %d : index to i64
    memref.store %x, %out[%t] : memref<256xi64>
    gpu.return
  }
}

// -----

// remui reads its operand as unsigned: (t - 1) mod 7 at t = 0 is 1 in 64
// bits and 3 in 32.
// CHECK-LABEL: gpu.module @unsigned_remainder
// CHECK-NOT: dlti.dl_spec
gpu.module @unsigned_remainder {
  gpu.func @k(%out: memref<256xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %t = gpu.thread_id x
    %d = arith.subi %t, %c1 : index
    %r = arith.remui %d, %c7 : index
    %x = arith.index_cast %r : index to i32
    memref.store %x, %out[%t] : memref<256xi32>
    gpu.return
  }
}

// -----

// Every index fits, but the lowering's linear offset into 2^22 x 1024
// elements would not.
// CHECK-LABEL: gpu.module @large_memref
// CHECK-NOT: dlti.dl_spec
gpu.module @large_memref {
  gpu.func @k(%out: memref<4194304x1024xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = gpu.thread_id x
    %x = arith.constant 1.0 : f32
    memref.store %x, %out[%t, %c0] : memref<4194304x1024xf32>
    gpu.return
  }
}

// -----

// A loop whose bound plus its step passes 2^31 - 1: the last increment.
// CHECK-LABEL: gpu.module @loop_near_limit
// CHECK-NOT: dlti.dl_spec
gpu.module @loop_near_limit {
  gpu.func @k(%out: memref<256xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %step = arith.constant 1000 : index
    %bound = arith.constant 2147483000 : index
    %t = gpu.thread_id x
    scf.for %i = %c0 to %bound step %step {
      %x = arith.index_cast %t : index to i32
      memref.store %x, %out[%t] : memref<256xi32>
    }
    gpu.return
  }
}

// -----

// A shift whose amount may reach 32: every value fits in 32 bits, but
// x >> 40 is 0 in 64 bits and poison in 32.
// CHECK-LABEL: gpu.module @wide_shift
// CHECK-NOT: dlti.dl_spec
gpu.module @wide_shift {
  gpu.func @k(%out: memref<256xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c41 = arith.constant 41 : index
    %t = gpu.thread_id x
    %k = arith.remui %t, %c41 : index
    %s = arith.shrui %t, %k : index
    %x = arith.index_cast %s : index to i32
    memref.store %x, %out[%t] : memref<256xi32>
    gpu.return
  }
}

// STATS: obs-gpu-index-width
// STATS-NEXT: 1 narrowed-modules
