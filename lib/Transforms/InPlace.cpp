//===- InPlace.cpp - stages that overwrite what they read -----------------===//

#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/KernelSimulation.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSINPLACE
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsInPlacePass : mlir::obs::impl::ObsInPlaceBase<ObsInPlacePass> {
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    ChangedElementsCache cache;
    FailureOr<KernelSimulation> initial = simulateKernel(kernel, &cache);
    if (failed(initial))
      return signalPassFailure();
    if (!initial->hazards(/*limit=*/1).empty())
      return; // The verifier's to report.
    uint64_t identityWrites = initial->identityWrites;
    SmallVector<SyncOp> syncs;
    kernel.walk([&](SyncOp sync) { syncs.push_back(sync); });
    auto inPlace = PlacementAttr::get(kernel.getContext(), Placement::InPlace);
    for (auto [index, sync] : llvm::enumerate(syncs)) {
      if (sync.getPlacementAttr() || isOutputOnly(sync))
        continue;
      sync.setPlacementAttr(inPlace);
      FailureOr<KernelSimulation> trial = simulateKernel(kernel, &cache);
      if (failed(trial))
        return signalPassFailure();
      // Kept when the lowering found an array to overwrite and nothing
      // conflicts.
      if (trial->placedInPlace.contains(trial->syncs[index]) &&
          trial->hazards(/*limit=*/1).empty()) {
        addToStatistic(*this, numInPlace, "syncs-in-place");
        identityWrites = trial->identityWrites;
        continue;
      }
      sync.removePlacementAttr();
    }
    addToStatistic(*this, numIdentityWrites, "identity-writes-dropped",
                   identityWrites);
  }
};
} // namespace
