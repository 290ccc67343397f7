// Element code whose undefined MLIR meaning a fold would choose
// (test/obs-run/element-code-folds.test): poison, overflow flags and
// fast-math flags, which obs-define-element-code takes out first.

// x + poison is x + 0.
obs.kernel @poison_add(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %p = ub.poison : i32
    %r = arith.addi %x, %p : i32
    obs.yield %r : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// A place i + poison is i.
obs.kernel @poison_index(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 8} {
  %g = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %p = ub.poison : index
    %j = arith.addi %i, %p : index
    %v = obs.index %a[%j] : !obs.arr<8 x i32>
    obs.yield %v : i32
  }
  %s = obs.sync %g : !obs.arr<8 x i32>
  obs.return %s : !obs.arr<8 x i32>
}

// (x * y nsw) / y, wrapped, then divided (by 0: 0).
obs.kernel @nsw_div(%a: !obs.arr<4 x i32>, %b: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %m = obs.map %a, %b : !obs.arr<4 x i32>, !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    %p = arith.muli %x, %y overflow<nsw> : i32
    %r = arith.divsi %p, %y : i32
    obs.yield %r : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// The same unsigned, with nuw.
obs.kernel @nuw_div(%a: !obs.arr<4 x i32>, %b: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %m = obs.map %a, %b : !obs.arr<4 x i32>, !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    %p = arith.muli %x, %y overflow<nuw> : i32
    %r = arith.divui %p, %y : i32
    obs.yield %r : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// (i * 2^62 nsw) / 2^62 in index arithmetic (64 bits on ref and cpu).
obs.kernel @index_nsw(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> attributes {threads = 4} {
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %i = arith.index_cast %x : i32 to index
    %c = arith.constant 4611686018427387904 : index
    %p = arith.muli %i, %c overflow<nsw> : index
    %d = arith.divsi %p, %c : index
    %r = arith.index_cast %d : index to i32
    obs.yield %r : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// x * 0 under nnan and nsz: NaN for NaN and infinity, -0 for a negative x.
obs.kernel @fast_math(%a: !obs.arr<4 x f32>) -> !obs.arr<4 x f32> attributes {threads = 4} {
  %m = obs.map %a : !obs.arr<4 x f32> -> !obs.arr<4 x f32> {
  ^bb0(%x: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.mulf %x, %z fastmath<nnan,nsz> : f32
    obs.yield %r : f32
  }
  obs.return %m : !obs.arr<4 x f32>
}
