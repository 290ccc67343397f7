// Seed 001, section 4.3: the periodic balanced sorter, built from the
// shuffle-exchange merger (merger.mlir) and the permutation tau.
//
//   tau = unriffle ->>- one rev
//
//   sorter arr = repE k periodicMerge arr
//     where k = log2i (len arr)
//           periodicMerge = tau ->>- merger
//
//   > executeT 8 sorter [1,4,3,7,8,2,5,6]
//   [1,2,3,4,5,6,7,8]

obs.kernel @sorter(%input: !obs.arr<8 x i32>) -> !obs.arr<8 x i32>
    attributes {threads = 8} {
  // k = log2 8
  %result = obs.repeat 3 %input : !obs.arr<8 x i32> {
  ^bb0(%a: !obs.arr<8 x i32>):
    // tau = unriffle ->>- one rev
    %unriffled = obs.unriffle %a : !obs.arr<8 x i32>
    %s0 = obs.sync %unriffled : !obs.arr<8 x i32>
    %tau = obs.one %s0 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
    ^bb0(%half: !obs.arr<4 x i32>):
      %reversed = obs.rev %half : !obs.arr<4 x i32>
      obs.yield %reversed : !obs.arr<4 x i32>
    }
    // tau ->>- merger
    %s1 = obs.sync %tau : !obs.arr<8 x i32>
    // merger = repE (log2i 8) (riffle ->>- evens (cmpSwap (<*)) ->- sync)
    %merged = obs.repeat 3 %s1 : !obs.arr<8 x i32> {
    ^bb0(%b: !obs.arr<8 x i32>):
      %riffled = obs.riffle %b : !obs.arr<8 x i32>
      %s2 = obs.sync %riffled : !obs.arr<8 x i32>
      %swapped = obs.evens %s2 : !obs.arr<8 x i32> {
      ^bb0(%x: i32, %y: i32):
        %less = arith.cmpi slt, %x, %y : i32
        %first = arith.select %less, %x, %y : i32
        %second = arith.select %less, %y, %x : i32
        obs.yield %first, %second : i32, i32
      }
      %s3 = obs.sync %swapped : !obs.arr<8 x i32>
      obs.yield %s3 : !obs.arr<8 x i32>
    }
    obs.yield %merged : !obs.arr<8 x i32>
  }
  obs.return %result : !obs.arr<8 x i32>
}

// The sorter with one thread per pair, derived with pfy (seed 001, 4.2-4.3):
//
//   tau2 = unpair ->- unriffle ->- pair ->>- unpair ->- one rev ->- pair
//
//   merger2 arr = repE k merge_body arr
//     where k = log2i (2 * len arr)
//           merge_body = unpair ->- riffle ->- pair ->>- fun (cmpSwap (<*)) ->- sync
//
//   sorter' arr = repE k periodicMerge arr
//     where k = log2i (2 * len arr)
//           periodicMerge = tau2 ->>- merger2
//
//   > executeT 4 sorter' [1,4,3,7,8,2,5,6]
//   [1,2,3,4,5,6,7,8]
//
// The data is passed as a flat list, as the paper does: 4 pairs.

obs.kernel @sorter_pairwise(%input: !obs.arr<4 x tuple<i32, i32>>) -> !obs.arr<4 x tuple<i32, i32>>
    attributes {threads = 4} {
  // k = log2i (2 * 4)
  %result = obs.repeat 3 %input : !obs.arr<4 x tuple<i32, i32>> {
  ^bb0(%a: !obs.arr<4 x tuple<i32, i32>>):
    // tau2
    %u0 = obs.unpair %a : !obs.arr<4 x tuple<i32, i32>>
    %unriffled = obs.unriffle %u0 : !obs.arr<8 x i32>
    %p0 = obs.pair %unriffled : !obs.arr<8 x i32>
    %s0 = obs.sync %p0 : !obs.arr<4 x tuple<i32, i32>>
    %u1 = obs.unpair %s0 : !obs.arr<4 x tuple<i32, i32>>
    %oneRev = obs.one %u1 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
    ^bb0(%half: !obs.arr<4 x i32>):
      %reversed = obs.rev %half : !obs.arr<4 x i32>
      obs.yield %reversed : !obs.arr<4 x i32>
    }
    %tau2 = obs.pair %oneRev : !obs.arr<8 x i32>
    // tau2 ->>- merger2
    %s1 = obs.sync %tau2 : !obs.arr<4 x tuple<i32, i32>>
    %merged = obs.repeat 3 %s1 : !obs.arr<4 x tuple<i32, i32>> {
    ^bb0(%b: !obs.arr<4 x tuple<i32, i32>>):
      %u2 = obs.unpair %b : !obs.arr<4 x tuple<i32, i32>>
      %riffled = obs.riffle %u2 : !obs.arr<8 x i32>
      %p1 = obs.pair %riffled : !obs.arr<8 x i32>
      %s2 = obs.sync %p1 : !obs.arr<4 x tuple<i32, i32>>
      %swapped = obs.map %s2 : !obs.arr<4 x tuple<i32, i32>> -> !obs.arr<4 x tuple<i32, i32>> {
      ^bb0(%x: i32, %y: i32):
        %less = arith.cmpi slt, %x, %y : i32
        %first = arith.select %less, %x, %y : i32
        %second = arith.select %less, %y, %x : i32
        obs.yield %first, %second : i32, i32
      }
      %s3 = obs.sync %swapped : !obs.arr<4 x tuple<i32, i32>>
      obs.yield %s3 : !obs.arr<4 x tuple<i32, i32>>
    }
    obs.yield %merged : !obs.arr<4 x tuple<i32, i32>>
  }
  obs.return %result : !obs.arr<4 x tuple<i32, i32>>
}
