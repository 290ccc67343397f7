//===- Flatten.cpp - the obs-flatten pass ---------------------------------===//
//
// Lifts every two, ilv and one that holds syncs to the whole array
// (Obs/KernelLowering/Flatten.h): the kernel lowering needs flat kernels.
//
//===----------------------------------------------------------------------===//

#include "Obs/KernelLowering/Flatten.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSFLATTEN
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsFlattenPass : mlir::obs::impl::ObsFlattenBase<ObsFlattenPass> {
  void runOnOperation() override {
    // A sub-program's scan lifted into element code would fold where its
    // network associated.
    if (failed(expandNetworksFirst(getOperation(),
                                   [&](OpPassManager &pm, Operation *op) {
                                     return runPipeline(pm, op);
                                   })))
      return signalPassFailure();
    if (failed(flattenKernel(
            getOperation(), [&] { addToStatistic(*this, numLifted, "lifted"); },
            [&] { addToStatistic(*this, numMergedSyncs, "merged-syncs"); })))
      signalPassFailure();
  }
};
} // namespace
