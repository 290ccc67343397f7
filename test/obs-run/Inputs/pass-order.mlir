// Kernels whose meaning a pass out of obs-optimize's order changed
// (pass-order.test).

// A reversal of each half, whose sync is a sub-program's.
obs.kernel @halves(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %r = obs.rev %h : !obs.arr<4 x i32>
    %s = obs.sync %r : !obs.arr<4 x i32>
    obs.yield %s : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<8 x i32>
}

// A float sum without a network or threads: the serial network over one
// thread per element.
obs.kernel @sum(%a: !obs.arr<64 x f32>) -> !obs.arr<1 x f32> {
  %sum = obs.reduce %a : !obs.arr<64 x f32> -> f32 {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    obs.yield %s : f32
  }
  %r = obs.generate : !obs.arr<1 x f32> {
  ^bb0(%i: index):
    obs.yield %sum : f32
  }
  obs.return %r : !obs.arr<1 x f32>
}

// A float scan without a network in each half: runs of one element, so
// Kogge-Stone's order.
obs.kernel @half_scans(%a: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> {
  %0 = obs.two %a : !obs.arr<8 x f32> -> !obs.arr<8 x f32> {
  ^bb0(%h: !obs.arr<4 x f32>):
    %s = obs.sync %h : !obs.arr<4 x f32>
    %c = obs.scan %s : !obs.arr<4 x f32> {
    ^bb0(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      obs.yield %z : f32
    }
    obs.yield %c : !obs.arr<4 x f32>
  }
  obs.return %0 : !obs.arr<8 x f32>
}
