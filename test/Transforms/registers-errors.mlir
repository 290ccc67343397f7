// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-verify-sync
// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-optimize

// Tests of written `registers` storage that is wrong: the kernel is
// rejected at the sync, on its own (obs-verify-sync) and after every
// refinement (obs-optimize keeps a written storage; it never trades it for
// shared memory). registers-kept.mlir has the safe ones.

// strided<256> over 512 elements: thread t computes t and t + 256, and the
// swap reads element i xor 1, thread t xor 1's.
obs.kernel @strided_swap(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> attributes {threads = 256} {
  // expected-error @+1 {{'obs.sync' op registers are unsafe: thread 0 (warp 0) reads element 1 of this array, which thread 1 (warp 0) computes; a thread's registers hold only the elements it computed}}
  %0 = obs.sync registers strided<256> %a : !obs.arr<512 x i32>
  %1 = obs.generate : !obs.arr<512 x i32> {
  ^bb0(%i: index):
    %one = arith.constant 1 : index
    %j = arith.xori %i, %one : index
    %x = obs.index %0[%j] : !obs.arr<512 x i32>
    obs.yield %x : i32
  }
  // expected-note @+1 {{read here}}
  %2 = obs.sync strided<256> %1 : !obs.arr<512 x i32>
  obs.return %2 : !obs.arr<512 x i32>
}

// -----

// The array is computed under blocked<2>, but read by a stage dealt out
// one element per thread: thread 1 computes element 1 of the next stage,
// which reads element 0, computed by thread 0.
obs.kernel @assignments_differ(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> attributes {threads = 512} {
  // expected-error @+1 {{'obs.sync' op registers are unsafe: thread 1 (warp 0) reads element 0 of this array, which thread 0 (warp 0) computes}}
  %0 = obs.sync registers blocked<2> %a : !obs.arr<512 x i32>
  %1 = obs.generate : !obs.arr<512 x i32> {
  ^bb0(%i: index):
    %one = arith.constant 1 : index
    %j = arith.xori %i, %one : index
    %x = obs.index %0[%j] : !obs.arr<512 x i32>
    obs.yield %x : i32
  }
  // expected-note @+1 {{read here}}
  %2 = obs.sync strided<512> %1 : !obs.arr<512 x i32>
  obs.return %2 : !obs.arr<512 x i32>
}

// -----

// An index read from data may name any element, of any thread.
obs.kernel @gather(%a: !obs.arr<64 x i32>, %p: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  // expected-error @+1 {{'obs.sync' op registers are unsafe: thread 0 (warp 0) reads an element (its index depends on data) of this array, and which thread computes it depends on data}}
  %0 = obs.sync registers %a : !obs.arr<64 x i32>
  %1 = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %q = obs.index %p[%i] : !obs.arr<64 x i32>
    %j = arith.index_cast %q : i32 to index
    %x = obs.index %0[%j] : !obs.arr<64 x i32>
    obs.yield %x : i32
  }
  // expected-note @+1 {{read here}}
  %2 = obs.sync %1 : !obs.arr<64 x i32>
  obs.return %2 : !obs.arr<64 x i32>
}

// -----

// Registers hold a thread's unrolled rounds: 1,024 elements on 32 threads
// are 32 rounds each, more than 16 even where the work assignment is
// written.
obs.kernel @too_many_rounds(%a: !obs.arr<1024 x i32>) -> !obs.arr<1024 x i32> attributes {threads = 32} {
  // expected-error @+1 {{'obs.sync' op cannot keep its array in registers: each thread computes 32 rounds of it, and registers hold at most 16}}
  %0 = obs.sync registers strided<32> %a : !obs.arr<1024 x i32>
  %1 = obs.sync strided<32> %0 : !obs.arr<1024 x i32>
  obs.return %1 : !obs.arr<1024 x i32>
}

// -----

obs.kernel @compact(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  // expected-error @+1 {{'obs.sync' op cannot keep its array in registers: compact work assignments deal out positions in a list, which registers cannot be indexed by}}
  %0 = obs.sync registers compact<64> %a : !obs.arr<64 x i32>
  %1 = obs.sync %0 : !obs.arr<64 x i32>
  obs.return %1 : !obs.arr<64 x i32>
}

// -----

obs.kernel @only_returned(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  // expected-error @+1 {{'obs.sync' op cannot keep its array in registers: its array is only returned, so its stage writes the kernel's results in global memory}}
  %0 = obs.sync registers %a : !obs.arr<64 x i32>
  obs.return %0 : !obs.arr<64 x i32>
}

// -----

obs.kernel @nested(%a: !obs.arr<32 x !obs.arr<2 x i32>>) -> !obs.arr<32 x !obs.arr<2 x i32>> attributes {threads = 32} {
  // expected-error @+1 {{'obs.sync' op cannot keep its array in registers: its elements are arrays, and registers hold scalars and tuples of them}}
  %0 = obs.sync registers %a : !obs.arr<32 x !obs.arr<2 x i32>>
  %1 = obs.sync %0 : !obs.arr<32 x !obs.arr<2 x i32>>
  obs.return %1 : !obs.arr<32 x !obs.arr<2 x i32>>
}

// -----

obs.kernel @yielded(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 64} {
  %0 = obs.repeat 2 %a : !obs.arr<64 x i32> {
  ^bb0(%x: !obs.arr<64 x i32>):
    // expected-error @+1 {{'obs.sync' op cannot keep its array in registers: the repeat body yields its array, which the next iteration reads from memory}}
    %s = obs.sync registers %x : !obs.arr<64 x i32>
    obs.yield %s : !obs.arr<64 x i32>
  }
  %1 = obs.sync %0 : !obs.arr<64 x i32>
  obs.return %1 : !obs.arr<64 x i32>
}
