// Seed 002, section 4.1: Batcher's odd-even merge sort, built from the
// odd-even merger (see merge_oe.mlir) by recursion on halves.
//
//   sortOE :: Int -> (Arr IntE :-> Arr IntE)
//   sortOE 0 = pure id
//   sortOE n = two (sortOE (n-1)) ->- sync ->- mergeOE n cmp
//
//   *Obsidian> execute GPU (sortOE 3) [6,0,1,3,4,2,5,7]
//   [0,1,2,3,4,5,6,7]
//
// The recursion is unfolded as written; each comment names the equation.

obs.kernel @sort_oe3(%input: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // sortOE 3 = two (sortOE 2) ->- sync ->- mergeOE 3 cmp
  %two1 = obs.two %input : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%half2: !obs.arr<4 x i32>):
    // sortOE 2 = two (sortOE 1) ->- sync ->- mergeOE 2 cmp
    %two3 = obs.two %half2 : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
    ^bb0(%half4: !obs.arr<2 x i32>):
      // sortOE 1 = two (sortOE 0) ->- sync ->- mergeOE 1 cmp
      %two5 = obs.two %half4 : !obs.arr<2 x i32> -> !obs.arr<2 x i32> {
      ^bb0(%half6: !obs.arr<1 x i32>):
        // sortOE 0 = pure id
        obs.yield %half6 : !obs.arr<1 x i32>
      }
      %s7 = obs.sync %two5 : !obs.arr<2 x i32>
      // mergeOE 1 cmp = pure (evens cmp)
      %e8 = obs.evens %s7 : !obs.arr<2 x i32> {
      ^bb0(%x: i32, %y: i32):
        %less = arith.cmpi slt, %x, %y : i32
        %first = arith.select %less, %x, %y : i32
        %second = arith.select %less, %y, %x : i32
        obs.yield %first, %second : i32, i32
      }
      obs.yield %e8 : !obs.arr<2 x i32>
    }
    %s9 = obs.sync %two3 : !obs.arr<4 x i32>
    // mergeOE 2 cmp = ilv (mergeOE 1 cmp) ->- sync ->- pure (odds cmp)
    %ilv10 = obs.ilv %s9 : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
    ^bb0(%part11: !obs.arr<2 x i32>):
      // mergeOE 1 cmp = pure (evens cmp)
      %e12 = obs.evens %part11 : !obs.arr<2 x i32> {
      ^bb0(%x: i32, %y: i32):
        %less = arith.cmpi slt, %x, %y : i32
        %first = arith.select %less, %x, %y : i32
        %second = arith.select %less, %y, %x : i32
        obs.yield %first, %second : i32, i32
      }
      obs.yield %e12 : !obs.arr<2 x i32>
    }
    %s13 = obs.sync %ilv10 : !obs.arr<4 x i32>
    %o14 = obs.odds %s13 : !obs.arr<4 x i32> {
    ^bb0(%x: i32, %y: i32):
      %less = arith.cmpi slt, %x, %y : i32
      %first = arith.select %less, %x, %y : i32
      %second = arith.select %less, %y, %x : i32
      obs.yield %first, %second : i32, i32
    }
    obs.yield %o14 : !obs.arr<4 x i32>
  }
  %s15 = obs.sync %two1 : !obs.arr<8 x i32>
  // mergeOE 3 cmp = ilv (mergeOE 2 cmp) ->- sync ->- pure (odds cmp)
  %ilv16 = obs.ilv %s15 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%part17: !obs.arr<4 x i32>):
    // mergeOE 2 cmp = ilv (mergeOE 1 cmp) ->- sync ->- pure (odds cmp)
    %ilv18 = obs.ilv %part17 : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
    ^bb0(%part19: !obs.arr<2 x i32>):
      // mergeOE 1 cmp = pure (evens cmp)
      %e20 = obs.evens %part19 : !obs.arr<2 x i32> {
      ^bb0(%x: i32, %y: i32):
        %less = arith.cmpi slt, %x, %y : i32
        %first = arith.select %less, %x, %y : i32
        %second = arith.select %less, %y, %x : i32
        obs.yield %first, %second : i32, i32
      }
      obs.yield %e20 : !obs.arr<2 x i32>
    }
    %s21 = obs.sync %ilv18 : !obs.arr<4 x i32>
    %o22 = obs.odds %s21 : !obs.arr<4 x i32> {
    ^bb0(%x: i32, %y: i32):
      %less = arith.cmpi slt, %x, %y : i32
      %first = arith.select %less, %x, %y : i32
      %second = arith.select %less, %y, %x : i32
      obs.yield %first, %second : i32, i32
    }
    obs.yield %o22 : !obs.arr<4 x i32>
  }
  %s23 = obs.sync %ilv16 : !obs.arr<8 x i32>
  %o24 = obs.odds %s23 : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    %first = arith.select %less, %x, %y : i32
    %second = arith.select %less, %y, %x : i32
    obs.yield %first, %second : i32, i32
  }
  obs.return %o24 : !obs.arr<8 x i32>
}
