// RUN: obs-opt %s --split-input-file --obs-gpu-to-cpu --verify-diagnostics | FileCheck %s
// RUN: obs-opt %s --split-input-file --obs-gpu-to-cpu=order=reverse --verify-diagnostics | FileCheck %s --check-prefix=REVERSE
// RUN: obs-opt %s --split-input-file --obs-gpu-to-cpu="order=shuffle seed=3" --verify-diagnostics | FileCheck %s --check-prefix=SHUFFLE

// Tests of lib/Conversion/GPUToCPU: a block barrier ends a loop over all
// threads; warp barriers split a loop over warps into loops over the
// threads of one warp; a launch becomes a call of its kernel's grid
// function, a loop over blocks.

// CHECK-LABEL: func.func @host(
// CHECK: call @stages.block.grid(%c2, %arg0, %arg1)
// CHECK-LABEL: func.func private @stages.block.grid(
// CHECK-SAME: %[[GRID:[^:]*]]: index, %[[IN:[^:]*]]: memref<128xi32>, %[[OUT:[^:]*]]: memref<128xi32>)
// CHECK: scf.for %[[B:.*]] = %c0 to %[[GRID]] step %{{.*}} {
// CHECK:   func.call @stages.block(%[[IN]], %[[OUT]], %[[B]])
// CHECK-LABEL: func.func private @stages.block(
// CHECK-SAME: %[[BLOCK:[^:]*]]: index)
// CHECK: %[[SM:.*]] = memref.alloca() : memref<64xi32>
// CHECK: scf.for %[[T:.*]] = %c0{{.*}} to %c64{{.*}} step
// CHECK:   memref.load %arg0[
// CHECK:   memref.store %{{.*}}, %[[SM]][%[[T]]]
// CHECK: }
// The second stage reads what every thread stored, after all of them.
// CHECK: scf.for %[[U:.*]] = %c0{{.*}} to %c64{{.*}} step
// CHECK:   %[[R:.*]] = arith.subi %c63, %[[U]]
// CHECK:   memref.load %[[SM]][%[[R]]]
// REVERSE-LABEL: func.func private @stages.block(
// REVERSE: scf.for %[[K:.*]] =
// REVERSE: %[[T:.*]] = arith.subi %c63{{.*}}, %[[K]]
// REVERSE: memref.store %{{.*}}, %alloca[%[[T]]]
// SHUFFLE: memref.global "private" constant @obs_thread_order_64 : memref<64xi32> = dense<[
// SHUFFLE-LABEL: func.func private @stages.block(
// SHUFFLE: scf.for %[[K:.*]] =
// SHUFFLE-NEXT: %[[TABLE:.*]] = memref.get_global @obs_thread_order_64
// SHUFFLE-NEXT: %[[E:.*]] = memref.load %[[TABLE]][%[[K]]]
// SHUFFLE-NEXT: arith.index_cast %[[E]] : i32 to index
module attributes {gpu.container_module} {
  func.func @host(%in: memref<128xi32>, %out: memref<128xi32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@stages blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<128xi32>, %out : memref<128xi32>)
    return
  }
  gpu.module @m {
    gpu.func @stages(%in: memref<128xi32>, %out: memref<128xi32>) workgroup(%sm : memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c63 = arith.constant 63 : index
      %c64 = arith.constant 64 : index
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %base = arith.muli %b, %c64 : index
      %i = arith.addi %base, %t : index
      %x = memref.load %in[%i] : memref<128xi32>
      memref.store %x, %sm[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c63, %t : index
      %y = memref.load %sm[%r] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%i] : memref<128xi32>
      gpu.return
    }
  }
}

// -----

