// obs-fuzz seed 401, program 4523, reduced: a warp scope the user wrote.
obs.kernel @fuzz(%input: !obs.arr<748 x i32>) -> !obs.arr<748 x i32> {
  %v0 = obs.sync warp %input : !obs.arr<748 x i32>
  %v1 = obs.evens %v0 : !obs.arr<748 x i32> {
  ^bb0(%x2: i32, %x3: i32):
    %v4 = arith.xori %x2, %x3 : i32
    %c6 = arith.constant 8 : i32
    %v5 = arith.maxsi %x2, %c6 : i32
    obs.yield %v4, %v5 : i32, i32
  }
  obs.return %v1 : !obs.arr<748 x i32>
}
