// Seed 002, section 4.2: Sklansky's parallel prefix network.
//
//   sklansky :: (Flatten a, Choice a) => Int -> (a -> a -> a) -> (Arr a :-> Arr a)
//   sklansky 0 op = pure id
//   sklansky n op = two (sklansky (n-1) op) ->- pure (fan op) ->- sync
//
//   Executing (sklansky 3 (+)) on the GPU given input [0..7] computes the
//   prefix sum as expected, returning [0,1,3,6,10,15,21,28]
//
// Both kernels are the obviously correct version: one thread per element,
// block barriers, fresh buffers. The refinements of the paper (syncHow
// (pairNth 256), syncWarp, syncIP) are left to the obs-optimize passes.

obs.kernel @sklansky3(%input: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // sklansky 3 op = two (sklansky 2 op) ->- pure (fan op) ->- sync
  %two1 = obs.two %input : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%half2: !obs.arr<4 x i32>):
    // sklansky 2 op = two (sklansky 1 op) ->- pure (fan op) ->- sync
    %two3 = obs.two %half2 : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
    ^bb0(%half4: !obs.arr<2 x i32>):
      // sklansky 1 op = two (sklansky 0 op) ->- pure (fan op) ->- sync
      %two5 = obs.two %half4 : !obs.arr<2 x i32> -> !obs.arr<2 x i32> {
      ^bb0(%half6: !obs.arr<1 x i32>):
        // sklansky 0 op = pure id
        obs.yield %half6 : !obs.arr<1 x i32>
      }
      %fan7 = obs.fan %two5 : !obs.arr<2 x i32> {
      ^bb0(%x: i32, %y: i32):
        %sum = arith.addi %x, %y : i32
        obs.yield %sum : i32
      }
      %s8 = obs.sync %fan7 : !obs.arr<2 x i32>
      obs.yield %s8 : !obs.arr<2 x i32>
    }
    %fan9 = obs.fan %two3 : !obs.arr<4 x i32> {
    ^bb0(%x: i32, %y: i32):
      %sum = arith.addi %x, %y : i32
      obs.yield %sum : i32
    }
    %s10 = obs.sync %fan9 : !obs.arr<4 x i32>
    obs.yield %s10 : !obs.arr<4 x i32>
  }
  %fan11 = obs.fan %two1 : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %sum = arith.addi %x, %y : i32
    obs.yield %sum : i32
  }
  %s12 = obs.sync %fan11 : !obs.arr<8 x i32>
  obs.return %s12 : !obs.arr<8 x i32>
}

// sklansky 9 (+) on 512 elements, the kernel of the paper's 2^20-element
// prefix sum, with the recursion unfolded to its nine levels of two.

