// A reduce over key-value pairs: the smallest key and the value that goes
// with its first occurrence. The keys are the numbers, the values
// 3 * number + 1 (a device_map). The combine keeps the left pair on a
// tie, so it is not commutative: every plan must keep the order.
//
//   obs-run examples/device/reduce_key_value.mlir --entry=min_pair \
//       --target=cpu --input=numbers.txt
//
// For no numbers, the identity: the largest i32 and 0.

func.func @min_pair(%in: memref<?xi32>, %key: memref<1xi32>,
                    %value: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %values = memref.alloc(%n) : memref<?xi32>
  obs.device_map ins(%in : memref<?xi32>) outs(%values : memref<?xi32>) {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %t = arith.muli %x, %c3 : i32
    %v = arith.addi %t, %c1 : i32
    obs.yield %v : i32
  }
  obs.device_reduce ins(%in, %values : memref<?xi32>, memref<?xi32>)
      outs(%key, %value : memref<1xi32>, memref<1xi32>)
      identity [2147483647 : i32, 0 : i32] {
  ^bb0(%k1: i32, %v1: i32, %k2: i32, %v2: i32):
    %left = arith.cmpi sle, %k1, %k2 : i32
    %k = arith.select %left, %k1, %k2 : i32
    %v = arith.select %left, %v1, %v2 : i32
    obs.yield %k, %v : i32, i32
  }
  memref.dealloc %values : memref<?xi32>
  return
}
