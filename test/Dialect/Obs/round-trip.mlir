// RUN: obs-opt %s | obs-opt | FileCheck %s
// RUN: obs-opt %s --mlir-print-op-generic | obs-opt | FileCheck %s
// RUN: obs-opt %s --emit-bytecode | obs-opt | FileCheck %s

// CHECK-LABEL: obs.kernel @types
// CHECK-SAME: (%{{.*}}: !obs.arr<8 x i32>, %{{.*}}: !obs.arr<4 x tuple<i32, f32>>, %{{.*}}: !obs.arr<2 x !obs.arr<3 x f64>>, %{{.*}}: !obs.arr<0 x i1>, %{{.*}}: !obs.arr<1 x tuple<tuple<i8, i16>, i64>>, %{{.*}}: !obs.arr<2 x f16>)
// CHECK-SAME: -> !obs.arr<8 x i32>
obs.kernel @types(%a: !obs.arr<8 x i32>, %b: !obs.arr<4 x tuple<i32, f32>>,
                  %c: !obs.arr<2 x !obs.arr<3 x f64>>, %d: !obs.arr<0 x i1>,
                  %e: !obs.arr<1 x tuple<tuple<i8, i16>, i64>>,
                  %f: !obs.arr<2 x f16>) -> !obs.arr<8 x i32> {
  obs.return %a : !obs.arr<8 x i32>
}

// CHECK-LABEL: obs.kernel @syncs
// CHECK-SAME: attributes {threads = 4 : i64}
// CHECK: obs.sync %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync warp %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync inplace %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync strided<4> %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync warp inplace blocked<2> %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync block fresh %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync warp inplace strided<4> %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync plan(warp inplace strided<4>) %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync warp plan(blocked<2>) %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync block strided<4> plan(inplace) %{{.*}} {note = #obs.plan<warp compact<4>>} : !obs.arr<8 x i32>
// CHECK: obs.sync blocked<2> registers %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync shared plan(strided<4>) %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.sync plan(blocked<2> registers) %{{.*}} {note = #obs.plan<registers>} : !obs.arr<8 x i32>
obs.kernel @syncs(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32>
    attributes {threads = 4} {
  %0 = obs.sync %a : !obs.arr<8 x i32>
  %1 = obs.sync warp %0 : !obs.arr<8 x i32>
  %2 = obs.sync inplace %1 : !obs.arr<8 x i32>
  %3 = obs.sync strided<4> %2 : !obs.arr<8 x i32>
  %4 = obs.sync warp inplace blocked<2> %3 : !obs.arr<8 x i32>
  // Written out, the defaults are the user's choice and stay; in any order.
  %5 = obs.sync block fresh %4 : !obs.arr<8 x i32>
  %6 = obs.sync strided<4> inplace warp %5 : !obs.arr<8 x i32>
  // What passes chose: the plan, apart from what is written.
  %7 = obs.sync plan(strided<4> inplace warp) %6 : !obs.arr<8 x i32>
  %8 = obs.sync warp plan(blocked<2>) %7 : !obs.arr<8 x i32>
  %9 = obs.sync strided<4> block plan(inplace) %8 {note = #obs.plan<compact<4> warp>} : !obs.arr<8 x i32>
  // Storage: written, then planned.
  %10 = obs.sync registers blocked<2> %9 : !obs.arr<8 x i32>
  %11 = obs.sync shared plan(strided<4>) %10 : !obs.arr<8 x i32>
  %12 = obs.sync plan(registers blocked<2>) %11 {note = #obs.plan<registers>} : !obs.arr<8 x i32>
  obs.return %12 : !obs.arr<8 x i32>
}

// CHECK-LABEL: obs.kernel @index_functions
// CHECK: %[[G:.*]] = obs.generate : !obs.arr<8 x i32> {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK: obs.yield %{{.*}} : i32
// CHECK: obs.map %[[G]], %[[G]] : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x tuple<i32, i32>> {
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i32):
// CHECK: obs.yield %{{.*}}, %{{.*}} : i32, i32
// CHECK: obs.index %[[G]][%{{.*}}] : !obs.arr<8 x i32>
// CHECK: obs.index %{{.*}}[%{{.*}}] : !obs.arr<8 x tuple<i32, i32>>
// CHECK: obs.index %{{.*}}[%{{.*}}] : !obs.arr<2 x !obs.arr<3 x f64>>
obs.kernel @index_functions(%grid: !obs.arr<2 x !obs.arr<3 x f64>>)
    -> !obs.arr<8 x tuple<i32, i32>> {
  %g = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    %x = arith.index_cast %i : index to i32
    obs.yield %x : i32
  }
  %m = obs.map %g, %g : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x tuple<i32, i32>> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %x, %s : i32, i32
  }
  %c1 = arith.constant 1 : index
  %e = obs.index %g[%c1] : !obs.arr<8 x i32>
  %p0, %p1 = obs.index %m[%c1] : !obs.arr<8 x tuple<i32, i32>>
  %row = obs.index %grid[%c1] : !obs.arr<2 x !obs.arr<3 x f64>>
  obs.return %m : !obs.arr<8 x tuple<i32, i32>>
}

