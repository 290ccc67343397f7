//===- InPlace.cpp - stages that overwrite what they read -----------------===//

#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Support/Statistics.h"
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
    auto &simulations = getAnalysis<KernelSimulations>();
    SimulationCount count(*this, numSimulations, numSimulationsReused,
                          numSimulationsRescoped, simulations);
    FailureOr<bool> safe = isSafeToRefine(kernel, simulations);
    if (failed(safe))
      return signalPassFailure();
    if (!*safe)
      return;
    SmallVector<SyncOp> candidates;
    kernel.walk([&](SyncOp sync) {
      // An array kept by its threads has no buffer to place.
      if (!sync.getEffectivePlacementAttr() && !sync.isOutputOnly() &&
          !sync.isKeptByThreads())
        candidates.push_back(sync);
    });
    // A shared-memory plan (obs-plan-shared run before) gave each buffer
    // bytes for the time it was live; writing a stage over its input makes
    // that input live longer, into bytes the plan may have handed on. No
    // race shows that, so the plan goes: the choices are made, and
    // simulated, on buffers of their own, and the plan comes back only when
    // no sync went in place.
    SharedPlan plan = takeSharedPlan(kernel);
    auto inPlace = PlacementAttr::get(kernel.getContext(), Placement::InPlace);
    auto apply = [&](SyncOp sync) { sync.setPlannedPlacement(inPlace); };
    auto undo = [](SyncOp sync) { sync.setPlannedPlacement(nullptr); };
    // Kept when the lowering found an array to overwrite.
    auto took = [](const KernelSimulation &simulation, unsigned index) {
      return simulation.placedInPlace.contains(simulation.syncs[index]);
    };
    SyncRefinement refinement{apply, undo, took};
    FailureOr<std::shared_ptr<const KernelSimulation>> refined =
        refineSyncs(kernel, candidates, refinement, simulations);
    if (failed(refined))
      return signalPassFailure();
    bool anyInPlace = false;
    for (SyncOp sync : candidates)
      if (sync.getEffectivePlacementAttr()) {
        anyInPlace = true;
        addToStatistic(*this, numInPlace, "syncs-in-place");
      }
    if (!anyInPlace)
      plan.restore(kernel);
    addToStatistic(*this, numIdentityWrites, "identity-writes-dropped",
                   (*refined)->identityWrites);
  }
};
} // namespace
