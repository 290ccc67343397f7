// The host allocations obs-expand-device makes (a device sort's
// temporaries) are checked to be given, as obs-check-host-code, which ran
// before it, checks a program's own: short of memory, they were not given
// and the sort's first store faulted (found by a defect hunt). Each names
// the device op's line.
// RUN: obs-opt %examples/device/sort.mlir --obs-check-host-code --obs-expand-device | FileCheck %s
// CHECK: sort.mlir:20:3: 'memref.alloc' op could not allocate its memory
// A function obs-check-host-code has not checked gets none (its checks
// come with the rest).
// RUN: obs-opt %examples/device/sort.mlir --obs-expand-device | not grep -q 'could not allocate'
