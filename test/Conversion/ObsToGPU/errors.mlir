// RUN: obs-opt %s --split-input-file --convert-obs-to-gpu --verify-diagnostics

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