obs.kernel @sklansky9(%input: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> {
  // sklansky 9 op = two (sklansky 8 op) ->- pure (fan op) ->- sync
  %two1 = obs.two %input : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%half2: !obs.arr<256 x i32>):
    // sklansky 8 op = two (sklansky 7 op) ->- pure (fan op) ->- sync
    %two3 = obs.two %half2 : !obs.arr<256 x i32> -> !obs.arr<256 x i32> {
    ^bb0(%half4: !obs.arr<128 x i32>):
      // sklansky 7 op = two (sklansky 6 op) ->- pure (fan op) ->- sync
      %two5 = obs.two %half4 : !obs.arr<128 x i32> -> !obs.arr<128 x i32> {
      ^bb0(%half6: !obs.arr<64 x i32>):
        // sklansky 6 op = two (sklansky 5 op) ->- pure (fan op) ->- sync
        %two7 = obs.two %half6 : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
        ^bb0(%half8: !obs.arr<32 x i32>):
          // sklansky 5 op = two (sklansky 4 op) ->- pure (fan op) ->- sync
          %two9 = obs.two %half8 : !obs.arr<32 x i32> -> !obs.arr<32 x i32> {
          ^bb0(%half10: !obs.arr<16 x i32>):
            // sklansky 4 op = two (sklansky 3 op) ->- pure (fan op) ->- sync
            %two11 = obs.two %half10 : !obs.arr<16 x i32> -> !obs.arr<16 x i32> {
            ^bb0(%half12: !obs.arr<8 x i32>):
              // sklansky 3 op = two (sklansky 2 op) ->- pure (fan op) ->- sync
              %two13 = obs.two %half12 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
              ^bb0(%half14: !obs.arr<4 x i32>):
                // sklansky 2 op = two (sklansky 1 op) ->- pure (fan op) ->- sync
                %two15 = obs.two %half14 : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
                ^bb0(%half16: !obs.arr<2 x i32>):
                  // sklansky 1 op = two (sklansky 0 op) ->- pure (fan op) ->- sync
                  %two17 = obs.two %half16 : !obs.arr<2 x i32> -> !obs.arr<2 x i32> {
                  ^bb0(%half18: !obs.arr<1 x i32>):
                    // sklansky 0 op = pure id
                    obs.yield %half18 : !obs.arr<1 x i32>
                  }
                  %fan19 = obs.fan %two17 : !obs.arr<2 x i32> {
                  ^bb0(%x: i32, %y: i32):
                    %sum = arith.addi %x, %y : i32
                    obs.yield %sum : i32
                  }
                  %s20 = obs.sync %fan19 : !obs.arr<2 x i32>
                  obs.yield %s20 : !obs.arr<2 x i32>
                }
                %fan21 = obs.fan %two15 : !obs.arr<4 x i32> {
                ^bb0(%x: i32, %y: i32):
                  %sum = arith.addi %x, %y : i32
                  obs.yield %sum : i32
                }
                %s22 = obs.sync %fan21 : !obs.arr<4 x i32>
                obs.yield %s22 : !obs.arr<4 x i32>
              }
              %fan23 = obs.fan %two13 : !obs.arr<8 x i32> {
              ^bb0(%x: i32, %y: i32):
                %sum = arith.addi %x, %y : i32
                obs.yield %sum : i32
              }
              %s24 = obs.sync %fan23 : !obs.arr<8 x i32>
              obs.yield %s24 : !obs.arr<8 x i32>
            }
            %fan25 = obs.fan %two11 : !obs.arr<16 x i32> {
            ^bb0(%x: i32, %y: i32):
              %sum = arith.addi %x, %y : i32
              obs.yield %sum : i32
            }
            %s26 = obs.sync %fan25 : !obs.arr<16 x i32>
            obs.yield %s26 : !obs.arr<16 x i32>
          }
          %fan27 = obs.fan %two9 : !obs.arr<32 x i32> {
          ^bb0(%x: i32, %y: i32):
            %sum = arith.addi %x, %y : i32
            obs.yield %sum : i32
          }
          %s28 = obs.sync %fan27 : !obs.arr<32 x i32>
          obs.yield %s28 : !obs.arr<32 x i32>
        }
        %fan29 = obs.fan %two7 : !obs.arr<64 x i32> {
        ^bb0(%x: i32, %y: i32):
          %sum = arith.addi %x, %y : i32
          obs.yield %sum : i32
        }
        %s30 = obs.sync %fan29 : !obs.arr<64 x i32>
        obs.yield %s30 : !obs.arr<64 x i32>
      }
      %fan31 = obs.fan %two5 : !obs.arr<128 x i32> {
      ^bb0(%x: i32, %y: i32):
        %sum = arith.addi %x, %y : i32
        obs.yield %sum : i32
      }
      %s32 = obs.sync %fan31 : !obs.arr<128 x i32>
      obs.yield %s32 : !obs.arr<128 x i32>
    }
    %fan33 = obs.fan %two3 : !obs.arr<256 x i32> {
    ^bb0(%x: i32, %y: i32):
      %sum = arith.addi %x, %y : i32
      obs.yield %sum : i32
    }
    %s34 = obs.sync %fan33 : !obs.arr<256 x i32>
    obs.yield %s34 : !obs.arr<256 x i32>
  }
  %fan35 = obs.fan %two1 : !obs.arr<512 x i32> {
  ^bb0(%x: i32, %y: i32):
    %sum = arith.addi %x, %y : i32
    obs.yield %sum : i32
  }
  %s36 = obs.sync %fan35 : !obs.arr<512 x i32>
  obs.return %s36 : !obs.arr<512 x i32>
}
