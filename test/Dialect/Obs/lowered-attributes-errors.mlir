// RUN: obs-opt %s -split-input-file -verify-diagnostics

// The kernel lowering's records on the code it emits (which sync a barrier
// ends, which compare checks an index, which read is in registers or
// shuffles) are facts the proof reads about obs's own code: element code
// written with one would be lowered with it, and the proof would take the
// user's word (found by an adversarial run: a segmentation fault in the
// simulation, and a made-up 'obs.index' error). The verifier refuses them
// in any obs op's code.

obs.kernel @sync_index_in_element_code(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %m = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{'obs.sync_index' is the kernel lowering's record on the code it emits, not an attribute of code in 'obs.map'}}
    %y = arith.addi %x, %c1 {obs.sync_index = 1000000 : i64} : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<8 x i32>
}

// -----

obs.kernel @register_read_in_element_code(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %m = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{'obs.register_read' is the kernel lowering's record on the code it emits, not an attribute of code in 'obs.map'}}
    %less = arith.cmpi slt, %x, %c1 {obs.register_read = 1000000 : i64} : i32
    %y = arith.select %less, %x, %c1 : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<8 x i32>
}

// -----

obs.kernel @index_bounds_in_element_code() -> !obs.arr<8 x i32> {
  %g = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %c5 = arith.constant 5 : index
    // expected-error @+1 {{'obs.index_bounds' is the kernel lowering's record on the code it emits, not an attribute of code in 'obs.generate'}}
    %ok = arith.cmpi ult, %i, %c5 {obs.index_bounds} : index
    %c0 = arith.constant 0 : i32
    %c7 = arith.constant 7 : i32
    %y = arith.select %ok, %c7, %c0 : i32
    obs.yield %y : i32
  }
  obs.return %g : !obs.arr<8 x i32>
}

// -----

func.func @data_in_a_device_region(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_map ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32):
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{'obs.data' is the kernel lowering's record on the code it emits, not an attribute of code in 'obs.device_map'}}
    %y = arith.addi %x, %c1 {obs.data} : i32
    obs.yield %y : i32
  }
  return
}
