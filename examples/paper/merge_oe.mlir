// Seed 002, section 4.1: Batcher's odd-even merger, merging two sorted
// halves.
//
//   mergeOE :: (Choice a, Flatten a) => Int -> ((a,a) -> (a,a)) -> (Arr a :-> Arr a)
//   mergeOE 1 f = pure (evens f)
//   mergeOE n f = ilv (mergeOE (n-1) f) ->- sync ->- pure (odds f)
//
//   cmp (a,b) = ifThenElse (a <* b) (a,b) (b,a)
//
//   *Obsidian> execute GPU (mergeOE 3 cmp) ([1,3,5,7,2,4,6,8] :: [IntE])
//   [1,2,3,4,5,6,7,8]

obs.kernel @merge_oe3(%input: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // mergeOE 3 cmp = ilv (mergeOE 2 cmp) ->- sync ->- pure (odds cmp)
  %merged2 = obs.ilv %input : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%a4: !obs.arr<4 x i32>):
    // mergeOE 2 cmp = ilv (mergeOE 1 cmp) ->- sync ->- pure (odds cmp)
    %merged1 = obs.ilv %a4 : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
    ^bb0(%a2: !obs.arr<2 x i32>):
      // mergeOE 1 cmp = pure (evens cmp)
      %e = obs.evens %a2 : !obs.arr<2 x i32> {
      ^bb0(%x: i32, %y: i32):
        %less = arith.cmpi slt, %x, %y : i32
        %first = arith.select %less, %x, %y : i32
        %second = arith.select %less, %y, %x : i32
        obs.yield %first, %second : i32, i32
      }
      obs.yield %e : !obs.arr<2 x i32>
    }
    %s = obs.sync %merged1 : !obs.arr<4 x i32>
    %o = obs.odds %s : !obs.arr<4 x i32> {
    ^bb0(%x: i32, %y: i32):
      %less = arith.cmpi slt, %x, %y : i32
      %first = arith.select %less, %x, %y : i32
      %second = arith.select %less, %y, %x : i32
      obs.yield %first, %second : i32, i32
    }
    obs.yield %o : !obs.arr<4 x i32>
  }
  %stored = obs.sync %merged2 : !obs.arr<8 x i32>
  %result = obs.odds %stored : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    %first = arith.select %less, %x, %y : i32
    %second = arith.select %less, %y, %x : i32
    obs.yield %first, %second : i32, i32
  }
  obs.return %result : !obs.arr<8 x i32>
}
