// Kernels of obs.scatter for test/obs-run/scatter.test.

// The counts of the values 0..255 among 1,024; others are dropped.
obs.kernel @histogram(%a: !obs.arr<1024 x i32>) -> !obs.arr<256 x i32> attributes {threads = 256} {
  %ones = obs.generate : !obs.arr<1024 x i32> {
  ^bb0(%i: index):
    %one = arith.constant 1 : i32
    obs.yield %one : i32
  }
  %counts = obs.scatter %ones at %a combine(add) initial(0 : i32) : !obs.arr<1024 x i32>, !obs.arr<1024 x i32> -> !obs.arr<256 x i32>
  obs.return %counts : !obs.arr<256 x i32>
}

// out[p[i]] = i: the inverse of a permutation, each place written once.
obs.kernel @inverse(%p: !obs.arr<256 x i32>) -> !obs.arr<256 x i32> attributes {threads = 64} {
  %ids = obs.generate : !obs.arr<256 x i32> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i32
    obs.yield %v : i32
  }
  %out = obs.scatter %ids at %p initial(-1 : i32) : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<256 x i32>
  obs.return %out : !obs.arr<256 x i32>
}

// The least of the values whose key is k, for each of 16 keys (inf where
// none).
obs.kernel @least(%v: !obs.arr<512 x f32>, %k: !obs.arr<512 x i32>) -> !obs.arr<16 x f32> attributes {threads = 128} {
  %least = obs.scatter %v at %k combine(min) initial(0x7F800000 : f32) : !obs.arr<512 x f32>, !obs.arr<512 x i32> -> !obs.arr<16 x f32>
  obs.return %least : !obs.arr<16 x f32>
}

// The bits of the values whose key is k, or-ed, for each of 8 keys.
obs.kernel @bits(%v: !obs.arr<256 x i32>, %k: !obs.arr<256 x i32>) -> !obs.arr<8 x i32> attributes {threads = 256} {
  %bits = obs.scatter %v at %k combine(or) initial(0 : i32) : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<8 x i32>
  obs.return %bits : !obs.arr<8 x i32>
}

// Each value at its place mod 32, on 32 threads: thread t writes values t
// and t + 32, both to place t. Rejected at compile time on every target.
obs.kernel @twice_in_one_thread(%a: !obs.arr<64 x i32>) -> !obs.arr<32 x i32> attributes {threads = 32} {
  %wrapped = obs.generate : !obs.arr<64 x i32> {
  ^bb0(%i: index):
    %c32 = arith.constant 32 : index
    %h = arith.remui %i, %c32 : index
    %p = arith.index_cast %h : index to i32
    obs.yield %p : i32
  }
  %s = obs.scatter %a at %wrapped initial(0 : i32) : !obs.arr<64 x i32>, !obs.arr<64 x i32> -> !obs.arr<32 x i32>
  obs.return %s : !obs.arr<32 x i32>
}
