// obs-fuzz --seed=11: failure: crashed: Aborted
// Input: --input=random:395:-100:100
// Expected: obs-run fuzz-11-54-reduced.mlir --kernel=fuzz --target=ref --input=random:395:-100:100
// Adapted from the reduced program: the reduction stood beside the map,
// and now stands in the map's element code, where every element folds it
// again (see regressions.test).

obs.kernel @fuzz(%input: !obs.arr<823 x i32>) -> !obs.arr<823 x i32> {
  %v0 = obs.sync %input : !obs.arr<823 x i32>
  %v1 = obs.repeat 2 %v0 : !obs.arr<823 x i32> {
  ^bb0(%p2: !obs.arr<823 x i32>):
    %v3 = obs.repeat 0 %p2 : !obs.arr<823 x i32> {
    ^bb0(%p4: !obs.arr<823 x i32>):
      obs.yield %p4 : !obs.arr<823 x i32>
    }
    %v5 = obs.map %v3 : !obs.arr<823 x i32> -> !obs.arr<823 x i32> {
    ^bb0(%x10: i32):
      %r6 = obs.reduce %v3 : !obs.arr<823 x i32> -> i32 {
      ^bb0(%x7: i32, %x8: i32):
        %v9 = arith.addi %x7, %x8 : i32
        obs.yield %v9 : i32
      }
      %v11 = arith.addi %x10, %r6 : i32
      obs.yield %v11 : i32
    }
    %v12 = obs.rev %v5 : !obs.arr<823 x i32>
    obs.yield %v12 : !obs.arr<823 x i32>
  }
  %v13 = obs.sync %v1 : !obs.arr<823 x i32>
  %v14 = obs.sync compact<100> %v13 : !obs.arr<823 x i32>
  obs.return %v14 : !obs.arr<823 x i32>
}
