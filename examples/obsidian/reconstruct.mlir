// Later Obsidian's reconstruction from counts: given the nondecreasing
// bounds a[0] = 0 <= a[1] <= ... <= a[256] = 1024 (the exclusive scan of
// 256 counts), thread g writes g into positions [a[g], a[g+1]). Each range
// that is not empty starts with its g, pushed to its place a[g] (a scatter
// whose places depend on data, combined by max so that no place needs a
// single writer); a running maximum then fills the rest of each range.
//
//   obs-run examples/obsidian/reconstruct.mlir --kernel=reconstruct \
//       --target=cpu --input=bounds.txt

obs.kernel @reconstruct(%a: !obs.arr<257 x i32>) -> !obs.arr<1024 x i32> attributes {threads = 256} {
  // g at a[g] where range g is not empty; nowhere (-1) otherwise.
  %starts = obs.generate : !obs.arr<257 x i32> {
  ^bb0(%g: index):
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %nowhere = arith.constant -1 : i32
    %last = arith.cmpi eq, %g, %c256 : index
    %place = scf.if %last -> (i32) {
      scf.yield %nowhere : i32
    } else {
      %next = arith.addi %g, %c1 : index
      %begin = obs.index %a[%g] : !obs.arr<257 x i32>
      %end = obs.index %a[%next] : !obs.arr<257 x i32>
      %empty = arith.cmpi sge, %begin, %end : i32
      %p = arith.select %empty, %nowhere, %begin : i32
      scf.yield %p : i32
    }
    obs.yield %place : i32
  }
  %ids = obs.generate : !obs.arr<257 x i32> {
  ^bb0(%g: index):
    %v = arith.index_cast %g : index to i32
    obs.yield %v : i32
  }
  %pushed = obs.scatter %ids at %starts combine(max) initial(0 : i32) : !obs.arr<257 x i32>, !obs.arr<257 x i32> -> !obs.arr<1024 x i32>
  %filled = obs.scan %pushed network(sklansky) : !obs.arr<1024 x i32> {
  ^bb0(%x: i32, %y: i32):
    %m = arith.maxsi %x, %y : i32
    obs.yield %m : i32
  }
  obs.return %filled : !obs.arr<1024 x i32>
}
