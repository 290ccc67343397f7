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
          // A gpu.func (obs-run --emit=gpu's output given to ref's
          // pipeline) reached memref-to-llvm, which reported its workgroup
          // memory without failing: exit 0 with a half-lowered module (an
          // adversarial run). Named, not cast: no dependence on gpu.
          if (op->getName().getStringRef() == "gpu.func") {
            op->emitOpError()
                << "is left for the host pipeline, which compiles no "
                   "kernels: the cpu target runs a gpu.module's functions "
                   "(obs-gpu-to-cpu), and a GPU its binary "
                   "(gpu-module-to-binary)";
            return WalkResult::interrupt();
          }
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
