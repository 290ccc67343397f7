// Device folds whose identity holds on the right only
// (test/obs-run/device-identity.test).

// The running minimum of (key, value) pairs, ties keeping the earlier
// pair: (largest, 0) is no identity of (largest, v) on the left.
func.func @running_min(%k: memref<?xi32>, %v: memref<?xi32>, %ok: memref<?xi32>, %ov: memref<?xi32>) {
  obs.device_scan inclusive ins(%k, %v : memref<?xi32>, memref<?xi32>) outs(%ok, %ov : memref<?xi32>, memref<?xi32>) identity [2147483647 : i32, 0 : i32] {
  ^bb0(%k1: i32, %v1: i32, %k2: i32, %v2: i32):
    %left = arith.cmpi sle, %k1, %k2 : i32
    %kk = arith.select %left, %k1, %k2 : i32
    %vv = arith.select %left, %v1, %v2 : i32
    obs.yield %kk, %vv : i32, i32
  }
  return
}

// The same, exclusive: out[0] is the identity.
func.func @running_min_before(%k: memref<?xi32>, %v: memref<?xi32>, %ok: memref<?xi32>, %ov: memref<?xi32>) {
  obs.device_scan exclusive ins(%k, %v : memref<?xi32>, memref<?xi32>) outs(%ok, %ov : memref<?xi32>, memref<?xi32>) identity [2147483647 : i32, 0 : i32] {
  ^bb0(%k1: i32, %v1: i32, %k2: i32, %v2: i32):
    %left = arith.cmpi sle, %k1, %k2 : i32
    %kk = arith.select %left, %k1, %k2 : i32
    %vv = arith.select %left, %v1, %v2 : i32
    obs.yield %kk, %vv : i32, i32
  }
  return
}

// A float sum with 0.0 for its identity: 0.0 + -0.0 is 0.0.
func.func @positive_zero_sum(%in: memref<?xf32>, %out: memref<?xf32>) {
  obs.device_scan inclusive ins(%in : memref<?xf32>) outs(%out : memref<?xf32>) identity [0.0 : f32] {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    obs.yield %s : f32
  }
  return
}
