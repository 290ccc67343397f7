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

/// The most rounds the pass tries in registers where no work assignment
/// is written: each candidate is unrolled in every simulation of the
/// search, and obs-assign-work runs the search once per strategy.
static constexpr uint64_t kMostSearchedRounds = 8;

/// Whether trying `sync` in registers would unroll more rounds than the
/// search affords: a sync whose work assignment a pass planned, or the
/// default sweep, of more than kMostSearchedRounds rounds. A written
/// assignment (a network's schedule, or the user's) is the writer's
/// choice of rounds, and is tried up to what registers hold.
static bool exceedsSearchBudget(SyncOp sync, uint64_t blockThreads) {
  bool written =
      isa_and_present<WorkAssignmentAttrInterface>(sync.getHowAttr());
  return !written &&
         sync.getRoundsPerThread(blockThreads) > kMostSearchedRounds;
}

namespace {
struct ObsPromoteRegistersPass
    : mlir::obs::impl::ObsPromoteRegistersBase<ObsPromoteRegistersPass> {
  using ObsPromoteRegistersBase::ObsPromoteRegistersBase;

  void runOnOperation() override {
    KernelOp kernel = getOperation();
    auto &simulations = getAnalysis<KernelSimulations>();
    SimulationCount count(*this, numSimulations, numSimulationsReused,
                          numSimulationsRescoped, numSimulationsShared,
                          simulations);
    // A shared-memory plan (obs-plan-shared run before) placed the buffers
    // this pass may take away: the choices are made, and simulated, on
    // buffers of their own, and the plan comes back only when none is
    // taken. Taken first, so that a stale plan (one made for other buffers,
    // which obs-optimize plans again after this pass) is not simulated.
    SharedPlan plan = takeSharedPlan(kernel);
    uint64_t blockThreads = kernel.getBlockThreads();
    llvm::DenseSet<Operation *> overwritten = findOverwritten(kernel);
    // Registers, and shuffles where registers do not take (refineSyncs
    // falls back from one to the other in the same rounds of simulations):
    // each replaces the buffer and the barrier, so only a sync whose
    // storage, scope and placement are all open is the pass's to change.
    // What may be shuffled may be kept in registers (whyNotShuffle).
    llvm::DenseSet<Operation *> mayShuffle;
    SmallVector<SyncOp> candidates;
    kernel.walk([&](SyncOp sync) {
      if (sync.getEffectiveStorageAttr() || sync.getEffectiveScopeAttr() ||
          sync.getEffectivePlacementAttr() || overwritten.contains(sync) ||
          sync.whyNotRegisters(blockThreads) ||
          exceedsSearchBudget(sync, blockThreads))
        return;
      candidates.push_back(sync);
      if (shuffles && !sync.whyNotShuffle(blockThreads))
        mayShuffle.insert(sync);
    });
    if (candidates.empty())
      return plan.restore(kernel);
    MLIRContext *context = kernel.getContext();
    auto registers = StorageAttr::get(context, Storage::Registers);
    auto shuffled = StorageAttr::get(context, Storage::Shuffle);
    auto apply = [&](SyncOp sync) { sync.setPlannedStorage(registers); };
    auto undo = [](SyncOp sync) { sync.setPlannedStorage(nullptr); };
    auto fallBack = [&](const KernelSimulation &simulation, unsigned index,
                        SyncOp sync) {
      if (sync.getStorageOrDefault() != Storage::Registers ||
          !mayShuffle.contains(sync))
        return false;
      // A thread that read an element of another warp's in registers
      // would read it from that warp in shuffles too: a round saved.
      if (llvm::any_of(simulation.run.getRegisterViolations(),
                       [&](const RegisterReadViolation &wrong) {
                         return wrong.sync == index && wrong.acrossWarps;
                       }))
        return false;
      sync.setPlannedStorage(shuffled);
      return true;
    };
    // refineSyncs checks the reads of every array kept by its threads.
    auto took = [](const KernelSimulation &, unsigned) { return true; };
    SyncRefinement refinement{apply, undo, took, fallBack};
    // The first refinement after the work is dealt out: the kernel as dealt
    // out is simulated only if the choices leave a hazard (a kernel with
    // one already is the verifier's to report).
    FailureOr<std::shared_ptr<const KernelSimulation>> refined =
        refineSyncsOfUnprovedKernel(kernel, candidates, refinement,
                                    simulations);
    if (failed(refined))
      return signalPassFailure();
    if (!*refined)
      return plan.restore(kernel);
    unsigned inRegisters = 0, inShuffles = 0;
    for (SyncOp sync : candidates) {
      inRegisters += sync.getStorageOrDefault() == Storage::Registers;
      inShuffles += sync.getStorageOrDefault() == Storage::Shuffle;
    }
    if (inRegisters)
      addToStatistic(*this, numPromoted, "syncs-in-registers", inRegisters);
    if (inShuffles)
      addToStatistic(*this, numShuffled, "syncs-in-shuffles", inShuffles);
    if (inRegisters + inShuffles == 0)
      plan.restore(kernel);
  }
};
} // namespace
