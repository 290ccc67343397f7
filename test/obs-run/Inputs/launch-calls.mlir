// Launches through helper functions, for test/obs-run/launch-calls.test:
// @run launches from its argument into the global @scratch.

obs.kernel @incr(%a: !obs.arr<16 x i32>) -> !obs.arr<16 x i32> {
  %m = obs.map %a : !obs.arr<16 x i32> -> !obs.arr<16 x i32> {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<16 x i32>
}

memref.global "private" @scratch : memref<64xi32> = uninitialized

func.func private @run(%in: memref<64xi32>) {
  %scratch = memref.get_global @scratch : memref<64xi32>
  obs.launch @incr grid(4) ins(%in : memref<64xi32>) outs(%scratch : memref<64xi32>)
  return
}

// Called directly, then @scratch copied out.
func.func @direct(%in: memref<64xi32>, %out: memref<64xi32>) {
  func.call @run(%in) : (memref<64xi32>) -> ()
  %scratch = memref.get_global @scratch : memref<64xi32>
  memref.copy %scratch, %out : memref<64xi32> to memref<64xi32>
  return
}

// Called through a func.constant.
func.func @indirect(%in: memref<64xi32>, %out: memref<64xi32>) {
  %run = func.constant @run : (memref<64xi32>) -> ()
  func.call_indirect %run(%in) : (memref<64xi32>) -> ()
  %scratch = memref.get_global @scratch : memref<64xi32>
  memref.copy %scratch, %out : memref<64xi32> to memref<64xi32>
  return
}

// Given @scratch itself: the launch reads and writes one memory, which
// @run's proof took to be two.
func.func @aliased(%in: memref<64xi32>, %out: memref<64xi32>) {
  %scratch = memref.get_global @scratch : memref<64xi32>
  memref.copy %in, %scratch : memref<64xi32> to memref<64xi32>
  func.call @run(%scratch) : (memref<64xi32>) -> ()
  memref.copy %scratch, %out : memref<64xi32> to memref<64xi32>
  return
}
