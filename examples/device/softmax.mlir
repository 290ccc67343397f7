// The softmax of any number of f32, the number known only at run time:
//
//   out[i] = exp(x[i] - max x) / sum_j exp(x[j] - max x)
//
//   obs-run examples/device/softmax.mlir --entry=softmax --target=cpu \
//       --input=numbers.txt
//   obs-run examples/device/softmax.mlir --entry=softmax --emit=plan \
//       --input=numbers.txt
//
// Two reductions and two maps. Each map takes a reduction's result, a
// memref<1xf32> that stays on the device, in `scalars(...)`: every element
// reads that one value (a block reads it whole, as an `obs.global`
// argument). Subtracting the maximum keeps every exp at most 1, so no
// input overflows it; the largest element's exp is exactly 1, so the sum
// is at least 1.

func.func @softmax(%x: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  // max x (-inf, the identity, for no element).
  %max = memref.alloc() : memref<1xf32>
  obs.device_reduce ins(%x : memref<?xf32>) outs(%max : memref<1xf32>)
      identity [0xFF800000 : f32] {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    obs.yield %m : f32
  }
  // exp(x[i] - max x), each at most 1.
  %exps = memref.alloc(%n) : memref<?xf32>
  obs.device_map ins(%x : memref<?xf32>) scalars(%max : memref<1xf32>)
      outs(%exps : memref<?xf32>) {
  ^bb0(%v: f32, %m: f32):
    %shifted = arith.subf %v, %m : f32
    %e = math.exp %shifted : f32
    obs.yield %e : f32
  }
  // Their sum.
  %sum = memref.alloc() : memref<1xf32>
  obs.device_reduce ins(%exps : memref<?xf32>) outs(%sum : memref<1xf32>)
      identity [-0.0 : f32] {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    obs.yield %s : f32
  }
  // Each exp over the sum.
  obs.device_map ins(%exps : memref<?xf32>) scalars(%sum : memref<1xf32>)
      outs(%out : memref<?xf32>) {
  ^bb0(%e: f32, %s: f32):
    %q = arith.divf %e, %s : f32
    obs.yield %q : f32
  }
  memref.dealloc %sum : memref<1xf32>
  memref.dealloc %exps : memref<?xf32>
  memref.dealloc %max : memref<1xf32>
  return
}
