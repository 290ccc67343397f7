// Seed 002, section 2.2, the version with an explicit sync:
//
//   increv :: Arr IntE :-> Arr IntE
//   increv = pure (fmap (+1)) ->- sync ->- pure rev
//
//   *Obsidian> execute increv [0..9]
//   [10,9,8,7,6,5,4,3,2,1]

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
