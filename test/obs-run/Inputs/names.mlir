// Kernels whose names are not PTX identifiers (test/obs-run/ptx.test).
obs.kernel @"padd-2"(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %s = obs.sync %a : !obs.arr<8 x i32>
  %r = obs.rev %s : !obs.arr<8 x i32>
  obs.return %r : !obs.arr<8 x i32>
}
obs.kernel @"my.padd"(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %r = obs.rev %a : !obs.arr<8 x i32>
  obs.return %r : !obs.arr<8 x i32>
}
obs.kernel @"9lives"(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %r = obs.rev %a : !obs.arr<8 x i32>
  obs.return %r : !obs.arr<8 x i32>
}
