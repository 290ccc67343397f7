// RUN: obs-opt %s --split-input-file --convert-obs-to-gpu --verify-diagnostics
// RUN: not obs-opt %s --split-input-file --convert-obs-to-gpu=max-shared-bytes=128 2>&1 | FileCheck %s --check-prefix=LIMIT

// A sub-program holding syncs must be flattened before it is lowered.
obs.kernel @not_flat(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.two' op holds syncs: run --obs-flatten first}}
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %s = obs.sync %h : !obs.arr<4 x i32>
    obs.yield %s : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// One thread per element of 2048 elements is more than a block has.
// expected-error @+1 {{'obs.kernel' op needs 2048 threads, more than a block's 1024: set `threads` and give its syncs work assignments}}
obs.kernel @too_big(%a: !obs.arr<2048 x i32>) -> !obs.arr<2048 x i32> {
  %0 = obs.rev %a : !obs.arr<2048 x i32>
  obs.return %0 : !obs.arr<2048 x i32>
}

// -----

obs.kernel @k(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  obs.return %a : !obs.arr<8 x i32>
}
func.func @bad_launch(%in: memref<16xi32>, %out: memref<32xi32>) {
  // expected-error @+1 {{'obs.launch' op passes ins (memref<16xi32>), but @k over 4 blocks needs (memref<32xi32>)}}
  obs.launch @k grid(4) ins(%in : memref<16xi32>) outs(%out : memref<32xi32>)
  return
}

// -----

func.func @not_a_kernel(%in: memref<8xi32>) {
  // expected-error @+1 {{'obs.launch' op launches @nothing, which is not an obs.kernel}}
  obs.launch @nothing grid(1) ins(%in : memref<8xi32>)
  return
}

// -----

// A launch inside a nested module names that module's kernel, which a
// pass on the outer module does not convert; it once dereferenced a null
// kernel here.
module {
  obs.kernel @outer(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
    obs.return %a : !obs.arr<8 x i32>
  }
  module @inner {
    obs.kernel @double(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
      obs.return %a : !obs.arr<8 x i32>
    }
    func.func @main(%in: memref<32xi32>, %out: memref<32xi32>) {
      // expected-error @+1 {{'obs.launch' op launches @double, which is not an obs.kernel of the module being converted (a nested module's kernels and launches are converted on their own)}}
      obs.launch @double grid(4) ins(%in : memref<32xi32>) outs(%out : memref<32xi32>)
      return
    }
  }
}

// -----

// Two 32 KiB buffers, each a block's whole own: more shared memory than a
// block may use, whatever ran before (obs-plan-shared would say the same,
// but it need not have run).
// expected-error @+1 {{'obs.kernel' op @big needs 65536 bytes of shared memory, more than the 49152 a block may use}}
obs.kernel @big(%a: !obs.arr<8192 x i32>) -> !obs.arr<8192 x i32> attributes {threads = 256} {
  %s = obs.sync %a : !obs.arr<8192 x i32>
  %r = obs.rev %s : !obs.arr<8192 x i32>
  %t = obs.sync %r : !obs.arr<8192 x i32>
  %u = obs.rev %t : !obs.arr<8192 x i32>
  obs.return %u : !obs.arr<8192 x i32>
}

// -----

// The limit is an option: 256 bytes are over 128.
// LIMIT: error: 'obs.kernel' op @small_limit needs 256 bytes of shared memory, more than the 128 a block may use
obs.kernel @small_limit(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %s = obs.sync %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}

// -----

// A shared-memory plan that gives a buffer no place (a pass changed the
// kernel after obs-plan-shared) is an error, never an offset of 0.
obs.kernel @stale_plan(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32>
    attributes {obs.shared_bytes = 256 : i64} {
  %s = obs.sync %a {obs.shared_offsets = array<i64: 0>} : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  // expected-error @+1 {{'obs.sync' op has no place for its buffer in the shared-memory plan (obs.shared_offsets within the kernel's 256-byte arena): the plan is stale; run obs-plan-shared again}}
  %t = obs.sync %r : !obs.arr<64 x i32>
  %u = obs.rev %t : !obs.arr<64 x i32>
  obs.return %u : !obs.arr<64 x i32>
}

// -----

// Nor are offsets past a buffer's components ignored: a plan made for a
// buffer of three components is made for another buffer than this one.
obs.kernel @extra_offsets(%a: !obs.arr<64 x tuple<i32, i64>>) -> !obs.arr<64 x tuple<i32, i64>>
    attributes {obs.shared_bytes = 1024 : i64} {
  // expected-error @+1 {{'obs.sync' op holds 3 offsets in obs.shared_offsets, but its buffer has 2 components: the plan is stale; run obs-plan-shared again}}
  %s = obs.sync %a {obs.shared_offsets = array<i64: 0, 256, 512>} : !obs.arr<64 x tuple<i32, i64>>
  %r = obs.rev %s : !obs.arr<64 x tuple<i32, i64>>
  obs.return %r : !obs.arr<64 x tuple<i32, i64>>
}
