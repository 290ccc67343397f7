// obs-fuzz seed 501, program 1152, reduced: a Brent-Kung scan planned in
// place and in shared memory, then dealt out anew.
obs.kernel @fuzz(%input: !obs.arr<512 x f32>) -> !obs.arr<512 x f32> attributes {threads = 256} {
  %v0 = obs.scan %input network(brent_kung) : !obs.arr<512 x f32> {
  ^bb0(%x1: f32, %x2: f32):
    %v3 = arith.minimumf %x1, %x2 : f32
    obs.yield %v3 : f32
  }
  obs.return %v0 : !obs.arr<512 x f32>
}
