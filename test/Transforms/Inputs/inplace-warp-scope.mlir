// The kernel of inplace-not-tried.mlir with a warp barrier: the accesses of
// two stages may then meet, so a race is not known to be a stage's own, and
// rev is tried in place (and undone) as before; the first sync still has
// nothing to overwrite. Three simulations: the kernel as it was, the trial
// of rev and the map, and the map alone.
obs.kernel @warp_scope(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.sync warp %a : !obs.arr<8 x i32>
  %1 = obs.rev %0 : !obs.arr<8 x i32>
  %2 = obs.sync %1 : !obs.arr<8 x i32>
  %3 = obs.map %2 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %y = arith.addi %x, %one : i32
    obs.yield %y : i32
  }
  %4 = obs.sync %3 : !obs.arr<8 x i32>
  %5 = obs.rev %4 : !obs.arr<8 x i32>
  obs.return %5 : !obs.arr<8 x i32>
}