// CHECK-LABEL: obs.kernel @shapes
// CHECK: obs.rev %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.riffle %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.unriffle %{{.*}} : !obs.arr<8 x i32>
// CHECK: %[[LO:.*]], %[[HI:.*]] = obs.halve %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.conc %[[HI]], %[[LO]] : !obs.arr<4 x i32>, !obs.arr<4 x i32>
// CHECK: %[[P:.*]] = obs.pair %{{.*}} : !obs.arr<8 x i32>
// CHECK: obs.unpair %[[P]] : !obs.arr<4 x tuple<i32, i32>>
// CHECK: %[[Z:.*]] = obs.zip %{{.*}}, %{{.*}} : !obs.arr<8 x i32>, !obs.arr<8 x f32>
// CHECK: obs.unzip %[[Z]] : !obs.arr<8 x tuple<i32, f32>>
obs.kernel @shapes(%a: !obs.arr<8 x i32>, %f: !obs.arr<8 x f32>) -> !obs.arr<8 x i32> {
  %0 = obs.rev %a : !obs.arr<8 x i32>
  %1 = obs.riffle %0 : !obs.arr<8 x i32>
  %2 = obs.unriffle %1 : !obs.arr<8 x i32>
  %lo, %hi = obs.halve %2 : !obs.arr<8 x i32>
  %3 = obs.conc %hi, %lo : !obs.arr<4 x i32>, !obs.arr<4 x i32>
  %4 = obs.pair %3 : !obs.arr<8 x i32>
  %5 = obs.unpair %4 : !obs.arr<4 x tuple<i32, i32>>
  %6 = obs.zip %5, %f : !obs.arr<8 x i32>, !obs.arr<8 x f32>
  %7, %8 = obs.unzip %6 : !obs.arr<8 x tuple<i32, f32>>
  obs.return %7 : !obs.arr<8 x i32>
}

// CHECK-LABEL: obs.kernel @element_combinators
// CHECK: obs.evens %{{.*}} : !obs.arr<8 x i32> {
// CHECK: obs.odds %{{.*}} : !obs.arr<8 x i32> {
// CHECK: obs.fan %{{.*}} : !obs.arr<8 x i32> {
// CHECK: obs.reduce %{{.*}} : !obs.arr<8 x i32> -> i32 {
obs.kernel @element_combinators(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %0 = obs.evens %a : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %lo = arith.minsi %x, %y : i32
    %hi = arith.maxsi %x, %y : i32
    obs.yield %lo, %hi : i32, i32
  }
  %1 = obs.odds %0 : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    obs.yield %y, %x : i32, i32
  }
  %2 = obs.fan %1 : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %sum = obs.reduce %2 : !obs.arr<8 x i32> -> i32 {
  ^bb0(%acc: i32, %x: i32):
    %s = arith.addi %acc, %x : i32
    obs.yield %s : i32
  }
  obs.return %2 : !obs.arr<8 x i32>
}

