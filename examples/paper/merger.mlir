// Seed 001, section 4.1: the shuffle-exchange merger. The first half of the
// input is sorted, the second half sorted in reverse.
//
//   merger :: Arr IntE -> W (Arr IntE)
//   merger arr = repE k merge_body arr
//     where
//       k = log2i (len arr)
//       merge_body = riffle ->>- evens (cmpSwap (<*)) ->- sync
//
//   cmpSwap op (a,b) = ifThenElse (op a b) (a,b) (b,a)
//
//   > executeT 16 merger [0,2,4,6,8,10,12,14,15,13,11,9,7,5,3,1]
//   [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]

obs.kernel @merger(%input: !obs.arr<16 x i32>) -> !obs.arr<16 x i32>
    attributes {threads = 16} {
  // k = log2 16
  %result = obs.repeat 4 %input : !obs.arr<16 x i32> {
  ^bb0(%a: !obs.arr<16 x i32>):
    %riffled = obs.riffle %a : !obs.arr<16 x i32>
    %stored = obs.sync %riffled : !obs.arr<16 x i32>
    %swapped = obs.evens %stored : !obs.arr<16 x i32> {
    ^bb0(%x: i32, %y: i32):
      %less = arith.cmpi slt, %x, %y : i32
      %first = arith.select %less, %x, %y : i32
      %second = arith.select %less, %y, %x : i32
      obs.yield %first, %second : i32, i32
    }
    %next = obs.sync %swapped : !obs.arr<16 x i32>
    obs.yield %next : !obs.arr<16 x i32>
  }
  obs.return %result : !obs.arr<16 x i32>
}
