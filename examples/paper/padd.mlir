// Seed 001, sections 2.1 and 3: pairwise addition, and the version with one
// thread per pair derived from it.
//
//   pAdd :: Arr IntE -> W (Arr IntE)
//   pAdd = pair ->- fun (\(x,y) -> (x,x+y)) ->- unpair
//
//   > executeT 8 (pAdd ->- sync) [1,2,3,4,5,6,7,8]
//   [1,3,3,7,5,11,7,15]
//   > executeT 8 (pAdd ->- sync) [1,1,1,0,0,1,0,0]
//   [1,2,1,1,0,1,0,0]

obs.kernel @padd(%input: !obs.arr<8 x i32>) -> !obs.arr<8 x i32>
    attributes {threads = 8} {
  %pairs = obs.pair %input : !obs.arr<8 x i32>
  %sums = obs.map %pairs : !obs.arr<4 x tuple<i32, i32>> -> !obs.arr<4 x tuple<i32, i32>> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %x, %s : i32, i32
  }
  %flat = obs.unpair %sums : !obs.arr<4 x tuple<i32, i32>>
  %result = obs.sync %flat : !obs.arr<8 x i32>
  obs.return %result : !obs.arr<8 x i32>
}

// pfy pAdd = unpair ->- pAdd ->- pair, which by unpair ->- pair = id is
//
//   pAdd' :: Arr (IntE,IntE) -> W (Arr (IntE,IntE))
//   pAdd' = fun (\(x,y) -> (x,x+y))
//
//   > executeT 4 (pAdd' ->- sync) [1,2,3,4,5,6,7,8]
//   [1,3,3,7,5,11,7,15]
//
// The data is passed as a flat list, as the paper does: 4 pairs.

obs.kernel @padd_pairwise(%input: !obs.arr<4 x tuple<i32, i32>>) -> !obs.arr<4 x tuple<i32, i32>>
    attributes {threads = 4} {
  %sums = obs.map %input : !obs.arr<4 x tuple<i32, i32>> -> !obs.arr<4 x tuple<i32, i32>> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %x, %s : i32, i32
  }
  %result = obs.sync %sums : !obs.arr<4 x tuple<i32, i32>>
  obs.return %result : !obs.arr<4 x tuple<i32, i32>>
}