// Warp barriers: each warp runs both of its steps before the next warp.
// CHECK-LABEL: func.func private @warp_steps.block(
// CHECK: scf.for %[[W:.*]] = %c0{{.*}} to %c2{{.*}} step
// CHECK:   scf.for %[[L:.*]] = %c0{{.*}} to %c32{{.*}} step
// CHECK:     %[[T:.*]] = arith.addi %{{.*}}, %[[L]]
// CHECK:     scf.if
// CHECK:       memref.store
// CHECK:   scf.for %{{.*}} = %c0{{.*}} to %c32{{.*}} step
// CHECK:     scf.if
// CHECK:       memref.load
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @warp_steps(%in: memref<64xi32>, %out: memref<64xi32>) workgroup(%sm : memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c1 = arith.constant 1 : index
      %mask = arith.constant -1 : i32
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<64xi32>
      memref.store %x, %sm[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      nvvm.bar.warp.sync %mask : i32
      %r = arith.xori %t, %c1 : index
      %y = memref.load %sm[%r] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%t] : memref<64xi32>
      gpu.return
    }
  }
}

// -----

// Shuffles exchange through per-lane slots, warp by warp. A lane gives its
// value in the step that computes it, so the shuffles of one round (%s1 and
// %s2 give values computed before either) share one exchange; %s3 gives a
// value computed from theirs, so it needs a step of its own: three steps in
// all, not one per shuffle and one more. What is computed from loaded
// values (%square) stays in its step and is not computed again where it is
// used: a chain of shuffles would otherwise carry its whole expression into
// every later step.
// CHECK-LABEL: func.func private @round.block(
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     scf.if
// CHECK:       %[[X:.*]] = memref.load %arg0
// CHECK:       %[[SQUARE:.*]] = arith.muli %[[X]], %[[X]] : i32
// CHECK:       memref.store %[[X]], %[[SLOTS1:.*]][
// CHECK:       memref.store %[[SQUARE]], %[[SLOTS2:.*]][
// CHECK:   scf.for
// CHECK:     scf.if
// CHECK-NOT:   arith.muli {{.*}} : i32
// CHECK:       %[[S1:.*]] = memref.load %[[SLOTS1]][
// CHECK-NOT:   arith.muli {{.*}} : i32
// CHECK:       %[[S2:.*]] = memref.load %[[SLOTS2]][
// CHECK:       %[[SUM:.*]] = arith.addi %[[S1]], %[[S2]] : i32
// CHECK:       memref.store %[[SUM]], %[[SLOTS3:.*]][
// CHECK:   scf.for
// CHECK:     scf.if
// CHECK:       %[[S3:.*]] = memref.load %[[SLOTS3]][
// CHECK:       memref.store %[[S3]], %arg1[
// CHECK-NOT: scf.for
// CHECK-NOT: arith.muli {{.*}} : i32
// CHECK: return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @round(%in: memref<32xi32>, %out: memref<32xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %mask = arith.constant -1 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %c31 = arith.constant 31 : i32
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<32xi32>
      %square = arith.muli %x, %x : i32
      %s1 = nvvm.shfl.sync bfly %mask, %x, %c1, %c31 : i32 -> i32
      %s2 = nvvm.shfl.sync bfly %mask, %square, %c2, %c31 : i32 -> i32
      %sum = arith.addi %s1, %s2 : i32
      %s3 = nvvm.shfl.sync bfly %mask, %sum, %c4, %c31 : i32 -> i32
      memref.store %s3, %out[%t] : memref<32xi32>
      gpu.return
    }
  }
}

// -----

