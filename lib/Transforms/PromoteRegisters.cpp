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

/// The syncs whose arrays a stage written `inplace` (or planned so) may
/// overwrite: those its computation reads. They keep their buffers, which
/// the in-place stage needs.
static llvm::DenseSet<Operation *> findOverwritten(KernelOp kernel) {
  llvm::DenseSet<Operation *> overwritten;
  kernel.walk([&](SyncOp stage) {
    if (stage.getPlacementOrDefault() != Placement::InPlace)
      return;
    for (Value read : findStageSources(stage.getInput(), [](Value value) {
           return isa_and_present<SyncOp>(value.getDefiningOp());
         }))
      overwritten.insert(read.getDefiningOp());
  });
  return overwritten;
}

namespace {
struct ObsPromoteRegistersPass
    : mlir::obs::impl::ObsPromoteRegistersBase<ObsPromoteRegistersPass> {
  using ObsPromoteRegistersBase::ObsPromoteRegistersBase;

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
    uint64_t blockThreads = kernel.getBlockThreads();
    std::optional<SharedPlan> plan;
    llvm::DenseSet<Operation *> overwritten = findOverwritten(kernel);
    // Registers, then shuffles for what is left: each replaces the buffer
    // and the barrier, so only a sync whose storage, scope and placement
    // are all open is the pass's to change. Returns how many syncs took
    // `storage` (a sync that did is no candidate of the next storage).
    auto promote = [&](Storage storage) -> FailureOr<unsigned> {
      SmallVector<SyncOp> candidates;
      kernel.walk([&](SyncOp sync) {
        if (sync.getEffectiveStorageAttr() || sync.getEffectiveScopeAttr() ||
            sync.getEffectivePlacementAttr() || overwritten.contains(sync))
          return;
        std::optional<std::string> why =
            storage == Storage::Registers ? sync.whyNotRegisters(blockThreads)
                                          : sync.whyNotShuffle(blockThreads);
        if (!why)
          candidates.push_back(sync);
      });
      if (candidates.empty())
        return 0u;
      if (!plan)
        plan = takeSharedPlan(kernel);
      auto chosen = StorageAttr::get(kernel.getContext(), storage);
      auto apply = [&](SyncOp sync) { sync.setPlannedStorage(chosen); };
      auto undo = [](SyncOp sync) { sync.setPlannedStorage(nullptr); };
      // refineSyncs checks the reads of every array kept by its threads.
      auto took = [](const KernelSimulation &, unsigned) { return true; };
      SyncRefinement refinement{apply, undo, took};
      if (failed(refineSyncs(kernel, candidates, refinement, simulations)))
        return failure();
      return static_cast<unsigned>(llvm::count_if(
          candidates, [](SyncOp sync) { return sync.isKeptByThreads(); }));
    };
    FailureOr<unsigned> inRegisters = promote(Storage::Registers);
    if (failed(inRegisters))
      return signalPassFailure();
    FailureOr<unsigned> inShuffles = 0u;
    if (shuffles && failed(inShuffles = promote(Storage::Shuffle)))
      return signalPassFailure();
    if (*inRegisters)
      addToStatistic(*this, numPromoted, "syncs-in-registers", *inRegisters);
    if (*inShuffles)
      addToStatistic(*this, numShuffled, "syncs-in-shuffles", *inShuffles);
    if (plan && *inRegisters + *inShuffles == 0)
      plan->restore(kernel);
  }
};
} // namespace
