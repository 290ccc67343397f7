// RUN: obs-opt %s --split-input-file | obs-opt --split-input-file | FileCheck %s
// RUN: obs-opt %s --split-input-file --canonicalize | FileCheck %s --check-prefix=CANON
// RUN: obs-opt %s --split-input-file --obs-lower-reference | FileCheck %s --check-prefix=REF

// Nothing the parser accepts crashes a verifier, a fold or a lowering: empty
// arrays, single elements, deep nesting, tuples of tuples.

// CHECK-LABEL: obs.kernel @empty
// CANON-LABEL: obs.kernel @empty
// REF-LABEL: func.func @empty(%{{.*}}: memref<0xi32>, %{{.*}}: memref<0xi32>, %{{.*}}: memref<0xi32>)
obs.kernel @empty(%a: !obs.arr<0 x i32>) -> (!obs.arr<0 x i32>, !obs.arr<0 x i32>) {
  %0 = obs.rev %a : !obs.arr<0 x i32>
  %1 = obs.riffle %0 : !obs.arr<0 x i32>
  %2 = obs.unriffle %1 : !obs.arr<0 x i32>
  %lo, %hi = obs.halve %2 : !obs.arr<0 x i32>
  %3 = obs.conc %lo, %hi : !obs.arr<0 x i32>, !obs.arr<0 x i32>
  %4 = obs.pair %3 : !obs.arr<0 x i32>
  %5 = obs.unpair %4 : !obs.arr<0 x tuple<i32, i32>>
  %6 = obs.evens %5 : !obs.arr<0 x i32> {
  ^bb0(%x: i32, %y: i32):
    obs.yield %y, %x : i32, i32
  }
  %7 = obs.odds %6 : !obs.arr<0 x i32> {
  ^bb0(%x: i32, %y: i32):
    obs.yield %y, %x : i32, i32
  }
  %8 = obs.fan %7 : !obs.arr<0 x i32> {
  ^bb0(%x: i32, %y: i32):
    obs.yield %y : i32
  }
  %9 = obs.two %8 : !obs.arr<0 x i32> -> !obs.arr<0 x i32> {
  ^bb0(%h: !obs.arr<0 x i32>):
    %r = obs.rev %h : !obs.arr<0 x i32>
    %s = obs.sync %r : !obs.arr<0 x i32>
    obs.yield %s : !obs.arr<0 x i32>
  }
  %10 = obs.ilv %9 : !obs.arr<0 x i32> -> !obs.arr<0 x i32> {
  ^bb0(%h: !obs.arr<0 x i32>):
    %r = obs.rev %h : !obs.arr<0 x i32>
    obs.yield %r : !obs.arr<0 x i32>
  }
  %11 = obs.one %10 : !obs.arr<0 x i32> -> !obs.arr<0 x i32> {
  ^bb0(%h: !obs.arr<0 x i32>):
    %r = obs.rev %h : !obs.arr<0 x i32>
    obs.yield %r : !obs.arr<0 x i32>
  }
  %12 = obs.repeat 3 %11 : !obs.arr<0 x i32> {
  ^bb0(%x: !obs.arr<0 x i32>):
    %r = obs.riffle %x : !obs.arr<0 x i32>
    %s = obs.sync %r : !obs.arr<0 x i32>
    obs.yield %s : !obs.arr<0 x i32>
  }
  %13 = obs.sync strided<4> %12 : !obs.arr<0 x i32>
  %14 = obs.zip %13, %13 : !obs.arr<0 x i32>, !obs.arr<0 x i32>
  %15, %16 = obs.unzip %14 : !obs.arr<0 x tuple<i32, i32>>
  obs.return %15, %16 : !obs.arr<0 x i32>, !obs.arr<0 x i32>
}

// -----

// CHECK-LABEL: obs.kernel @single
// CANON-LABEL: obs.kernel @single
// CANON-NEXT: obs.return %arg0
// REF-LABEL: func.func @single
obs.kernel @single(%a: !obs.arr<1 x i32>) -> !obs.arr<1 x i32> {
  %0 = obs.rev %a : !obs.arr<1 x i32>
  %1 = obs.sync blocked<3> %0 : !obs.arr<1 x i32>
  %2 = obs.reduce %1 : !obs.arr<1 x i32> -> i32 {
  ^bb0(%acc: i32, %x: i32):
    %s = arith.addi %acc, %x : i32
    obs.yield %s : i32
  }
  obs.return %0 : !obs.arr<1 x i32>
}

// -----

// Nested ten deep.
// CHECK-LABEL: obs.kernel @deep
// REF-LABEL: func.func @deep(%{{.*}}: memref<2x1x1x1x1x1x1x1x1x2xf32>
obs.kernel @deep(%a: !obs.arr<2 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<2 x f32>>>>>>>>>>)
    -> !obs.arr<2 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<2 x f32>>>>>>>>>> {
  %0 = obs.rev %a : !obs.arr<2 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<2 x f32>>>>>>>>>>
  %1 = obs.sync %0 : !obs.arr<2 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<2 x f32>>>>>>>>>>
  obs.return %1 : !obs.arr<2 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<1 x !obs.arr<2 x f32>>>>>>>>>>
}

// -----

// Tuples of tuples flatten in order.
// CHECK-LABEL: obs.kernel @tuples
// REF-LABEL: func.func @tuples(%{{.*}}: memref<2xi8>, %{{.*}}: memref<2xi16>, %{{.*}}: memref<2xi64>, %{{.*}}: memref<2xi8>, %{{.*}}: memref<2xi16>, %{{.*}}: memref<2xi64>)
obs.kernel @tuples(%a: !obs.arr<2 x tuple<tuple<i8, i16>, i64>>) -> !obs.arr<2 x tuple<tuple<i8, i16>, i64>> {
  %0 = obs.map %a : !obs.arr<2 x tuple<tuple<i8, i16>, i64>> -> !obs.arr<2 x tuple<tuple<i8, i16>, i64>> {
  ^bb0(%x: i8, %y: i16, %z: i64):
    obs.yield %x, %y, %z : i8, i16, i64
  }
  %p = obs.pair %0 : !obs.arr<2 x tuple<tuple<i8, i16>, i64>>
  %u = obs.unpair %p : !obs.arr<1 x tuple<tuple<tuple<i8, i16>, i64>, tuple<tuple<i8, i16>, i64>>>
  obs.return %u : !obs.arr<2 x tuple<tuple<i8, i16>, i64>>
}
