// Combines, orders and identities whose laws hold on small numbers and
// fail elsewhere (test/obs-run/combine-samples.test).

// A saturating sum, min(x + y, 1000): associative on small numbers, and
// not on 501, 501 and -1000 (2 from the left, 0 from the right).
obs.kernel @saturating_scan(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %r = obs.scan %a : !obs.arr<64 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    %c = arith.constant 1000 : i32
    %m = arith.minsi %s, %c : i32
    obs.yield %m : i32
  }
  obs.return %r : !obs.arr<64 x i32>
}

// An order by a difference, which wraps: 2000000000 - (-2000000000) is
// negative in i32, so the three of 2000000000, -2000000000 and 0 are a
// cycle.
obs.kernel @difference_order(%a: !obs.arr<3 x i32>) -> !obs.arr<3 x i32> {
  %r = obs.sort %a : !obs.arr<3 x i32> {
  ^bb0(%x: i32, %y: i32):
    %d = arith.subi %x, %y : i32
    %c0 = arith.constant 0 : i32
    %c = arith.cmpi slt, %d, %c0 : i32
    obs.yield %c : i1
  }
  obs.return %r : !obs.arr<3 x i32>
}

// A running maximum whose identity is -4, not the least i32.
func.func @running_max(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_scan inclusive ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) identity [-4 : i32] {
  ^bb0(%x: i32, %y: i32):
    %m = arith.maxsi %x, %y : i32
    obs.yield %m : i32
  }
  return
}
