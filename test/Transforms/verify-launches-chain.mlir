// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-verify-launches

// A chain is read and written by every block's obs.carry: no other operand
// of the launch may touch its allocation, not even to read it.

obs.kernel @k(%v: !obs.arr<4 x i64> {obs.absent = 0 : i64},
              %chain: !obs.arr<5 x i64> {obs.chain}) -> !obs.arr<4 x i64> attributes {threads = 4} {
  %total = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    %one = arith.constant 1 : i32
    obs.yield %one : i32
  }
  %before = obs.carry %total combine(add) chain(%chain) : !obs.arr<1 x i32>, !obs.arr<5 x i64>
  %out = obs.map %v : !obs.arr<4 x i64> -> !obs.arr<4 x i64> {
  ^bb0(%x: i64):
    obs.yield %x : i64
  }
  obs.return %out : !obs.arr<4 x i64>
}

// expected-note @+1 {{the allocation}}
func.func @chain_read(%all: memref<5xi64>, %out: memref<4xi64>) {
  %v = memref.subview %all[0] [4] [1] : memref<5xi64> to memref<4xi64, strided<[1]>>
  %c = memref.cast %v : memref<4xi64, strided<[1]>> to memref<4xi64>
  // expected-error @+1 {{passes ins 1, the chain of an obs.carry, which every block reads and writes, and ins 0 over the same allocation, not proved apart from it: no other operand may touch a chain's memory}}
  obs.launch @k grid(1) ins(%c, %all : memref<4xi64>, memref<5xi64>) outs(%out : memref<4xi64>)
  return
}

// -----

obs.kernel @k(%v: !obs.arr<4 x i64> {obs.absent = 0 : i64},
              %chain: !obs.arr<5 x i64> {obs.chain}) -> !obs.arr<4 x i64> attributes {threads = 4} {
  %total = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    %one = arith.constant 1 : i32
    obs.yield %one : i32
  }
  %before = obs.carry %total combine(add) chain(%chain) : !obs.arr<1 x i32>, !obs.arr<5 x i64>
  %out = obs.map %v : !obs.arr<4 x i64> -> !obs.arr<4 x i64> {
  ^bb0(%x: i64):
    obs.yield %x : i64
  }
  obs.return %out : !obs.arr<4 x i64>
}

// Its own allocation: proved.
func.func @chain_alone(%v: memref<16xi64>, %chain: memref<5xi64>, %out: memref<16xi64>) {
  obs.launch @k grid(4) ins(%v, %chain : memref<16xi64>, memref<5xi64>) outs(%out : memref<16xi64>)
  return
}
