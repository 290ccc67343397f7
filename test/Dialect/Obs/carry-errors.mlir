// RUN: obs-opt %s -split-input-file -verify-diagnostics

// obs.carry and the chain it takes: what the verifiers refuse, each with
// the rule it breaks.

obs.kernel @wide_value(%v: !obs.arr<1 x i64>, %chain: !obs.arr<2 x i64> {obs.chain}) -> !obs.arr<1 x i64> {
  // expected-error @+1 {{carries an array of integers of at most 32 bits (a chain word holds each beside its flag), not '!obs.arr<1 x i64>'}}
  %c = obs.carry %v combine(add) chain(%chain) : !obs.arr<1 x i64>, !obs.arr<2 x i64>
  obs.return %c : !obs.arr<1 x i64>
}

// -----

obs.kernel @float_value(%v: !obs.arr<1 x f32>, %chain: !obs.arr<2 x i64> {obs.chain}) -> !obs.arr<1 x f32> {
  // expected-error @+1 {{carries an array of integers of at most 32 bits}}
  %c = obs.carry %v combine(add) chain(%chain) : !obs.arr<1 x f32>, !obs.arr<2 x i64>
  obs.return %c : !obs.arr<1 x f32>
}

// -----

obs.kernel @no_values(%v: !obs.arr<0 x i32>, %chain: !obs.arr<2 x i64> {obs.chain}) -> !obs.arr<0 x i32> {
  // expected-error @+1 {{carries an array of integers of at most 32 bits (a chain word holds each beside its flag), not '!obs.arr<0 x i32>'}}
  %c = obs.carry %v combine(add) chain(%chain) : !obs.arr<0 x i32>, !obs.arr<2 x i64>
  obs.return %c : !obs.arr<0 x i32>
}

// -----

obs.kernel @pairs(%v: !obs.arr<2 x tuple<i32, i32>>, %chain: !obs.arr<5 x i64> {obs.chain}) -> !obs.arr<2 x tuple<i32, i32>> {
  // expected-error @+1 {{carries an array of integers of at most 32 bits}}
  %c = obs.carry %v combine(add) chain(%chain) : !obs.arr<2 x tuple<i32, i32>>, !obs.arr<5 x i64>
  obs.return %c : !obs.arr<2 x tuple<i32, i32>>
}

// -----

obs.kernel @unmarked_chain(%v: !obs.arr<1 x i32>, %chain: !obs.arr<2 x i64>) -> !obs.arr<1 x i32> {
  // expected-error @+1 {{takes its kernel's chain, an argument marked 'obs.chain', as its chain}}
  %c = obs.carry %v combine(add) chain(%chain) : !obs.arr<1 x i32>, !obs.arr<2 x i64>
  obs.return %c : !obs.arr<1 x i32>
}

// -----

// expected-error @+1 {{argument 1 is its chain: one obs.carry uses it, as its chain, and nothing else does}}
obs.kernel @chain_read(%v: !obs.arr<1 x i32>, %chain: !obs.arr<2 x i64> {obs.chain}) -> !obs.arr<2 x i64> {
  obs.return %chain : !obs.arr<2 x i64>
}

// -----

// expected-error @+1 {{argument 1 is its chain, an !obs.arr<N x i64>, not '!obs.arr<2 x i32>'}}
obs.kernel @chain_of_i32(%v: !obs.arr<1 x i32>, %chain: !obs.arr<2 x i32> {obs.chain}) -> !obs.arr<1 x i32> {
  obs.return %v : !obs.arr<1 x i32>
}

// -----

// expected-error @+1 {{has two chains (arguments 1 and 2): a kernel's blocks take their tiles from one}}
obs.kernel @two_chains(%v: !obs.arr<1 x i32>, %c1: !obs.arr<2 x i64> {obs.chain}, %c2: !obs.arr<2 x i64> {obs.chain}) -> (!obs.arr<1 x i32>, !obs.arr<1 x i32>) {
  %a = obs.carry %v combine(add) chain(%c1) : !obs.arr<1 x i32>, !obs.arr<2 x i64>
  %b = obs.carry %v combine(max) chain(%c2) : !obs.arr<1 x i32>, !obs.arr<2 x i64>
  obs.return %a, %b : !obs.arr<1 x i32>, !obs.arr<1 x i32>
}

// -----

// expected-error @+1 {{argument 1 is the kernel's chain, which is neither 'obs.global' nor has a halo}}
obs.kernel @global_chain(%v: !obs.arr<1 x i32>, %chain: !obs.arr<2 x i64> {obs.chain, obs.global}) -> !obs.arr<1 x i32> {
  %c = obs.carry %v combine(add) chain(%chain) : !obs.arr<1 x i32>, !obs.arr<2 x i64>
  obs.return %c : !obs.arr<1 x i32>
}

// -----

obs.kernel @k(%v: !obs.arr<1 x i32>, %chain: !obs.arr<4 x i64> {obs.chain}) -> !obs.arr<1 x i32> {
  %c = obs.carry %v combine(add) chain(%chain) : !obs.arr<1 x i32>, !obs.arr<4 x i64>
  obs.return %c : !obs.arr<1 x i32>
}

