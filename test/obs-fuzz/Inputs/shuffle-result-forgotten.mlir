// obs-fuzz seed 424242, program 2223, reduced: see regressions.test.
obs.kernel @fuzz(%input: !obs.arr<4 x i8>) -> !obs.arr<4 x i8> attributes {threads = 1024} {
  %v1 = obs.map %input : !obs.arr<4 x i8> -> !obs.arr<4 x i32> {
  ^bb0(%v2: i8):
    %i3 = arith.extsi %v2 : i8 to i32
    obs.yield %i3 : i32
  }
  %v0 = obs.scatter %input at %v1 combine(add) initial(0 : i8) : !obs.arr<4 x i8>, !obs.arr<4 x i32> -> !obs.arr<4 x i8>
  %v4 = obs.two %v0 : !obs.arr<4 x i8> -> !obs.arr<4 x i8> {
  ^bb0(%p5: !obs.arr<2 x i8>):
    %v6 = obs.sync %p5 : !obs.arr<2 x i8>
    %v7 = obs.odds %v6 : !obs.arr<2 x i8> {
    ^bb0(%x8: i8, %x9: i8):
      %b10 = arith.cmpi slt, %x9, %x8 : i8
      %v11 = arith.select %b10, %x9, %x8 : i8
      %v12 = arith.select %b10, %x8, %x9 : i8
      obs.yield %v11, %v12 : i8, i8
    }
    obs.yield %v7 : !obs.arr<2 x i8>
  }
  %r14 = obs.reduce %v4 network(tree) : !obs.arr<4 x i8> -> i8 {
  ^bb0(%x15: i8, %x16: i8):
    %v17 = arith.addi %x15, %x16 : i8
    obs.yield %v17 : i8
  }
  %v13 = obs.map %v4 : !obs.arr<4 x i8> -> !obs.arr<4 x i8> {
  ^bb0(%x18: i8):
    %v19 = arith.addi %x18, %r14 : i8
    obs.yield %v19 : i8
  }
  %v21 = obs.generate : !obs.arr<4 x i8> {
  ^bb0(%i22: index):
    %v24 = obs.index %v13[%i22] : !obs.arr<4 x i8>
    %i23 = arith.index_cast %v24 : i8 to index
    %v25 = obs.index %v13[%i23] : !obs.arr<4 x i8>
    obs.yield %v25 : i8
  }
  obs.return %v21 : !obs.arr<4 x i8>
}
