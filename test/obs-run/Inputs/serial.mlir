// Scans and reductions by the serial network (issue 17), the default
// without a network: test/obs-run/serial.test runs them.

// Runs of 2 in registers, 256 totals in 8 warps.
obs.kernel @scan512(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32>
    attributes {threads = 256} {
  %s = obs.scan %a : !obs.arr<512 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<512 x i32>
}

// A combine that is not commutative (the last nonzero element so far), so
// that an element taken in on the wrong side shows; runs of 11, the last
// one of 10, 91 totals in 3 warps, the last one partial.
obs.kernel @last1000(%a: !obs.arr<1000 x i32>) -> !obs.arr<1000 x i32>
    attributes {threads = 96} {
  %s = obs.scan %a network(serial) : !obs.arr<1000 x i32> {
  ^bb0(%x: i32, %y: i32):
    %c0 = arith.constant 0 : i32
    %nonzero = arith.cmpi ne, %y, %c0 : i32
    %z = arith.select %nonzero, %y, %x : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<1000 x i32>
}

// Runs of 11 folded in registers, then 91 totals in 3 warps.
obs.kernel @sum1000(%a: !obs.arr<1000 x i32>) -> !obs.arr<1 x i32>
    attributes {threads = 96} {
  %s = obs.reduce %a : !obs.arr<1000 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  %t = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %s : i32
  }
  obs.return %t : !obs.arr<1 x i32>
}

// Runs of 16, more than registers hold: the runs stay in shared memory.
obs.kernel @scan4096(%a: !obs.arr<4096 x i32>) -> !obs.arr<4096 x i32>
    attributes {threads = 256} {
  %s = obs.scan %a : !obs.arr<4096 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<4096 x i32>
}

// A float sum, whose rounding depends on the association order: the
// reference target computes the serial network's order itself.
obs.kernel @fsum1000(%a: !obs.arr<1000 x f32>) -> !obs.arr<1 x f32>
    attributes {threads = 96} {
  %s = obs.reduce %a : !obs.arr<1000 x f32> -> f32 {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    obs.yield %z : f32
  }
  %t = obs.generate : !obs.arr<1 x f32> {
  ^bb0(%i: index):
    obs.yield %s : f32
  }
  obs.return %t : !obs.arr<1 x f32>
}

// Named serial networks in a sub-program, whose runs are single elements:
// 2048 of them are 64 warps, whose totals take a second level (the scan of
// the warps' totals is itself serial, and the reduction folds level by
// level). Element i is the prefix sum plus the array's total.
obs.kernel @nested2048(%a: !obs.arr<2048 x i32>) -> !obs.arr<2048 x i32>
    attributes {threads = 1024} {
  %r = obs.repeat 1 %a : !obs.arr<2048 x i32> {
  ^bb0(%x: !obs.arr<2048 x i32>):
    %s = obs.scan %x network(serial) : !obs.arr<2048 x i32> {
    ^bb0(%p: i32, %q: i32):
      %z = arith.addi %p, %q : i32
      obs.yield %z : i32
    }
    %t = obs.reduce %x network(serial) : !obs.arr<2048 x i32> -> i32 {
    ^bb0(%p: i32, %q: i32):
      %z = arith.addi %p, %q : i32
      obs.yield %z : i32
    }
    %m = obs.map %s : !obs.arr<2048 x i32> -> !obs.arr<2048 x i32> {
    ^bb0(%v: i32):
      %z = arith.addi %v, %t : i32
      obs.yield %z : i32
    }
    %synced = obs.sync %m : !obs.arr<2048 x i32>
    obs.yield %synced : !obs.arr<2048 x i32>
  }
  obs.return %r : !obs.arr<2048 x i32>
}

// A float scan without a network takes the serial network too (runs of 11,
// 91 totals in 3 warps): the reference target computes its order itself,
// so the rounding agrees bit for bit.
obs.kernel @fscan1000(%a: !obs.arr<1000 x f32>) -> !obs.arr<1000 x f32>
    attributes {threads = 96} {
  %s = obs.scan %a : !obs.arr<1000 x f32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    obs.yield %z : f32
  }
  obs.return %s : !obs.arr<1000 x f32>
}

// Runs of 128 are too long for the serial default: 2048 f32 on 16 threads
// take Sklansky's network, 11 stages, which ref follows too.
obs.kernel @fsklansky2048(%a: !obs.arr<2048 x f32>) -> !obs.arr<2048 x f32>
    attributes {threads = 16} {
  %s = obs.scan %a : !obs.arr<2048 x f32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    obs.yield %z : f32
  }
  obs.return %s : !obs.arr<2048 x f32>
}

