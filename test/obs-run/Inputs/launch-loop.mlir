// Two launches per iteration of a host loop whose trip count is data
// (in[0]): a kernel that adds one to each of 4 numbers, on one block, from
// the output to a scratch array and back.
obs.kernel @increment(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %r = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

func.func @many(%in: memref<4xi32>, %out: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n32 = memref.load %in[%c0] : memref<4xi32>
  %n = arith.index_cast %n32 : i32 to index
  memref.copy %in, %out : memref<4xi32> to memref<4xi32>
  %scratch = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %n step %c1 {
    obs.launch @increment grid(1) ins(%out : memref<4xi32>) outs(%scratch : memref<4xi32>)
    obs.launch @increment grid(1) ins(%scratch : memref<4xi32>) outs(%out : memref<4xi32>)
  }
  memref.dealloc %scratch : memref<4xi32>
  return
}