// CHECK-LABEL: obs.kernel @programs
// CHECK: obs.two %{{.*}} : !obs.arr<8 x i32> -> !obs.arr<4 x i32> {
// CHECK-NEXT: ^bb0(%{{.*}}: !obs.arr<4 x i32>):
// CHECK: obs.sync
// CHECK: obs.yield %{{.*}} : !obs.arr<2 x i32>
// CHECK: obs.ilv %{{.*}} : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
// CHECK: obs.one %{{.*}} : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
// CHECK: obs.repeat 3 %{{.*}} : !obs.arr<4 x i32> {
obs.kernel @programs(%a: !obs.arr<8 x i32>) -> !obs.arr<4 x i32> {
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %p = obs.pair %h : !obs.arr<4 x i32>
    %s = obs.map %p : !obs.arr<2 x tuple<i32, i32>> -> !obs.arr<2 x i32> {
    ^bb0(%x: i32, %y: i32):
      %t = arith.addi %x, %y : i32
      obs.yield %t : i32
    }
    %r = obs.sync %s : !obs.arr<2 x i32>
    obs.yield %r : !obs.arr<2 x i32>
  }
  %1 = obs.ilv %0 : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%h: !obs.arr<2 x i32>):
    %r = obs.rev %h : !obs.arr<2 x i32>
    obs.yield %r : !obs.arr<2 x i32>
  }
  %2 = obs.one %1 : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%h: !obs.arr<2 x i32>):
    %r = obs.rev %h : !obs.arr<2 x i32>
    obs.yield %r : !obs.arr<2 x i32>
  }
  %3 = obs.repeat 3 %2 : !obs.arr<4 x i32> {
  ^bb0(%x: !obs.arr<4 x i32>):
    %r = obs.riffle %x : !obs.arr<4 x i32>
    %s = obs.sync %r : !obs.arr<4 x i32>
    obs.yield %s : !obs.arr<4 x i32>
  }
  obs.return %3 : !obs.arr<4 x i32>
}

// Nested arrays: a map over rows whose region is an array program.
// CHECK-LABEL: obs.kernel @rows
// CHECK: obs.map %{{.*}} : !obs.arr<4 x !obs.arr<4 x f32>> -> !obs.arr<4 x !obs.arr<4 x f32>> {
// CHECK-NEXT: ^bb0(%[[ROW:.*]]: !obs.arr<4 x f32>):
// CHECK: obs.rev %[[ROW]] : !obs.arr<4 x f32>
obs.kernel @rows(%g: !obs.arr<4 x !obs.arr<4 x f32>>) -> !obs.arr<4 x !obs.arr<4 x f32>> {
  %0 = obs.map %g : !obs.arr<4 x !obs.arr<4 x f32>> -> !obs.arr<4 x !obs.arr<4 x f32>> {
  ^bb0(%row: !obs.arr<4 x f32>):
    %r = obs.rev %row : !obs.arr<4 x f32>
    obs.yield %r : !obs.arr<4 x f32>
  }
  obs.return %0 : !obs.arr<4 x !obs.arr<4 x f32>>
}

// Attributes print in their own form too (under names of another dialect:
// an obs.* name on an op must be one of obs's own, which errors.mlir
// checks).
// CHECK-LABEL: func.func @attributes
// CHECK-SAME: test.how = #obs.strided<256>
// CHECK-SAME: test.other = #obs.blocked<2>
// CHECK-SAME: test.placement = #obs.placement<inplace>
// CHECK-SAME: test.scope = #obs.scope<warp>
func.func @attributes() attributes {test.how = #obs.strided<256>, test.other = #obs.blocked<2>, test.scope = #obs.scope<warp>, test.placement = #obs.placement<inplace>} {
  return
}

