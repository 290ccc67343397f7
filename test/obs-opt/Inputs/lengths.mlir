// Lengths for hostile.test.
obs.kernel @odd(%a: !obs.arr<7 x i32>) -> !obs.arr<7 x i32> {
  %r = obs.riffle %a : !obs.arr<7 x i32>
  obs.return %r : !obs.arr<7 x i32>
}

// -----

obs.kernel @huge(%a: !obs.arr<1099511627776 x i32>) {
  obs.return
}

// -----

obs.kernel @product(%a: !obs.arr<1048576 x !obs.arr<1048576 x i32>>) {
  obs.return
}

// -----

obs.kernel @wide(%a: !obs.arr<18446744073709551616 x i32>) {
  obs.return
}

// -----

obs.kernel @negative(%a: !obs.arr<-4 x i32>) {
  obs.return
}

// -----

obs.kernel @unsized(%a: !obs.arr<x i32>) {
  obs.return
}

// -----

obs.kernel @no_x(%a: !obs.arr<4 i32>) {
  obs.return
}
