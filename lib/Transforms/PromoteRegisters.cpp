//===- PromoteRegisters.cpp - arrays that stay in their threads' registers ===//
//
// Each candidate is tried and kept only when the simulation shows every
// read of its array by the thread that computed the element, and the whole
// kernel, without the candidate's barrier, still has no unordered
// conflicting accesses (refineSyncs, as for the other refinements).
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
// The dialects the simulation's lowering creates (kernelSimulationDialects).
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSPROMOTEREGISTERS
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsPromoteRegistersPass
    : mlir::obs::impl::ObsPromoteRegistersBase<ObsPromoteRegistersPass> {
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    auto &simulations = getAnalysis<KernelSimulations>();
    SimulationCount count(*this, numSimulations, numSimulationsReused,
                          simulations);
    FailureOr<bool> safe = isSafeToRefine(kernel, simulations);
    if (failed(safe))
      return signalPassFailure();
    if (!*safe)
      return;
    uint64_t blockThreads = kernel.getBlockThreads();
    // Registers replace the buffer and the barrier: only a sync whose
    // storage, scope and placement are all open is the pass's to change.
    SmallVector<SyncOp> candidates;
    kernel.walk([&](SyncOp sync) {
      if (!sync.getEffectiveStorageAttr() && !sync.getEffectiveScopeAttr() &&
          !sync.getEffectivePlacementAttr() &&
          !sync.whyNotRegisters(blockThreads))
        candidates.push_back(sync);
    });
    if (candidates.empty())
      return;
    SharedPlan plan = takeSharedPlan(kernel);
    auto registers = StorageAttr::get(kernel.getContext(), Storage::Registers);
    auto apply = [&](SyncOp sync) { sync.setPlannedStorage(registers); };
    auto undo = [](SyncOp sync) { sync.setPlannedStorage(nullptr); };
    // refineSyncs checks the reads of every array in registers.
    auto took = [](const KernelSimulation &, unsigned) { return true; };
    SyncRefinement refinement{apply, undo, took};
    if (failed(refineSyncs(kernel, candidates, refinement, simulations)))
      return signalPassFailure();
    bool anyPromoted = false;
    for (SyncOp sync : candidates)
      if (sync.isInRegisters()) {
        anyPromoted = true;
        addToStatistic(*this, numPromoted, "syncs-in-registers");
      }
    if (!anyPromoted)
      plan.restore(kernel);
  }
};
} // namespace