// A loop around barriers stays outside the thread loops.
// CHECK-LABEL: func.func private @looped.block(
// CHECK: scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK:   scf.for %{{.*}} = %c0{{.*}} to %c8{{.*}} step
// CHECK:   scf.for %{{.*}} = %c0{{.*}} to %c8{{.*}} step
// CHECK: }
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @looped(%buf: memref<8xi32>) workgroup(%sm : memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c7 = arith.constant 7 : index
      scf.for %i = %c0 to %c3 step %c1 {
        %t = gpu.thread_id x
        %x = memref.load %buf[%t] : memref<8xi32>
        memref.store %x, %sm[%t] : memref<8xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        %r = arith.subi %c7, %t : index
        %y = memref.load %sm[%r] : memref<8xi32, #gpu.address_space<workgroup>>
        memref.store %y, %buf[%t] : memref<8xi32>
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// A barrier that some threads could skip cannot be run as loops over
// threads (nor, on a GPU, without deadlock).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @skippable(%buf: memref<8xi32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c4 = arith.constant 4 : index
      %t = gpu.thread_id x
      %low = arith.cmpi ult, %t, %c4 : index
      // expected-error @+1 {{'scf.if' op holds a barrier or a shuffle that some threads could skip: only loops that every thread runs alike may hold them}}
      scf.if %low {
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// A loop every thread runs alike may hold barriers, but the values it
// carries across them are kept only in memory: one that carries each
// thread's own is refused for that, not as a loop threads could skip
// (hunt 34).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @carries_thread_values(%out: memref<4xi32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %one = arith.constant 1 : i32
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      // expected-error @+1 {{'scf.for' op carries values that differ between threads across the barriers or shuffles it holds, which the CPU lowering keeps only in memory: carry them in a buffer}}
      %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %ti) -> (i32) {
        gpu.barrier
        %s = arith.addi %acc, %one : i32
        scf.yield %s : i32
      }
      memref.store %r, %out[%t] : memref<4xi32>
      gpu.return
    }
  }
}

// -----

// lib/Conversion/GPUToCPU/UniformBranches.cpp (foldUniformBranches): a
// branch that every thread takes alike is no divergence: its condition,
// computed from the thread id for each of the block's threads, is the same
// in all (t < 4 or t >= 4), and the branch taken runs in the scf.if's
// place, its barrier splitting the threads' loop as any other does (hunt
// 30: an odds of 2 elements in shuffles left them under such a branch,
// and the cpu target refused a kernel the proof and the PTX accepted).
// CHECK-LABEL: func.func private @uniform.block(
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: memref.store
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: arith.subi %c7
// CHECK: memref.load
// CHECK-NOT: scf.if
// CHECK: return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @uniform(%buf: memref<8xi32>) workgroup(%sm : memref<8xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %t = gpu.thread_id x
      %x = memref.load %buf[%t] : memref<8xi32>
      memref.store %x, %sm[%t] : memref<8xi32, #gpu.address_space<workgroup>>
      %low = arith.cmpi ult, %t, %c4 : index
      %high = arith.cmpi uge, %t, %c4 : index
      %all = arith.ori %low, %high : i1
      %r = scf.if %all -> (index) {
        gpu.barrier
        %s = arith.subi %c7, %t : index
        scf.yield %s : index
      } else {
        scf.yield %t : index
      }
      %y = memref.load %sm[%r] : memref<8xi32, #gpu.address_space<workgroup>>
      memref.store %y, %buf[%t] : memref<8xi32>
      gpu.return
    }
  }
}

// -----

// UniformBranches.cpp: a condition of integers wider than 64 bits is not
// computed (obs keeps evaluated values in 64 bits): (t + 1) * (2^64 - 2^127) is never 0 as an
// i128, but its low 64 bits are, and the branch taken in its place was
// the wrong one (the review after hunt 30). It stays a branch, refused.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wide(%buf: memref<2xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
      %t = gpu.thread_id x
      %x = arith.index_cast %t : index to i128
      %one = arith.constant 1 : i128
      %big = arith.constant -170141183460469231713240559642174554112 : i128
      %zero = arith.constant 0 : i128
      %a = arith.addi %x, %one : i128
      %c = arith.muli %a, %big : i128
      %never = arith.cmpi eq, %c, %zero : i128
      // expected-error @+1 {{'scf.if' op holds a barrier or a shuffle that some threads could skip}}
      scf.if %never {
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// A value a thread computed before a barrier and uses after it (what a GPU
// thread keeps in a register: an array in registers) is kept in that
// thread's slot of a per-thread array: stored by the first thread loop,
// loaded by the second, each at its own thread (in reverse order, 7 - k
// in both).
// CHECK-LABEL: func.func private @kept.block(
// CHECK: %[[KEPT:.*]] = memref.alloca() : memref<8xi32>
// CHECK: scf.for %[[T:.*]] =
// CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[T]]]
// CHECK: memref.store %[[X]], %[[KEPT]][%[[T]]]
// CHECK: scf.for %[[U:.*]] =
// CHECK: %[[Y:.*]] = memref.load %[[KEPT]][%[[U]]]
// CHECK: memref.store %[[Y]], %{{.*}}[%[[U]]]
// REVERSE-LABEL: func.func private @kept.block(
// REVERSE: %[[KEPT:.*]] = memref.alloca() : memref<8xi32>
// REVERSE: %[[T:.*]] = arith.subi %c7{{.*}}, %{{.*}} : index
// REVERSE: memref.store %{{.*}}, %[[KEPT]][%[[T]]]
// REVERSE: %[[U:.*]] = arith.subi %c7{{.*}}, %{{.*}} : index
// REVERSE: memref.load %[[KEPT]][%[[U]]]
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @kept(%buf: memref<8xi32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %t = gpu.thread_id x
      %x = memref.load %buf[%t] : memref<8xi32>
      gpu.barrier
      memref.store %x, %buf[%t] : memref<8xi32>
      gpu.return
    }
  }
}

