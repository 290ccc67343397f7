// docs/Tutorial.md, step 4: a refinement written by hand that is wrong.
// Reversing 64 elements makes thread 63 read what thread 0, in the other
// warp, wrote; a warp barrier does not order them.

obs.kernel @reverse(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %s = obs.sync warp %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}
