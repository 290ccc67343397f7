// obs-deduplicate-kernels compares kernels by their printed text, which
// MLIR's --mlir-print-* options must not change (hunt 27): under
// --mlir-print-skip-regions two kernels of one signature printed alike,
// and both launches ran x + 1. Bytecode ignores the printing options, so
// it shows the program the pass left.
// RUN: obs-opt %s --obs-deduplicate-kernels --mlir-print-skip-regions --emit-bytecode -o %t.bc
// RUN: obs-opt %t.bc | FileCheck %s
// RUN: obs-opt %s --obs-deduplicate-kernels --mlir-print-debuginfo --emit-bytecode -o %t.debug.bc
// RUN: obs-opt %t.debug.bc | FileCheck %s
// The two kernels stay, each with its constant, each launched.
// CHECK-DAG: obs.kernel private @plus1
// CHECK-DAG: arith.constant 1 : i32
// CHECK-DAG: obs.kernel private @plus100
// CHECK-DAG: arith.constant 100 : i32
// CHECK: obs.launch @plus1
// CHECK: obs.launch @plus100

obs.kernel private @plus1(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %m = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %c = arith.constant 1 : i32
    %y = arith.addi %x, %c : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<8 x i32>
}
obs.kernel private @plus100(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %m = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    %c = arith.constant 100 : i32
    %y = arith.addi %x, %c : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<8 x i32>
}
func.func @f(%in: memref<8xi32>, %o1: memref<8xi32>, %o2: memref<8xi32>) {
  obs.launch @plus1 grid(1) ins(%in : memref<8xi32>) outs(%o1 : memref<8xi32>)
  obs.launch @plus100 grid(1) ins(%in : memref<8xi32>) outs(%o2 : memref<8xi32>)
  return
}
