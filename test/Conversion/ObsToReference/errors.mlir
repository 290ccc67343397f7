// RUN: obs-opt %s --obs-lower-reference --verify-diagnostics

// Tests of lib/Conversion/ObsToReference: launches it does not convert.

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
