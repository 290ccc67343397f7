// RUN: obs-opt %s -split-input-file -verify-diagnostics --obs-lower-host-checks | FileCheck %s

// Tests of lib/Conversion/HostToLLVM/LowerHostChecks.cpp: a host
// function's cf.assert branches, where it fails, to one call of the
// runner's obs_host_check with its message as a C string.

// CHECK: llvm.mlir.global internal constant @obs_host_check_message_0("x.mlir:3:4: 'memref.load' op reads outside its memref\00")
// CHECK: func.func private @obs_host_check(!llvm.ptr)
// CHECK-LABEL: func.func @checked
// CHECK-NOT: obs.host_checked
// CHECK: cf.cond_br %arg0, ^[[AFTER:bb[0-9]+]], ^[[FAIL:bb[0-9]+]]
// CHECK: ^[[FAIL]]:
// CHECK: %[[MESSAGE:.*]] = llvm.mlir.addressof @obs_host_check_message_0
// CHECK: call @obs_host_check(%{{.*}})
// CHECK: cf.br ^[[AFTER]]
// CHECK: ^[[AFTER]]:
// CHECK-NOT: cf.assert
// CHECK: return
func.func @checked(%holds: i1) attributes {obs.host_checked} {
  cf.assert %holds, "x.mlir:3:4: 'memref.load' op reads outside its memref"
  return
}

// -----

// A branch needs the function's own blocks: scf is lowered first.
func.func @nested(%holds: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{'cf.assert' op is in a region of its own: lower scf to cf before obs-lower-host-checks}}
    cf.assert %holds, "inside a loop"
  }
  return
}
