//===- AssignWork.cpp - which thread computes which element ---------------===//

#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSASSIGNWORK
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// `plan` without the choices that rest on who computes what: a warp
/// scope, in place, registers or shuffles. Null when nothing else is left.
static SyncPlanAttr takeBackRelaxations(SyncPlanAttr plan) {
  if (!plan)
    return {};
  SyncProperties planned = getPlannedProperties(plan);
  if (planned.scope && planned.scope.getValue() == SyncScope::Warp)
    planned.scope = nullptr;
  if (planned.placement && planned.placement.getValue() == Placement::InPlace)
    planned.placement = nullptr;
  if (planned.storage && planned.storage.getValue() != Storage::Shared)
    planned.storage = nullptr;
  return getSyncPlan(plan.getContext(), planned);
}

namespace {
struct ObsAssignWorkPass
    : mlir::obs::impl::ObsAssignWorkBase<ObsAssignWorkPass> {
  using ObsAssignWorkBase::ObsAssignWorkBase;

  void runOnOperation() override {
    KernelOp kernel = getOperation();
    // The kernel's own block size wins over the option.
    uint64_t blockThreads = kernel.getThreads()
                                ? *kernel.getThreads()
                                : static_cast<uint64_t>(threads);
    if (blockThreads == 0)
      return; // One thread per element: nothing to choose.
    if (blockThreads > KernelOp::kMaxThreads) {
      tagError(kernel.emitError()
                   << "cannot assign work to " << blockThreads
                   << " threads, more than a block's " << KernelOp::kMaxThreads,
               ErrorKind::RejectedChoice);
      return signalPassFailure();
    }
    Builder builder(kernel.getContext());
    if (!kernel.getThreads()) {
      // The block must still run the work assignments the user wrote.
      kernel.walk([&](SyncOp sync) {
        blockThreads = std::max(blockThreads, sync.getThreadsNeeded());
      });
      kernel.setThreadsAttr(builder.getI64IntegerAttr(blockThreads));
    }
    uint64_t mostPerThread = 0;
    bool assignedAny = false;
    kernel.walk([&](SyncOp sync) {
      if (sync.getWorkAssignment())
        return;
      assignedAny = true;
      uint64_t length = sync.getType().getLength();
      WorkAssignmentAttrInterface how;
      if (strategy == WorkStrategy::Blocked)
        how = BlockedAttr::get(
            kernel.getContext(),
            std::max<uint64_t>(1, llvm::divideCeil(length, blockThreads)));
      else if (strategy == WorkStrategy::Compact)
        how = CompactAttr::get(kernel.getContext(), blockThreads);
      else
        how = StridedAttr::get(kernel.getContext(), blockThreads);
      sync.setPlannedHow(how);
      mostPerThread = std::max(mostPerThread, how.getRoundCount(length));
      addToStatistic(*this, numAssigned, "syncs-assigned");
    });
    if (mostPerThread)
      maxStatistic(*this, numElementsPerThread, "max-elements-per-thread",
                   mostPerThread);
    if (!assignedAny)
      return;
    // A shared-memory plan made before (obs-plan-shared run earlier) placed
    // the buffers of the stages as they were dealt out then; a stage dealt
    // out anew may need a buffer the plan has no place for (and one whose
    // in-place or registers choice is taken back below, a buffer of its
    // own). The plan is dropped: the lowering gives each buffer its own
    // place, or obs-plan-shared plans again.
    (void)takeSharedPlan(kernel);
    // Any sync's scope or placement may rest on who computed what before:
    // a stage now dealt out differently reads the previous sync's array
    // from other threads, whatever that sync's own assignment. A pass's
    // earlier choice is re-decided; a written one is the user's claim, kept
    // as it is for obs-verify-sync to prove or reject.
    SmallVector<SyncOp> decidedBefore;
    kernel.walk([&](SyncOp sync) {
      if (SyncPlanAttr plan = sync.getPlanAttr();
          plan && takeBackRelaxations(plan) != plan)
        decidedBefore.push_back(sync);
    });
    if (!decidedBefore.empty() && failed(keepSafe(kernel, decidedBefore)))
      return signalPassFailure();
  }

  /// Takes back the planned warp scopes, in-place placements and registers of
  /// `decided` that the new work assignment makes hazards, fewest first
  /// (refineSyncs over those decisions, as if they were being made now).
  LogicalResult keepSafe(KernelOp kernel, ArrayRef<SyncOp> decided) {
    llvm::DenseMap<Operation *, SyncPlanAttr> original;
    for (SyncOp sync : decided)
      original[sync] = sync.getPlanAttr();
    auto apply = [&](SyncOp sync) { sync.setPlanAttr(original.lookup(sync)); };
    auto undo = [&](SyncOp sync) {
      if (SyncPlanAttr kept = takeBackRelaxations(sync.getPlanAttr()))
        sync.setPlanAttr(kept);
      else
        sync.removePlanAttr();
    };
    auto took = [](const KernelSimulation &, unsigned) { return true; };
    auto &simulations = getAnalysis<KernelSimulations>();
    SimulationCount count(*this, numSimulations, numSimulationsReused,
                          simulations);
    if (failed(refineSyncs(kernel, decided, {apply, undo, took}, simulations)))
      return failure();
    for (SyncOp sync : decided)
      if (original.lookup(sync) != sync.getPlanAttr())
        addToStatistic(*this, numTakenBack, "decisions-taken-back");
    return success();
  }
};
} // namespace
