// RUN: obs-opt %s --obs-expand-device --obs-verify-launches -split-input-file -verify-diagnostics -o /dev/null

// The launch proof on halos (lib/Analysis/LaunchProof.cpp, after
// lib/Transforms/DeviceExpansion/Halos.cpp): a halo argument is read by
// every block at its neighbours' places, so a launch that writes its memref
// (a stencil in place) is refused, and the error says that a halo is why.

obs.kernel @mean3(%x: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, clamp>}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %v = obs.index %x[%i] : !obs.arr<6 x i32>
    obs.yield %v : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}
// expected-note @+1 {{the allocation}}
func.func @in_place(%x: memref<12xi32>) {
  // expected-error @+1 {{passes ins 0, an 'obs.global' argument (as a device op's scalars and halos are) that any block may read at any place, and writes outs 0 over the same allocation}}
  obs.launch @mean3 grid(3) ins(%x : memref<12xi32>) outs(%x : memref<12xi32>)
  return
}

// -----

// Into another buffer, it is accepted.
obs.kernel @mean3(%x: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, clamp>}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %v = obs.index %x[%i] : !obs.arr<6 x i32>
    obs.yield %v : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}
func.func @apart(%x: memref<12xi32>, %y: memref<12xi32>) {
  obs.launch @mean3 grid(3) ins(%x : memref<12xi32>) outs(%y : memref<12xi32>)
  return
}
