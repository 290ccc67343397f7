// obs-fuzz seed 402, program 6679, reduced: two Sklansky scans, 100 threads.
obs.kernel @fuzz(%input: !obs.arr<256 x f32>) -> !obs.arr<256 x f32> attributes {threads = 100} {
  %v0 = obs.scan %input network(sklansky) : !obs.arr<256 x f32> {
  ^bb0(%x1: f32, %x2: f32):
    %v3 = arith.minimumf %x1, %x2 : f32
    obs.yield %v3 : f32
  }
  %v4 = obs.two %v0 : !obs.arr<256 x f32> -> !obs.arr<256 x f32> {
  ^bb0(%p5: !obs.arr<128 x f32>):
    %v6 = obs.scan %p5 network(sklansky) : !obs.arr<128 x f32> {
    ^bb0(%x7: f32, %x8: f32):
      %v9 = arith.minimumf %x7, %x8 : f32
      obs.yield %v9 : f32
    }
    obs.yield %v6 : !obs.arr<128 x f32>
  }
  obs.return %v4 : !obs.arr<256 x f32>
}