// Scans, sorts and reductions, with and without a network.
// CHECK-LABEL: obs.kernel @networks
// CHECK: obs.scan %{{.*}} network(sklansky) : !obs.arr<8 x i32>
// CHECK: obs.scan %{{.*}} network(kogge_stone) : !obs.arr<8 x i32>
// CHECK: obs.scan %{{.*}} network(brent_kung) : !obs.arr<8 x i32>
// CHECK: obs.scan %{{.*}} : !obs.arr<6 x tuple<i32, f32>>
// CHECK: obs.sort %{{.*}} network(periodic) : !obs.arr<8 x i32>
// CHECK: obs.sort %{{.*}} network(odd_even_merge) : !obs.arr<8 x i32>
// CHECK: obs.sort %{{.*}} network(bitonic) : !obs.arr<8 x i32>
// CHECK: obs.sort %{{.*}} : !obs.arr<5 x i32>
// CHECK: obs.reduce %{{.*}} network(tree) : !obs.arr<5 x i32> -> i32
obs.kernel @networks(%a: !obs.arr<8 x i32>, %t: !obs.arr<6 x tuple<i32, f32>>, %f: !obs.arr<5 x i32>) {
  %0 = obs.scan %a network(sklansky) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %1 = obs.scan %a network(kogge_stone) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %2 = obs.scan %a network(brent_kung) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  %3 = obs.scan %t : !obs.arr<6 x tuple<i32, f32>> {
  ^bb0(%x0: i32, %x1: f32, %y0: i32, %y1: f32):
    %s = arith.addi %x0, %y0 : i32
    %p = arith.mulf %x1, %y1 : f32
    obs.yield %s, %p : i32, f32
  }
  %4 = obs.sort %a network(periodic) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %l = arith.cmpi slt, %x, %y : i32
    obs.yield %l : i1
  }
  %5 = obs.sort %a network(odd_even_merge) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %l = arith.cmpi slt, %x, %y : i32
    obs.yield %l : i1
  }
  %6 = obs.sort %a network(bitonic) : !obs.arr<8 x i32> {
  ^bb0(%x: i32, %y: i32):
    %l = arith.cmpi slt, %x, %y : i32
    obs.yield %l : i1
  }
  %7 = obs.sort %f : !obs.arr<5 x i32> {
  ^bb0(%x: i32, %y: i32):
    %l = arith.cmpi ult, %x, %y : i32
    obs.yield %l : i1
  }
  %8 = obs.reduce %f network(tree) : !obs.arr<5 x i32> -> i32 {
  ^bb0(%x: i32, %y: i32):
    %s = arith.maxsi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return
}

// Launches whose sizes are known at run time, and where a block is.
// CHECK-LABEL: obs.kernel @positioned
// CHECK-SAME: (%{{.*}}: !obs.arr<4 x tuple<i32, f32>> {obs.absent = [0 : i32, 1.000000e+00 : f32]}, %{{.*}}: !obs.arr<4 x i32> {obs.absent = -1 : i32})
// CHECK: obs.block_id
// CHECK: obs.extent %{{.*}} : !obs.arr<4 x tuple<i32, f32>>
obs.kernel @positioned(%a: !obs.arr<4 x tuple<i32, f32>> {obs.absent = [0 : i32, 1.0 : f32]},
                       %b: !obs.arr<4 x i32> {obs.absent = -1 : i32}) -> !obs.arr<4 x i32> {
  %block = obs.block_id
  %present = obs.extent %a : !obs.arr<4 x tuple<i32, f32>>
  %0 = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %s = arith.addi %block, %present : index
    %t = arith.addi %s, %i : index
    %x = arith.index_cast %t : index to i32
    obs.yield %x : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}