// -----

// Two gpu.modules may each hold a kernel @k, and the host may already use
// the names this pass gives its functions and shuffle tables: each is
// renamed, and each launch calls its own kernel.
// CHECK-LABEL: func.func @two_kernels_named_k(
// CHECK: call @[[FIRST:k\.block[_0-9]*]].grid(
// CHECK: call @[[SECOND:k\.block[_0-9]*]].grid(
// CHECK: func.func private @[[FIRST]].grid(
// CHECK: func.call @[[FIRST]](
// CHECK: func.func private @[[FIRST]](
// CHECK: arith.constant 111
// CHECK: func.func private @[[SECOND]].grid(
// CHECK: func.call @[[SECOND]](
// CHECK: func.func private @[[SECOND]](
// CHECK: arith.constant 222
// SHUFFLE: memref.global "private" constant @[[TABLE:obs_thread_order_4_[0-9]+]] : memref<4xi32> = dense<[
// SHUFFLE: memref.global "private" constant @obs_thread_order_4 : memref<4xi32> = dense<9>
// SHUFFLE-LABEL: func.func @two_kernels_named_k(
// SHUFFLE: memref.get_global @[[TABLE]]
// SHUFFLE: memref.get_global @[[TABLE]]
module attributes {gpu.container_module} {
  memref.global "private" constant @obs_thread_order_4 : memref<4xi32> = dense<[9, 9, 9, 9]>
  func.func @two_kernels_named_k(%buf: memref<4xi32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @first::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%buf : memref<4xi32>)
    gpu.launch_func @second::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%buf : memref<4xi32>)
    return
  }
  gpu.module @first {
    gpu.func @k(%buf: memref<4xi32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %t = gpu.thread_id x
      %v = arith.constant 111 : i32
      memref.store %v, %buf[%t] : memref<4xi32>
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @k(%buf: memref<4xi32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %t = gpu.thread_id x
      %v = arith.constant 222 : i32
      memref.store %v, %buf[%t] : memref<4xi32>
      gpu.return
    }
  }
}

// -----

// Without known_grid_size the kernel cannot ask for grid_dim, and a launch
// may count its blocks at run time.
// CHECK-LABEL: func.func @blocks_counted_at_run_time(
// CHECK-SAME: %[[BUF:[^:]*]]: memref<4xi32>, %[[N:[^:]*]]: index
// CHECK: call @k.block.grid(%[[N]], %[[BUF]])
// CHECK-LABEL: func.func private @k.block.grid(
// CHECK-SAME: %[[GRID:[^:]*]]: index
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %[[GRID]] step
// CHECK:   func.call @k.block(%{{.*}}, %[[B]])
module attributes {gpu.container_module} {
  func.func @blocks_counted_at_run_time(%buf: memref<4xi32>, %blocks: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%blocks, %c1, %c1) threads in (%c1, %c1, %c1) args(%buf : memref<4xi32>)
    return
  }
  gpu.module @m {
    gpu.func @k(%buf: memref<4xi32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %b = gpu.block_id x
      %v = arith.constant 7 : i32
      memref.store %v, %buf[%b] : memref<4xi32>
      gpu.return
    }
  }
}
