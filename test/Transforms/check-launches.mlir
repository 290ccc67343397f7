// RUN: obs-opt %s -split-input-file --obs-check-launches --canonicalize | FileCheck %s
// RUN: obs-opt %s -split-input-file --obs-check-launches=grids=false --canonicalize | FileCheck %s --check-prefix=NO-GRIDS

// Tests of lib/Transforms/CheckLaunches.cpp: host code checks, before a
// launch or a call of a function that launches, what the launch proof
// takes as given and only the run knows. test/obs-run/launch-contract.test
// runs the checks.

obs.kernel @inc(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// Whole memrefs and a grid known to be small: nothing to check.
// CHECK-LABEL: func.func @whole
// CHECK-NOT: call @obs_launch_contract
// CHECK: obs.launch
func.func @whole(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c4 = arith.constant 4 : index
  obs.launch @inc grid(%c4) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// A grid given as a value is at most 2^31 - 1, or breach 5 reports it.
// CHECK-LABEL: func.func @grid
// CHECK-SAME: (%{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>, %[[GRID:.*]]: index)
// CHECK-DAG: %[[MOST:.*]] = arith.constant 2147483647 : index
// CHECK-DAG: %[[SMALL:.*]] = arith.cmpi sle, %[[GRID]], %[[MOST]] : index
// CHECK-DAG: %[[BREACH:.*]] = arith.select %[[SMALL]], %c0_i64, %c5_i64 : i64
// CHECK: call @obs_launch_contract(%[[BREACH]],
// CHECK-NEXT: obs.launch @inc grid(%[[GRID]])
// NO-GRIDS-LABEL: func.func @grid
// NO-GRIDS-NOT: call @obs_launch_contract
// NO-GRIDS: obs.launch
func.func @grid(%in: memref<?xi32>, %out: memref<?xi32>, %g: index) {
  obs.launch @inc grid(%g) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// -----

obs.kernel @inc(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// A view within its allocation: its span from its descriptor against the
// allocation's (breach 1, operand 1); and two views of one allocation
// that the proof took to be apart, apart (breach 2, operands 0 and 1).
// CHECK-LABEL: func.func @views
// CHECK-DAG: memref.extract_strided_metadata %[[BUF:.*]] :
// CHECK-DAG: memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK: call @obs_launch_contract
// CHECK-NEXT: obs.launch @inc
func.func @views(%buf: memref<?xi32>, %k: index, %g: index) {
  %lo = memref.subview %buf[0][%k][1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %hi = memref.subview %buf[%k][%k][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  obs.launch @inc grid(%g) ins(%lo : memref<?xi32, strided<[1]>>) outs(%hi : memref<?xi32, strided<[1], offset: ?>>)
  return
}

// -----

obs.kernel @inc(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func private @apply(%in: memref<?xi32, strided<[1]>>, %out: memref<?xi32, strided<[1], offset: ?>>) {
  %c4 = arith.constant 4 : index
  obs.launch @inc grid(%c4) ins(%in : memref<?xi32, strided<[1]>>) outs(%out : memref<?xi32, strided<[1], offset: ?>>)
  return
}

// A call of a function that launches: its views within the allocation and
// apart (breaches 3 and 4).
// CHECK-LABEL: func.func @call
// CHECK-DAG: arith.constant 3 : i64
// CHECK-DAG: arith.constant 4 : i64
// CHECK: call @obs_launch_contract
// CHECK-NEXT: call @apply
func.func @call(%buf: memref<?xi32>, %k: index) {
  %lo = memref.subview %buf[0][%k][1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %hi = memref.subview %buf[%k][%k][1] : memref<?xi32> to memref<?xi32, strided<[1], offset: ?>>
  call @apply(%lo, %hi) : (memref<?xi32, strided<[1]>>, memref<?xi32, strided<[1], offset: ?>>) -> ()
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// A view of a memref's first min(n, its size) elements (a device op's
// output, viewFirstElements) is proved within it (provedWithin): no check,
// which on cuda would make the stream wait before the launch. One of n
// elements, n unbounded, is checked. (Without the grids' checks, which
// are left to cuda's runtime.)
// NO-GRIDS-LABEL: func.func @prefix
// NO-GRIDS-NOT: call @obs_launch_contract
// NO-GRIDS: obs.launch
func.func @prefix(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %own = memref.dim %out, %c0 : memref<?xi32>
  %first = affine.min affine_map<()[s0, s1] -> (s0, s1)>()[%n, %own]
  %g = arith.ceildivui %first, %c4 : index
  %v = memref.subview %out[0] [%first] [1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  obs.launch @copy grid(%g) ins(%in : memref<?xi32>) outs(%v : memref<?xi32, strided<[1]>>)
  return
}
// NO-GRIDS-LABEL: func.func @unbounded
// NO-GRIDS: call @obs_launch_contract
// NO-GRIDS: obs.launch
func.func @unbounded(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %g = arith.ceildivui %n, %c4 : index
  %v = memref.subview %out[0] [%n] [1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  obs.launch @copy grid(%g) ins(%in : memref<?xi32>) outs(%v : memref<?xi32, strided<[1]>>)
  return
}
