obs.kernel @fuzz(%input: !obs.arr<256 x i8>) -> !obs.arr<256 x i8> attributes {threads = 32} {
  %v0 = obs.sort %input network(bitonic) : !obs.arr<256 x i8> {
  ^bb0(%x1: i8, %x2: i8):
    %b3 = arith.cmpi slt, %x1, %x2 : i8
    obs.yield %b3 : i1
  }
  %v4 = obs.sync inplace %v0 : !obs.arr<256 x i8>
  %v6 = obs.pair %v4 : !obs.arr<256 x i8>
  %v7 = obs.map %v6 : !obs.arr<128 x tuple<i8, i8>> -> !obs.arr<128 x tuple<i8, i8>> {
  ^bb0(%x8: i8, %x9: i8):
    %v10 = arith.maxsi %x8, %x9 : i8
    obs.yield %x9, %v10 : i8, i8
  }
  %v5 = obs.unpair %v7 : !obs.arr<128 x tuple<i8, i8>>
  obs.return %v5 : !obs.arr<256 x i8>
}
