obs.kernel @odd(%a: !obs.arr<7 x i32>) -> !obs.arr<7 x i32> {
  %0 = obs.riffle %a : !obs.arr<7 x i32>
  obs.return %0 : !obs.arr<7 x i32>
}
