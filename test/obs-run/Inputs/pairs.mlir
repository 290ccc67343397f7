// Thread t loads elements 2t and 2t + 1 (blocked<2>): contiguous, so the
// PTX loads them as one vector where the pointer's alignment is known.
obs.kernel @blocked(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 32} {
  %s = obs.sync plan(blocked<2>) %a : !obs.arr<64 x i32>
  %r = obs.rev %s : !obs.arr<64 x i32>
  obs.return %r : !obs.arr<64 x i32>
}
