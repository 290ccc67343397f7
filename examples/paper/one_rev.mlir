// Seed 001, section 4.3:
//
//   one_rev = one rev ->- sync :: Arr IntE -> W (Arr IntE)
//
//   > executeT 8 one_rev [1..8]
//   [1,2,3,4,8,7,6,5]

obs.kernel @one_rev(%input: !obs.arr<8 x i32>) -> !obs.arr<8 x i32>
    attributes {threads = 8} {
  %0 = obs.one %input : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%half: !obs.arr<4 x i32>):
    %reversed = obs.rev %half : !obs.arr<4 x i32>
    obs.yield %reversed : !obs.arr<4 x i32>
  }
  %result = obs.sync %0 : !obs.arr<8 x i32>
  obs.return %result : !obs.arr<8 x i32>
}