// CHECK-LABEL: func.func @run_positioned
// CHECK: obs.launch @positioned grid(%{{.*}}) ins(%{{.*}} : memref<?xi32>, memref<?xf32>, memref<8xi32>) outs(%{{.*}} : memref<?xi32>)
// CHECK: obs.launch @positioned grid(3) ins(%{{.*}} : memref<?xi32>, memref<?xf32>, memref<8xi32>) outs(%{{.*}} : memref<?xi32>)
func.func @run_positioned(%a: memref<?xi32>, %b: memref<?xf32>, %c: memref<8xi32>, %out: memref<?xi32>, %grid: index) {
  obs.launch @positioned grid(%grid) ins(%a, %b, %c : memref<?xi32>, memref<?xf32>, memref<8xi32>) outs(%out : memref<?xi32>)
  obs.launch @positioned grid(3) ins(%a, %b, %c : memref<?xi32>, memref<?xf32>, memref<8xi32>) outs(%out : memref<?xi32>)
  return
}

// The device-level ops.

// CHECK-LABEL: func.func @device_ops
// CHECK: obs.device_map ins(%{{.*}} : memref<?xi32>) outs(%{{.*}}, %{{.*}} : memref<?xi8>, memref<?xf32>) {
// CHECK: obs.device_map ins(%{{.*}} : memref<?xf32>) scalars(%{{.*}} : memref<1xf32>) outs(%{{.*}} : memref<?xf32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK: obs.device_reduce ins(%{{.*}}, %{{.*}} : memref<?xi8>, memref<?xf32>) outs(%{{.*}}, %{{.*}} : memref<1xi8>, memref<1xf32>) identity [0 : i8, 0.000000e+00 : f32] {
// CHECK: obs.device_scan exclusive ins(%{{.*}} : memref<?xi32>) outs(%{{.*}} : memref<?xi32>) identity [0 : i32] {
func.func @device_ops(%in: memref<?xi32>, %flags: memref<?xi8>, %values: memref<?xf32>,
                      %flag: memref<1xi8>, %value: memref<1xf32>, %out: memref<?xi32>) {
  obs.device_map ins(%in : memref<?xi32>) outs(%flags, %values : memref<?xi8>, memref<?xf32>) {
  ^bb0(%x: i32):
    %f = arith.trunci %x : i32 to i8
    %v = arith.sitofp %x : i32 to f32
    obs.yield %f, %v : i8, f32
  }
  obs.device_map ins(%values : memref<?xf32>) scalars(%value : memref<1xf32>) outs(%values : memref<?xf32>) {
  ^bb0(%v: f32, %s: f32):
    %d = arith.subf %v, %s : f32
    obs.yield %d : f32
  }
  obs.device_reduce ins(%flags, %values : memref<?xi8>, memref<?xf32>)
      outs(%flag, %value : memref<1xi8>, memref<1xf32>) identity [0 : i8, 0.0 : f32] {
  ^bb0(%f1: i8, %v1: f32, %f2: i8, %v2: f32):
    %f = arith.ori %f1, %f2 : i8
    %v = arith.addf %v1, %v2 : f32
    obs.yield %f, %v : i8, f32
  }
  obs.device_scan exclusive ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) identity [0 : i32] {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  return
}

