// A kernel launched in place: the output memref is the input (DESIGN
// section 7). Each thread reads its element of the block's chunk before
// the block barrier and writes the reversed chunk after it, so no thread
// writes a place before every thread has read it, and no block touches
// another's chunk: the launch proof (obs-verify-launches) accepts it.
obs.kernel @increv(%input: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %one = arith.constant 1 : i32
  %incremented = obs.map %input : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %stored = obs.sync %incremented : !obs.arr<64 x i32>
  %result = obs.rev %stored : !obs.arr<64 x i32>
  obs.return %result : !obs.arr<64 x i32>
}

obs.kernel @copy(%input: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  obs.return %input : !obs.arr<64 x i32>
}

// out = each 64-element chunk of in, incremented and reversed, in place in
// out.
func.func @increv_in_place(%in: memref<256xi32>, %out: memref<256xi32>) {
  obs.launch @copy grid(4) ins(%in : memref<256xi32>) outs(%out : memref<256xi32>)
  obs.launch @increv grid(4) ins(%out : memref<256xi32>) outs(%out : memref<256xi32>)
  return
}
