// out[i] = (a[i xor 1] + 1) * 1000 + rev(a)[max(i - 1, 0)]: the first array
// is read only by the thread that computed it (under blocked<2>), the
// reversal by its neighbour, across a block barrier. @written keeps the
// first in registers as written; @open leaves the storage to
// obs-promote-registers.
obs.kernel @written(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> attributes {threads = 256} {
  %c1 = arith.constant 1 : i32
  %c1000 = arith.constant 1000 : i32
  %0 = obs.map %a : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  %1 = obs.sync registers blocked<2> %0 : !obs.arr<512 x i32>
  %r = obs.rev %a : !obs.arr<512 x i32>
  %2 = obs.sync blocked<2> %r : !obs.arr<512 x i32>
  %3 = obs.generate : !obs.arr<512 x i32> {
  ^bb0(%i: index):
    %one = arith.constant 1 : index
    %zero = arith.constant 0 : index
    %j = arith.xori %i, %one : index
    %x = obs.index %1[%j] : !obs.arr<512 x i32>
    %k = arith.subi %i, %one : index
    %first = arith.cmpi eq, %i, %zero : index
    %kk = arith.select %first, %zero, %k : index
    %y = obs.index %2[%kk] : !obs.arr<512 x i32>
    %xm = arith.muli %x, %c1000 : i32
    %s = arith.addi %xm, %y : i32
    obs.yield %s : i32
  }
  %4 = obs.sync blocked<2> %3 : !obs.arr<512 x i32>
  obs.return %4 : !obs.arr<512 x i32>
}

obs.kernel @open(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32> attributes {threads = 256} {
  %c1 = arith.constant 1 : i32
  %c1000 = arith.constant 1000 : i32
  %0 = obs.map %a : !obs.arr<512 x i32> -> !obs.arr<512 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %c1 : i32
    obs.yield %y : i32
  }
  %1 = obs.sync %0 : !obs.arr<512 x i32>
  %r = obs.rev %a : !obs.arr<512 x i32>
  %2 = obs.sync %r : !obs.arr<512 x i32>
  %3 = obs.generate : !obs.arr<512 x i32> {
  ^bb0(%i: index):
    %one = arith.constant 1 : index
    %zero = arith.constant 0 : index
    %j = arith.xori %i, %one : index
    %x = obs.index %1[%j] : !obs.arr<512 x i32>
    %k = arith.subi %i, %one : index
    %first = arith.cmpi eq, %i, %zero : index
    %kk = arith.select %first, %zero, %k : index
    %y = obs.index %2[%kk] : !obs.arr<512 x i32>
    %xm = arith.muli %x, %c1000 : i32
    %s = arith.addi %xm, %y : i32
    obs.yield %s : i32
  }
  %4 = obs.sync %3 : !obs.arr<512 x i32>
  obs.return %4 : !obs.arr<512 x i32>
}
