// A launch whose layouts read each block's chunk backwards and write the
// blocks in reverse order: out[i] = in[N-1-i] + 1 overall.
obs.kernel @incr(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %one = arith.constant 1 : i32
  %r = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %s = obs.sync %r : !obs.arr<4 x i32>
  obs.return %s : !obs.arr<4 x i32>
}

func.func @reverse_incr(%in: memref<12xi32>, %out: memref<12xi32>) {
  obs.launch @incr grid(3) ins(%in : memref<12xi32>) outs(%out : memref<12xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + 3 - i)>, affine_map<(b, i) -> ((2 - b) * 4 + i)>]
  return
}