// A private kernel: compiled only for its launches.
// CHECK-LABEL: obs.kernel private @private_kernel(
obs.kernel private @private_kernel(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// Scatters: at most once, and merged by a combine.
// CHECK-LABEL: obs.kernel @scatters(
// CHECK: obs.scatter %{{.*}} at %{{.*}} initial(-1 : i32) : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<16 x i32>
// CHECK: obs.scatter %{{.*}} at %{{.*}} combine(max) initial(0.000000e+00 : f32) : !obs.arr<8 x f32>, !obs.arr<8 x i64> -> !obs.arr<4 x f32>
obs.kernel @scatters(%a: !obs.arr<8 x i32>, %f: !obs.arr<8 x f32>, %p: !obs.arr<8 x i64>) -> (!obs.arr<16 x i32>, !obs.arr<4 x f32>) {
  %s = obs.scatter %a at %a initial(-1 : i32) : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<16 x i32>
  %m = obs.scatter %f at %p combine(max) initial(0.0 : f32) : !obs.arr<8 x f32>, !obs.arr<8 x i64> -> !obs.arr<4 x f32>
  obs.return %s, %m : !obs.arr<16 x i32>, !obs.arr<4 x f32>
}

// Global scatters: into the launch's memref, with or without a combine.
// CHECK-LABEL: obs.kernel @global_scatters(
// CHECK: obs.scatter %{{.*}} at %{{.*}} global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<2147483647 x i32>
// CHECK: obs.scatter %{{.*}} at %{{.*}} combine(min) global : !obs.arr<8 x f32>, !obs.arr<8 x i64> -> !obs.arr<4 x f32>
obs.kernel @global_scatters(%a: !obs.arr<8 x i32>, %f: !obs.arr<8 x f32>, %p: !obs.arr<8 x i64>) -> (!obs.arr<2147483647 x i32>, !obs.arr<4 x f32>) {
  %s = obs.scatter %a at %a global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<2147483647 x i32>
  %m = obs.scatter %f at %p combine(min) global : !obs.arr<8 x f32>, !obs.arr<8 x i64> -> !obs.arr<4 x f32>
  obs.return %s, %m : !obs.arr<2147483647 x i32>, !obs.arr<4 x f32>
}

// A halo argument and its launch: the memref holds the blocks' tiles.
// CHECK-LABEL: obs.kernel @halo(
// CHECK-SAME: {obs.halo = #obs.halo<2, wrap>}
obs.kernel @halo(%a: !obs.arr<8 x i32> {obs.halo = #obs.halo<2, wrap>}) -> !obs.arr<4 x i32> {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    obs.yield %x : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}
// CHECK-LABEL: func.func @halo_launch
// CHECK: obs.launch @halo grid(3) ins(%{{.*}} : memref<12xi32>) outs(%{{.*}} : memref<12xi32>)
func.func @halo_launch(%x: memref<12xi32>, %y: memref<12xi32>) {
  obs.launch @halo grid(3) ins(%x : memref<12xi32>) outs(%y : memref<12xi32>)
  return
}

// A tiled launch: a grid of 2 x 3 blocks, each over a tile of 2 rows of 4
// (a tuple's two memrefs, one layout each), and a transposing one.
obs.kernel @tile(%a: !obs.arr<2 x !obs.arr<4 x tuple<i32, f32>>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  %r = obs.generate : !obs.arr<2 x !obs.arr<4 x i32>> {
  ^bb0(%i: index):
    %row = obs.generate : !obs.arr<4 x i32> {
    ^bb0(%j: index):
      %in = obs.index %a[%i] : !obs.arr<2 x !obs.arr<4 x tuple<i32, f32>>>
      %x, %y = obs.index %in[%j] : !obs.arr<4 x tuple<i32, f32>>
      obs.yield %x : i32
    }
    obs.yield %row : !obs.arr<4 x i32>
  }
  obs.return %r : !obs.arr<2 x !obs.arr<4 x i32>>
}
// CHECK-LABEL: func.func @tiled_launch
// CHECK: obs.launch @tile grid(2, 3) ins(%{{.*}}, %{{.*}} : memref<4x12xi32>, memref<4x12xf32>) outs(%{{.*}} : memref<4x12xi32>)
// CHECK: obs.launch @tile grid(2, 3) ins(%{{.*}}, %{{.*}} : memref<4x12xi32>, memref<4x12xf32>) outs(%{{.*}} : memref<6x8xi32>) layouts [#map{{[0-9]*}}, #map{{[0-9]*}}, #map{{[0-9]*}}]
func.func @tiled_launch(%x: memref<4x12xi32>, %y: memref<4x12xf32>, %z: memref<4x12xi32>, %t: memref<6x8xi32>) {
  obs.launch @tile grid(2, 3) ins(%x, %y : memref<4x12xi32>, memref<4x12xf32>) outs(%z : memref<4x12xi32>)
  obs.launch @tile grid(2, 3) ins(%x, %y : memref<4x12xi32>, memref<4x12xf32>) outs(%t : memref<6x8xi32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c, r)>]
  return
}
