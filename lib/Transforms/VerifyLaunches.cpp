//===- VerifyLaunches.cpp - launch layouts, proved place by place ---------===//

#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSVERIFYLAUNCHES
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsVerifyLaunchesPass
    : mlir::obs::impl::ObsVerifyLaunchesBase<ObsVerifyLaunchesPass> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    WalkResult result = getOperation().walk([&](LaunchOp launch) {
      if (!launch.getLayoutsAttr())
        return WalkResult::advance();
      auto kernel = symbols.lookupNearestSymbolFrom<KernelOp>(
          launch, launch.getKernelAttr());
      if (!kernel || failed(launch.verifyLayoutPlaces(kernel)))
        return WalkResult::interrupt();
      addToStatistic(*this, numLaunches, "launches");
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
