//===- ScopeLaunchParameters.cpp - launches' parameters off the stack -----===//
//
// obs-scope-launch-parameters: the host stack a launch's parameters take is
// given back once the launch is made, so that a loop of launches runs in
// constant stack.
//
//===----------------------------------------------------------------------===//

#include "Obs/Conversion/Passes.h"
#include "Obs/Support/Statistics.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSSCOPELAUNCHPARAMETERS
#include "Obs/Conversion/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsScopeLaunchParametersPass
    : mlir::obs::impl::ObsScopeLaunchParametersBase<
          ObsScopeLaunchParametersPass> {
  void runOnOperation() override {
    // Only host code launches; a gpu.module's functions hold none.
    SmallVector<gpu::LaunchFuncOp> launches;
    getOperation()->walk(
        [&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    auto pointer = LLVM::LLVMPointerType::get(&getContext());
    for (gpu::LaunchFuncOp launch : launches) {
      OpBuilder builder(launch);
      Value saved =
          LLVM::StackSaveOp::create(builder, launch.getLoc(), pointer);
      builder.setInsertionPointAfter(launch);
      LLVM::StackRestoreOp::create(builder, launch.getLoc(), saved);
      addToStatistic(*this, numScoped, "launches-scoped");
    }
  }
};
} // namespace
