//===- VerifyHostCode.cpp - host code only, before the host pipeline ------===//
//
// obs-verify-host-code: the host pipeline (obs-host-to-llvm) lowers func,
// scf, arith, math, memref and cf to the LLVM dialect, module-wide. Run on
// a module that still holds obs kernels, it lowered their element code as
// host code, and the kernels no longer verified ("'llvm.mlir.constant' op
// cannot be in element code"); an error at the first obs op says what
// to run first.
//
//===----------------------------------------------------------------------===//

#include "Obs/Conversion/Passes.h"
#include "Obs/Dialect/Obs/ObsDialect.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSVERIFYHOSTCODE
#include "Obs/Conversion/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;

namespace {
struct ObsVerifyHostCodePass
    : obs::impl::ObsVerifyHostCodeBase<ObsVerifyHostCodePass> {
  void runOnOperation() override {
    WalkResult result =
        getOperation()->walk<WalkOrder::PreOrder>([](Operation *op) {
          if (!isa_and_present<obs::ObsDialect>(op->getDialect()))
            return WalkResult::advance();
          op->emitOpError()
              << "is left for the host pipeline, which lowers host code only: "
                 "lower obs first (obs-reference, obs-to-cpu or obs-to-ptx)";
          return WalkResult::interrupt();
        });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
