// RUN: obs-opt %s --obs-deduplicate-kernels --obs-statistics 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: obs-opt %s --obs-optimize | FileCheck %s --check-prefix=OPTIMIZE

// Tests of lib/Transforms/DeduplicateKernels.cpp: a private kernel
// identical to an earlier one but for its name is erased and its launches
// launch the earlier one; kernels that differ in anything else, public
// kernels, and a private kernel after an identical public one are kept.

// CHECK-LABEL: obs.kernel private @twice
obs.kernel private @twice(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  %1 = obs.sync %0 : !obs.arr<8 x i32>
  obs.return %1 : !obs.arr<8 x i32>
}

// The same code under another name: merged into @twice.
// CHECK-NOT: @twice_again
obs.kernel private @twice_again(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  %1 = obs.sync %0 : !obs.arr<8 x i32>
  obs.return %1 : !obs.arr<8 x i32>
}

// One constant differs (the op is a muli by 3, not an addi): kept.
// CHECK-LABEL: obs.kernel private @thrice
obs.kernel private @thrice(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %c3 = arith.constant 3 : i32
    %y = arith.muli %x, %c3 : i32
    obs.yield %y : i32
  }
  %1 = obs.sync %0 : !obs.arr<8 x i32>
  obs.return %1 : !obs.arr<8 x i32>
}

// CHECK-LABEL: obs.kernel private @four_times
obs.kernel private @four_times(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %c4 = arith.constant 4 : i32
    %y = arith.muli %x, %c4 : i32
    obs.yield %y : i32
  }
  %1 = obs.sync %0 : !obs.arr<8 x i32>
  obs.return %1 : !obs.arr<8 x i32>
}

// The same code with a block size: an attribute differs, kept.
// CHECK-LABEL: obs.kernel private @twice_on_4
// CHECK-SAME: threads = 4
obs.kernel private @twice_on_4(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32>
    attributes {threads = 4 : i64} {
  %0 = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  %1 = obs.sync %0 : !obs.arr<8 x i32>
  obs.return %1 : !obs.arr<8 x i32>
}

// The same code with an argument attribute: kept.
// CHECK-LABEL: obs.kernel private @twice_absent
// CHECK-SAME: obs.absent = 0 : i32
obs.kernel private @twice_absent(%a: !obs.arr<8 x i32> {obs.absent = 0 : i32}) -> !obs.arr<8 x i32> {
  %0 = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    obs.yield %y : i32
  }
  %1 = obs.sync %0 : !obs.arr<8 x i32>
  obs.return %1 : !obs.arr<8 x i32>
}

// Public kernels are entry points: two identical ones are both kept, and a
// private copy of them is not merged into them (visibility differs).
// CHECK-LABEL: obs.kernel @entry
obs.kernel @entry(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.sync %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}
// CHECK-LABEL: obs.kernel @entry_again
obs.kernel @entry_again(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.sync %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}
// CHECK-LABEL: obs.kernel private @entry_copy
obs.kernel private @entry_copy(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.sync %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// Every launch of the merged kernel launches the kept one.
// CHECK-LABEL: func.func @twice_over
// CHECK: obs.launch @twice grid(2)
// CHECK: obs.launch @twice grid(2)
// CHECK: obs.launch @thrice grid(2)
// CHECK: obs.launch @four_times grid(2)
// CHECK: obs.launch @twice_on_4 grid(2)
// CHECK: obs.launch @twice_absent grid(2)
// CHECK: obs.launch @entry_copy grid(2)
// OPTIMIZE-LABEL: func.func @twice_over
// OPTIMIZE: obs.launch @twice grid(2)
// OPTIMIZE: obs.launch @twice grid(2)
// OPTIMIZE-NOT: @twice_again
func.func @twice_over(%in: memref<16xi32>, %mid: memref<16xi32>,
                      %out: memref<16xi32>) {
  obs.launch @twice grid(2) ins(%in : memref<16xi32>) outs(%mid : memref<16xi32>)
  obs.launch @twice_again grid(2) ins(%mid : memref<16xi32>) outs(%out : memref<16xi32>)
  obs.launch @thrice grid(2) ins(%in : memref<16xi32>) outs(%out : memref<16xi32>)
  obs.launch @four_times grid(2) ins(%in : memref<16xi32>) outs(%out : memref<16xi32>)
  obs.launch @twice_on_4 grid(2) ins(%in : memref<16xi32>) outs(%out : memref<16xi32>)
  obs.launch @twice_absent grid(2) ins(%in : memref<16xi32>) outs(%out : memref<16xi32>)
  obs.launch @entry_copy grid(2) ins(%in : memref<16xi32>) outs(%out : memref<16xi32>)
  return
}

// STATS: obs-deduplicate-kernels
// STATS-NEXT: 1 kernels-merged
