// A repeat that starts from a padded flat array (obs-fuzz seed 20261204
// #3643, reduced): see regressions.test.

obs.kernel @fuzz(%input: !obs.arr<365 x i32>) -> !obs.arr<365 x i32> {
  %v0 = obs.sync block blocked<16> %input : !obs.arr<365 x i32>
  %v1 = obs.repeat 1 %v0 : !obs.arr<365 x i32> {
  ^bb0(%p2: !obs.arr<365 x i32>):
    %v3 = obs.sync %p2 : !obs.arr<365 x i32>
    obs.yield %v3 : !obs.arr<365 x i32>
  }
  obs.return %v1 : !obs.arr<365 x i32>
}
