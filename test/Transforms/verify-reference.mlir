// RUN: obs-opt %s -split-input-file --obs-verify-reference -verify-diagnostics | FileCheck %s

// Tests of lib/Transforms/VerifyReference.cpp: what the reference pipeline
// proves before it lowers. A safe module is left exactly as written (the
// networks are expanded and the kernel flattened on a copy only); a racy
// kernel or launch is rejected, as on the GPU targets.

// A written warp scope inside one warp, under a `two` and over a scan
// network: proved on a flattened, expanded copy; the module keeps its
// two and its scan.
// CHECK-LABEL: obs.kernel @nested
// CHECK: obs.two
// CHECK: obs.sync warp
// CHECK: obs.scan
// CHECK-NOT: obs.fan
obs.kernel @nested(%a: !obs.arr<32 x i32>) -> !obs.arr<32 x i32> {
  %t = obs.two %a : !obs.arr<32 x i32> -> !obs.arr<32 x i32> {
  ^bb0(%half: !obs.arr<16 x i32>):
    %s = obs.sync warp %half : !obs.arr<16 x i32>
    %r = obs.rev %s : !obs.arr<16 x i32>
    obs.yield %r : !obs.arr<16 x i32>
  }
  %scan = obs.scan %t network(sklansky) : !obs.arr<32 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %scan : !obs.arr<32 x i32>
}

// -----

// Every sync open: block barriers and fresh buffers are safe by
// construction, so the kernel is not simulated, even one larger than a
// GPU block.
// CHECK-LABEL: obs.kernel @open_and_large
obs.kernel @open_and_large(%a: !obs.arr<4096 x i32>) -> !obs.arr<4096 x i32> {
  %s = obs.sync %a : !obs.arr<4096 x i32>
  %r = obs.rev %s : !obs.arr<4096 x i32>
  obs.return %r : !obs.arr<4096 x i32>
}

// -----

// A written warp scope across warps, inside a `two`: rejected at the sync.
obs.kernel @racy_nested(%a: !obs.arr<128 x i32>) -> !obs.arr<128 x i32> {
  %t = obs.two %a : !obs.arr<128 x i32> -> !obs.arr<128 x i32> {
  ^bb0(%half: !obs.arr<64 x i32>):
    // expected-error @+2 {{warp scope is unsafe}}
    // expected-note @+1 {{the buffer holds the array of this op}}
    %s = obs.sync warp %half : !obs.arr<64 x i32>
    %r = obs.rev %s : !obs.arr<64 x i32>
    obs.yield %r : !obs.arr<64 x i32>
  }
  obs.return %t : !obs.arr<128 x i32>
}

// -----

// A launch whose blocks overwrite each other's input: rejected at the
// launch, though every kernel is safe.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// expected-note @+1 {{the allocation}}
func.func @shifted(%buf: memref<12xi32>) {
  // expected-error @+1 {{block 0 writes element 0 through outs 0 where block 1 reads element 0 through ins 0}}
  obs.launch @copy grid(2) ins(%buf : memref<12xi32>) outs(%buf : memref<12xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i + 4)>]
  return
}
