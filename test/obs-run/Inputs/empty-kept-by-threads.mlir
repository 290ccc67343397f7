// An empty array kept by threads (registers, shuffles, or as
// obs-promote-registers chooses), read through a conc that never chooses
// it: conc [] x = x and conc x [] = x (shared/spec/combinators.py).

obs.kernel @chosen_first(%x: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %e = obs.generate : !obs.arr<0 x i32> {
  ^bb0(%i: index):
    %c = arith.constant 5 : i32
    obs.yield %c : i32
  }
  %s = obs.sync %e : !obs.arr<0 x i32>
  %c = obs.conc %s, %x : !obs.arr<0 x i32>, !obs.arr<4 x i32>
  obs.return %c : !obs.arr<4 x i32>
}

obs.kernel @registers_last(%x: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %e = obs.generate : !obs.arr<0 x i32> {
  ^bb0(%i: index):
    %c = arith.constant 5 : i32
    obs.yield %c : i32
  }
  %s = obs.sync registers %e : !obs.arr<0 x i32>
  %c = obs.conc %x, %s : !obs.arr<4 x i32>, !obs.arr<0 x i32>
  obs.return %c : !obs.arr<4 x i32>
}

obs.kernel @shuffle_tuples(%x: !obs.arr<4 x tuple<i32, f32>>) -> !obs.arr<4 x tuple<i32, f32>> {
  %e = obs.generate : !obs.arr<0 x tuple<i32, f32>> {
  ^bb0(%i: index):
    %c = arith.constant 5 : i32
    %f = arith.constant 1.5 : f32
    obs.yield %c, %f : i32, f32
  }
  %s = obs.sync shuffle %e : !obs.arr<0 x tuple<i32, f32>>
  %c = obs.conc %s, %x : !obs.arr<0 x tuple<i32, f32>>, !obs.arr<4 x tuple<i32, f32>>
  obs.return %c : !obs.arr<4 x tuple<i32, f32>>
}
