//===- ElideWarpSyncs.cpp - block barriers that only a warp needs ---------===//
//
// Each candidate downgrade is tried and kept only when the whole kernel,
// run thread by thread, still has no unordered conflicting accesses: a
// decision that depends on every other sync's scope, on in-place stages and
// on buffer reuse is checked against all of them at once.
//
//===----------------------------------------------------------------------===//

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
#define GEN_PASS_DEF_OBSELIDEWARPSYNCS
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsElideWarpSyncsPass
    : mlir::obs::impl::ObsElideWarpSyncsBase<ObsElideWarpSyncsPass> {
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    auto &simulations = getAnalysis<KernelSimulations>();
    SimulationCount count(*this, numSimulations, numSimulationsReused,
                          numSimulationsRescoped, numSimulationsShared,
                          simulations);
    FailureOr<bool> safe = isSafeToRefine(kernel, simulations);
    if (failed(safe))
      return signalPassFailure();
    // A kernel with hazards already is the verifier's to report.
    if (!*safe)
      return;
    SmallVector<SyncOp> candidates;
    kernel.walk([&](SyncOp sync) {
      // An array kept by its threads has no barrier to weaken.
      if (!sync.getEffectiveScopeAttr() && !sync.isOutputOnly() &&
          !sync.isKeptByThreads())
        candidates.push_back(sync);
    });
    auto warp = SyncScopeAttr::get(kernel.getContext(), SyncScope::Warp);
    auto apply = [&](SyncOp sync) { sync.setPlannedScope(warp); };
    auto undo = [](SyncOp sync) { sync.setPlannedScope(nullptr); };
    auto took = [](const KernelSimulation &, unsigned) { return true; };
    SyncRefinement refinement{apply, undo, took};
    if (failed(refineSyncs(kernel, candidates, refinement, simulations)))
      return signalPassFailure();
    for (SyncOp sync : candidates) {
      if (sync.getEffectiveScopeAttr())
        addToStatistic(*this, numDowngraded, "syncs-downgraded");
      else
        addToStatistic(*this, numKept, "block-syncs-kept");
    }
  }
};
} // namespace
