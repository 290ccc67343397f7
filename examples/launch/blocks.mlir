// A kernel launched over many blocks: block b reads and writes the b-th
// chunk of each memref. Seed 002's increv on every
// 10-element chunk of 640 numbers.

obs.kernel @increv(%input: !obs.arr<10 x i32>) -> !obs.arr<10 x i32> {
  %one = arith.constant 1 : i32
  %incremented = obs.map %input : !obs.arr<10 x i32> -> !obs.arr<10 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %stored = obs.sync %incremented : !obs.arr<10 x i32>
  %result = obs.rev %stored : !obs.arr<10 x i32>
  obs.return %result : !obs.arr<10 x i32>
}

func.func @increv_blocks(%input: memref<640xi32>, %output: memref<640xi32>) {
  obs.launch @increv grid(64) ins(%input : memref<640xi32>) outs(%output : memref<640xi32>)
  return
}
