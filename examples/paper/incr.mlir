// Seed 002, section 2.2:
//
//   incr :: Arr IntE :-> Arr IntE
//   incr = pure $ fmap (+1)
//
//   *Obsidian> execute incr [0..9]
//   [1,2,3,4,5,6,7,8,9,10]
//
// The returned array is written to global memory by the kernel's last (and
// only) stage: no shared memory, one thread per element.

obs.kernel @incr(%input: !obs.arr<10 x i32>) -> !obs.arr<10 x i32> {
  %one = arith.constant 1 : i32
  %result = obs.map %input : !obs.arr<10 x i32> -> !obs.arr<10 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  obs.return %result : !obs.arr<10 x i32>
}
