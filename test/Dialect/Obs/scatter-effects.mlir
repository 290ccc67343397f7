// RUN: obs-opt %s --cse --split-input-file | FileCheck %s

// A global scatter writes the launch's output memref: two alike are two
// writes (to two outputs), not one value; CSE keeps both, and a shared
// scatter alike is merged.
// CHECK-LABEL: obs.kernel @two_global_scatters
// CHECK: %[[A:.*]] = obs.scatter %{{.*}} at %{{.*}} global
// CHECK: %[[B:.*]] = obs.scatter %{{.*}} at %{{.*}} global
// CHECK: obs.return %[[A]], %[[B]]
obs.kernel @two_global_scatters(%p: !obs.arr<256 x i32>) -> (!obs.arr<1024 x i32>, !obs.arr<1024 x i32>) attributes {threads = 256} {
  %a = obs.scatter %p at %p global : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<1024 x i32>
  %b = obs.scatter %p at %p global : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<1024 x i32>
  obs.return %a, %b : !obs.arr<1024 x i32>, !obs.arr<1024 x i32>
}

// -----

// CHECK-LABEL: obs.kernel @two_shared_scatters
// CHECK: %[[A:.*]] = obs.scatter %{{.*}} at %{{.*}} initial(0 : i32)
// CHECK-NOT: obs.scatter
// CHECK: obs.return %[[A]], %[[A]]
obs.kernel @two_shared_scatters(%p: !obs.arr<256 x i32>) -> (!obs.arr<256 x i32>, !obs.arr<256 x i32>) attributes {threads = 256} {
  %a = obs.scatter %p at %p initial(0 : i32) : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<256 x i32>
  %b = obs.scatter %p at %p initial(0 : i32) : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<256 x i32>
  obs.return %a, %b : !obs.arr<256 x i32>, !obs.arr<256 x i32>
}