// A named serial float scan in a sub-program: 2048 runs of one element in
// 64 warps, whose totals are scanned one level up.
obs.kernel @fnested2048(%a: !obs.arr<2048 x f32>) -> !obs.arr<2048 x f32>
    attributes {threads = 1024} {
  %r = obs.repeat 1 %a : !obs.arr<2048 x f32> {
  ^bb0(%x: !obs.arr<2048 x f32>):
    %s = obs.scan %x network(serial) : !obs.arr<2048 x f32> {
    ^bb0(%p: f32, %q: f32):
      %z = arith.addf %p, %q : f32
      obs.yield %z : f32
    }
    %synced = obs.sync %s : !obs.arr<2048 x f32>
    obs.yield %synced : !obs.arr<2048 x f32>
  }
  obs.return %r : !obs.arr<2048 x f32>
}

// Runs of 64 (one warp): 63 run stages, in place, in shared memory.
obs.kernel @scan2048(%a: !obs.arr<2048 x i32>) -> !obs.arr<2048 x i32>
    attributes {threads = 32} {
  %s = obs.scan %a : !obs.arr<2048 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<2048 x i32>
}

// A reduction folds its runs in a loop: runs of 256 on 256 threads.
obs.kernel @sum65536(%a: !obs.arr<65536 x i32>) -> !obs.arr<1 x i32>
    attributes {threads = 256} {
  %s = obs.reduce %a : !obs.arr<65536 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  %t = obs.generate : !obs.arr<1 x i32> {
  ^bb0(%i: index):
    obs.yield %s : i32
  }
  obs.return %t : !obs.arr<1 x i32>
}

// Combines that are not associative (x - y) keep the left fold, their
// meaning, but one thread computes it once: a scan of 64 in 63 stages of
// one thread's run, a reduction of 1000 in one thread's loop.
obs.kernel @difference64(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32>
    attributes {threads = 32} {
  %s = obs.scan %a : !obs.arr<64 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.subi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<64 x i32>
}

obs.kernel @difference1000(%a: !obs.arr<1000 x i32>) -> !obs.arr<1000 x i32>
    attributes {threads = 96} {
  %d = obs.reduce %a : !obs.arr<1000 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %z = arith.subi %x, %y : i32
    obs.yield %z : i32
  }
  %m = obs.map %a : !obs.arr<1000 x i32> -> !obs.arr<1000 x i32> {
  ^bb0(%v: i32):
    %z = arith.addi %v, %d : i32
    obs.yield %z : i32
  }
  obs.return %m : !obs.arr<1000 x i32>
}

// A difference scan longer than a chain: the left fold, block by block.
obs.kernel @difference_scan1000(%a: !obs.arr<1000 x i32>)
    -> !obs.arr<1000 x i32> attributes {threads = 96} {
  %s = obs.scan %a : !obs.arr<1000 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.subi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<1000 x i32>
}

obs.kernel @fdifference_scan1000(%a: !obs.arr<1000 x f32>)
    -> !obs.arr<1000 x f32> attributes {threads = 96} {
  %s = obs.scan %a : !obs.arr<1000 x f32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.subf %x, %y : f32
    obs.yield %z : f32
  }
  obs.return %s : !obs.arr<1000 x f32>
}

// Scans whose array no stage may hold (64 KiB, more than half a block's
// shared memory): a sum stays serial, its runs of 64 kept at checkpoints
// every 8 elements, from which each element continues; a difference keeps
// the left fold from its blocks' last elements.
obs.kernel @scan16384(%a: !obs.arr<16384 x i32>) -> !obs.arr<16384 x i32>
    attributes {threads = 256} {
  %s = obs.scan %a : !obs.arr<16384 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<16384 x i32>
}

obs.kernel @fscan16384(%a: !obs.arr<16384 x f32>) -> !obs.arr<16384 x f32>
    attributes {threads = 256} {
  %s = obs.scan %a : !obs.arr<16384 x f32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    obs.yield %z : f32
  }
  obs.return %s : !obs.arr<16384 x f32>
}

obs.kernel @difference_scan16384(%a: !obs.arr<16384 x i32>)
    -> !obs.arr<16384 x i32> attributes {threads = 256} {
  %s = obs.scan %a : !obs.arr<16384 x i32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.subi %x, %y : i32
    obs.yield %z : i32
  }
  obs.return %s : !obs.arr<16384 x i32>
}

obs.kernel @fdifference_scan16384(%a: !obs.arr<16384 x f32>)
    -> !obs.arr<16384 x f32> attributes {threads = 256} {
  %s = obs.scan %a : !obs.arr<16384 x f32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.subf %x, %y : f32
    obs.yield %z : f32
  }
  obs.return %s : !obs.arr<16384 x f32>
}
