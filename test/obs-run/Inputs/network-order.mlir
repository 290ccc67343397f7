// Float prefix sums by each named scan network: the network's association
// order is the sum's meaning, which every target follows.

obs.kernel @sklansky512(%a: !obs.arr<512 x f32>) -> !obs.arr<512 x f32>
    attributes {threads = 256} {
  %s = obs.scan %a network(sklansky) : !obs.arr<512 x f32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    obs.yield %z : f32
  }
  obs.return %s : !obs.arr<512 x f32>
}

// Not a power of two: Sklansky by stages.
obs.kernel @sklansky1000(%a: !obs.arr<1000 x f32>) -> !obs.arr<1000 x f32>
    attributes {threads = 256} {
  %s = obs.scan %a network(sklansky) : !obs.arr<1000 x f32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    obs.yield %z : f32
  }
  obs.return %s : !obs.arr<1000 x f32>
}

obs.kernel @kogge_stone1000(%a: !obs.arr<1000 x f32>) -> !obs.arr<1000 x f32>
    attributes {threads = 256} {
  %s = obs.scan %a network(kogge_stone) : !obs.arr<1000 x f32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    obs.yield %z : f32
  }
  obs.return %s : !obs.arr<1000 x f32>
}

obs.kernel @brent_kung1000(%a: !obs.arr<1000 x f32>) -> !obs.arr<1000 x f32>
    attributes {threads = 256} {
  %s = obs.scan %a network(brent_kung) : !obs.arr<1000 x f32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    obs.yield %z : f32
  }
  obs.return %s : !obs.arr<1000 x f32>
}

// A pair of f32: a sum, which rounds as the network associates, and a
// running maximum, which every order gives alike.
obs.kernel @brent_kung_pairs512(%a: !obs.arr<512 x tuple<f32, f32>>)
    -> !obs.arr<512 x tuple<f32, f32>> attributes {threads = 128} {
  %s = obs.scan %a network(brent_kung) : !obs.arr<512 x tuple<f32, f32>> {
  ^bb0(%x: f32, %i: f32, %y: f32, %j: f32):
    %z = arith.addf %x, %y : f32
    %k = arith.maximumf %i, %j : f32
    obs.yield %z, %k : f32, f32
  }
  obs.return %s : !obs.arr<512 x tuple<f32, f32>>
}