func.func @short_chain(%v: memref<4xi32>, %chain: memref<4xi64>, %out: memref<4xi32>) {
  // expected-error @+1 {{passes @k a chain (ins 1) of 4 words over 4 blocks: a chain holds the ticket counter and a word per block, 5}}
  obs.launch @k grid(4) ins(%v, %chain : memref<4xi32>, memref<4xi64>) outs(%out : memref<4xi32>)
  return
}

// -----

// A carry of three elements takes three words a block.
obs.kernel @k(%v: !obs.arr<3 x i32>, %chain: !obs.arr<12 x i64> {obs.chain}) -> !obs.arr<3 x i32> {
  %c = obs.carry %v combine(max) chain(%chain) : !obs.arr<3 x i32>, !obs.arr<12 x i64>
  obs.return %c : !obs.arr<3 x i32>
}

func.func @short_chain_of_three(%v: memref<12xi32>, %chain: memref<12xi64>, %out: memref<12xi32>) {
  // expected-error @+1 {{passes @k a chain (ins 1) of 12 words over 4 blocks: a chain holds the ticket counter and 3 words per block, 13}}
  obs.launch @k grid(4) ins(%v, %chain : memref<12xi32>, memref<12xi64>) outs(%out : memref<12xi32>)
  return
}

// -----

obs.kernel @k(%v: !obs.arr<3 x i32>, %chain: !obs.arr<4 x i64> {obs.chain}) -> !obs.arr<3 x i32> {
  %c = obs.carry %v combine(max) chain(%chain) : !obs.arr<3 x i32>, !obs.arr<4 x i64>
  obs.return %c : !obs.arr<3 x i32>
}

func.func @chain_of_three_unlike_argument(%v: memref<6xi32>, %chain: memref<7xi64>, %out: memref<6xi32>) {
  // expected-error @+1 {{passes @k a chain (ins 1) of 7 words, but its chain argument 1 is '!obs.arr<4 x i64>': a launch of static sizes passes the chain at the argument's length, which must be at least 3 words per block of the grid (its carry's elements) plus one (7)}}
  obs.launch @k grid(2) ins(%v, %chain : memref<6xi32>, memref<7xi64>) outs(%out : memref<6xi32>)
  return
}

// -----

obs.kernel @no_combine(%v: !obs.arr<1 x i32>, %chain: !obs.arr<2 x i64> {obs.chain}) -> !obs.arr<1 x i32> {
  // expected-error @+1 {{requires attribute 'combine'}}
  %c = obs.carry %v chain(%chain) : !obs.arr<1 x i32>, !obs.arr<2 x i64>
  obs.return %c : !obs.arr<1 x i32>
}

// -----

obs.kernel @k(%v: !obs.arr<1 x i32>, %chain: !obs.arr<2 x i64> {obs.chain}) -> !obs.arr<1 x i32> {
  %c = obs.carry %v combine(add) chain(%chain) : !obs.arr<1 x i32>, !obs.arr<2 x i64>
  obs.return %c : !obs.arr<1 x i32>
}

func.func @chain_unlike_argument(%v: memref<3xi32>, %chain: memref<4xi64>, %out: memref<3xi32>) {
  // expected-error @+1 {{passes @k a chain (ins 1) of 4 words, but its chain argument 1 is '!obs.arr<2 x i64>': a launch of static sizes passes the chain at the argument's length, which must be at least the grid's blocks plus one (4)}}
  obs.launch @k grid(3) ins(%v, %chain : memref<3xi32>, memref<4xi64>) outs(%out : memref<3xi32>)
  return
}

// -----

// Layouts place each block's chunk; a chain is read and written whole by
// every block's carry, and is named as such (hunt 31: the message called
// it an 'obs.global' argument).
// expected-note @+1 {{the kernel}}
obs.kernel @k(%a: !obs.arr<4 x i32>, %chain: !obs.arr<3 x i64> {obs.chain}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %t = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    %v = obs.index %a[%i] : !obs.arr<4 x i32>
    obs.yield %v : i32
  }
  %c = obs.carry %t combine(add) chain(%chain) : !obs.arr<1 x i32>, !obs.arr<3 x i64>
  %o = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %x = obs.index %a[%i] : !obs.arr<4 x i32>
    %y = obs.index %c[%c0] : !obs.arr<1 x i32>
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %o : !obs.arr<4 x i32>
}

func.func @chain_with_layouts(%in: memref<8xi32>, %chain: memref<3xi64>, %out: memref<8xi32>) {
  // expected-error @+1 {{has layouts, but ins 1 holds the chain of an obs.carry, which every block's carry reads and writes whole: launch it without layouts}}
  obs.launch @k grid(2) ins(%in, %chain : memref<8xi32>, memref<3xi64>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> ((1 - b) * 4 + i)>, affine_map<(b, i) -> (b + i)>, affine_map<(b, i) -> ((1 - b) * 4 + i)>]
  return
}
