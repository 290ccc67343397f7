//===- AssignWork.cpp - which thread computes which element ---------------===//

#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/KernelLowering/Flatten.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Threading.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSwitch.h"
#include <thread>

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
/// Drops the diagnostics this thread emits while it lives: those of trials
/// that are not the user's (a candidate's refinement, a trial assignment),
/// and only this thread's, since other kernels are refined beside this one
/// and their errors are the user's.
struct QuietOnThisThread : ScopedDiagnosticHandler {
  explicit QuietOnThisThread(MLIRContext *context)
      : ScopedDiagnosticHandler(
            context, [here = std::this_thread::get_id()](Diagnostic &) {
              return success(std::this_thread::get_id() == here);
            }) {}
};

/// A copy of a kernel dealt out by one strategy and refined (the cost
/// strategy's candidate).
struct RefinedCopy {
  /// The module that holds the copy, alone.
  OwningOpRef<ModuleOp> module;
  /// What the copy's passes counted.
  RecordedStatistics statistics;
  /// The simulation of the copy, and the estimated issue slots of its
  /// block.
  std::shared_ptr<const KernelSimulation> simulation;
  uint64_t cost = 0;
  /// Whether a simulation of the copy's refinements took over another
  /// copy's run of the same code (KernelSimulations: compact deals out fresh
  /// stages as strided does, so their copies often refine alike).
  bool sharedRun = false;
};

/// The last pass of a refinement run inside obs-assign-work: hands out the
/// simulation of the kernel as the refinements leave it, from those they
/// made (their last is usually of that plan, and is reused). The pass
/// manager may clone it per thread; every clone writes `into`, which
/// outlives the run.
struct CaptureSimulation
    : PassWrapper<CaptureSimulation, OperationPass<KernelOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CaptureSimulation)

  explicit CaptureSimulation(std::shared_ptr<const KernelSimulation> &into)
      : into(into) {}
  StringRef getArgument() const override { return "obs-capture-simulation"; }

  void runOnOperation() override {
    FailureOr<std::shared_ptr<const KernelSimulation>> simulated =
        getAnalysis<KernelSimulations>().simulate(getOperation());
    if (failed(simulated))
      return signalPassFailure();
    into = std::move(*simulated);
    markAllAnalysesPreserved();
  }

  std::shared_ptr<const KernelSimulation> &into;
};

struct ObsAssignWorkPass
    : mlir::obs::impl::ObsAssignWorkBase<ObsAssignWorkPass> {
  using ObsAssignWorkBase::ObsAssignWorkBase;

  /// The refinements `refine-with` names, checked once: a misspelled one is
  /// an error before any kernel is touched.
  LogicalResult initialize(MLIRContext *context) override {
    refinements.clear();
    for (const std::string &name : refineWith) {
      std::function<std::unique_ptr<Pass>()> create =
          llvm::StringSwitch<std::function<std::unique_ptr<Pass>()>>(name)
              .Case("promote-registers",
                    [] { return createObsPromoteRegisters(); })
              .Case("inplace", [] { return createObsInPlace(); })
              .Case("plan-shared", [] { return createObsPlanShared(); })
              .Case("elide-warp-syncs",
                    [] { return createObsElideWarpSyncs(); })
              .Default(nullptr);
      if (!create)
        return emitError(UnknownLoc::get(context))
               << "obs-assign-work: unknown refinement '" << name
               << "' in refine-with (promote-registers, inplace, "
                  "plan-shared or elide-warp-syncs)";
      refinements.push_back(std::move(create));
    }
    return success();
  }

  void runOnOperation() override {
    KernelOp kernel = getOperation();
    // Work is dealt out over the syncs of the flat kernel the GPU targets
    // run, once the networks, which the threads written here would change,
    // are expanded: as obs-optimize orders the passes. (A sync of a `two`'s
    // sub-program was dealt out over one instance, and the merged sync's
    // plan then left half its elements to no thread.)
    if (failed(expandNetworksFirst(kernel,
                                   [&](OpPassManager &pm, Operation *op) {
                                     return runPipeline(pm, op);
                                   })) ||
        (!isFlat(kernel) && failed(flattenKernel(kernel))))
      return signalPassFailure();
    std::optional<RefinedCopy> chosenCopy;
    if (failed(assignWork(kernel, chosenCopy)))
      return signalPassFailure();
    if (!keepRefined)
      return;
    if (chosenCopy) {
      adoptCopy(kernel, *chosenCopy);
      return;
    }
    // A pipeline run on the pass's own op clears its analyses when it
    // ends: the last simulation is taken out first, for the passes after.
    std::shared_ptr<const KernelSimulation> last;
    OpPassManager refine(KernelOp::getOperationName());
    for (const auto &create : refinements)
      refine.addPass(create());
    refine.addPass(std::make_unique<CaptureSimulation>(last));
    if (failed(runPipeline(refine, kernel)))
      return signalPassFailure();
    getAnalysis<KernelSimulations>().keep(kernel, std::move(last));
  }

  /// Takes the place of `kernel`'s body and attributes with `copy`'s, and
  /// reports what its refinements counted. The copy's simulation is the
  /// kernel's now, for the passes after this one.
  void adoptCopy(KernelOp kernel, RefinedCopy &copy) {
    KernelOp refined = *copy.module->getOps<KernelOp>().begin();
    kernel.getBody().takeBody(refined.getBody());
    kernel->setAttrs(refined->getAttrDictionary());
    copy.statistics.report();
    getAnalysis<KernelSimulations>().keep(kernel, std::move(copy.simulation));
  }

  /// Deals out the syncs of `kernel` that have no work assignment. With
  /// keep-refined and the cost strategy, the chosen strategy's refined copy
  /// goes to `chosenCopy` instead, to be kept.
  LogicalResult assignWork(KernelOp kernel,
                           std::optional<RefinedCopy> &chosenCopy) {
    // The kernel's own block size wins over the option.
    uint64_t blockThreads = kernel.getThreads()
                                ? *kernel.getThreads()
                                : static_cast<uint64_t>(threads);
    if (blockThreads == 0)
      return success(); // One thread per element: nothing to choose.
    if (blockThreads > KernelOp::kMaxThreads) {
      tagError(kernel.emitError()
                   << "cannot assign work to " << blockThreads
                   << " threads, more than a block's " << KernelOp::kMaxThreads,
               ErrorKind::RejectedChoice);
      return failure();
    }
    Builder builder(kernel.getContext());
    // Without a written block size, the block is as wide as its widest
    // stage; setting one below changes who runs every stage even where no
    // sync is left to deal out.
    bool widened = false;
    if (!kernel.getThreads()) {
      uint64_t threadsBefore = kernel.getBlockThreads();
      // The block must still run the work assignments the user wrote.
      kernel.walk([&](SyncOp sync) {
        blockThreads = std::max(blockThreads, sync.getThreadsNeeded());
      });
      kernel.setThreadsAttr(builder.getI64IntegerAttr(blockThreads));
      widened = blockThreads != threadsBefore;
    }
    // The kernel's own strategy wins over the option, as its threads do.
    WorkStrategy chosen = kernel.getStrategy().value_or(strategy);
    if (chosen == WorkStrategy::Cost) {
      std::tie(chosen, chosenCopy) = chooseByCost(kernel, blockThreads);
      // The copy was dealt out as the kernel would be, and refined: what
      // is left to do here, it has done.
      if (chosenCopy)
        return success();
    }
    uint64_t mostPerThread = 0;
    bool assignedAny = false;
    SmallVector<SyncOp> touching;
    kernel.walk([&](SyncOp sync) {
      if (sync.getWorkAssignment())
        return;
      assignedAny = true;
      // An array of rows is dealt out by leaf under every strategy but
      // compact (isDealtOutByLeaf).
      uint64_t leaves = sync.getType().getNumLeaves();
      WorkAssignmentAttrInterface how;
      // A written registers or shuffle storage is the user's claim; compact
      // positions could never keep it, neither in the stage that computes
      // the array nor in one that reads it (a compact stage reads under a
      // branch, where no shuffle may be), so those stages are dealt out by
      // position instead (blocked ones too, where blocked breaks the claim:
      // keepWrittenClaims).
      bool touches = touchesWrittenKeptByThreads(sync);
      if (touches)
        touching.push_back(sync);
      if (chosen == WorkStrategy::Compact && touches)
        how = StridedAttr::get(kernel.getContext(), blockThreads);
      else if (chosen == WorkStrategy::Blocked)
        how = BlockedAttr::get(
            kernel.getContext(),
            std::max<uint64_t>(1, llvm::divideCeil(leaves, blockThreads)));
      else if (chosen == WorkStrategy::Compact)
        how = CompactAttr::get(kernel.getContext(), blockThreads);
      else
        how = StridedAttr::get(kernel.getContext(), blockThreads);
      sync.setPlannedHow(how);
      mostPerThread = std::max(
          mostPerThread, how.getRoundCount(getWorkLength(sync.getType(), how)));
      addToStatistic(*this, numAssigned, "syncs-assigned");
    });
    if (mostPerThread)
      maxStatistic(*this, numElementsPerThread, "max-elements-per-thread",
                   mostPerThread);
    // A pass's choices rest on the block they were made for: a shuffle's
    // mask names its lanes, and lanes the block gains run no shuffle (obs-fuzz
    // seed 6262 #2528: a shuffle chosen for 2 threads, the block then made
    // 64).
    if (!assignedAny && !widened)
      return success();
    // A shared-memory plan made before (obs-plan-shared run earlier) placed
    // the buffers of the stages as they were dealt out then; a stage dealt
    // out anew may need a buffer the plan has no place for (and one whose
    // in-place or registers choice is taken back below, a buffer of its
    // own). The plan is dropped: the lowering gives each buffer its own
    // place, or obs-plan-shared plans again.
    (void)takeSharedPlan(kernel);
    // A registers or shuffle storage a pass chose before may not fit the
    // new assignment at all (compact positions, more rounds than registers
    // hold): it is taken back before anything is simulated, since the
    // lowering would refuse it.
    kernel.walk([&](SyncOp sync) {
      SyncPlanAttr plan = sync.getPlanAttr();
      if (!plan || !plan.getStorage() ||
          plan.getStorage().getValue() == Storage::Shared)
        return;
      uint64_t threads = kernel.getBlockThreads();
      std::optional<std::string> why =
          plan.getStorage().getValue() == Storage::Registers
              ? sync.whyNotRegisters(threads)
              : sync.whyNotShuffle(threads);
      if (!why)
        return;
      sync.setPlannedStorage(nullptr);
      addToStatistic(*this, numTakenBack, "decisions-taken-back");
    });
    if (chosen == WorkStrategy::Blocked && !touching.empty())
      keepWrittenClaims(kernel, touching, blockThreads);
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
      return failure();
    return success();
  }

  /// Deals `touching` out by position again where the assignment just made
  /// breaks a registers or shuffle storage the user wrote: ref proves such
  /// a claim of the stages as written (each dealt out by position over the
  /// block, or as obs-optimize deals it), and the GPU targets refused what
  /// ref ran when blocked paired other threads (found by an adversarial
  /// run: a kernel's `strategy = blocked`). The claim may hold under
  /// blocked (a stage that reads pairs), so blocked is tried first.
  void keepWrittenClaims(KernelOp kernel, ArrayRef<SyncOp> touching,
                         uint64_t blockThreads) {
    // The kernel is proved later, as it is left.
    QuietOnThisThread quiet(kernel.getContext());
    FailureOr<std::shared_ptr<const KernelSimulation>> simulated =
        getAnalysis<KernelSimulations>().simulate(kernel);
    if (failed(simulated))
      return;
    const KernelSimulation &simulation = **simulated;
    bool breaksWritten =
        llvm::any_of(simulation.run.getRegisterViolations(),
                     [&](const RegisterReadViolation &wrong) {
                       SyncOp sync = simulation.syncs[wrong.sync];
                       StorageAttr written = sync.getStorageAttr();
                       return written && written.getValue() != Storage::Shared;
                     });
    if (!breaksWritten)
      return;
    for (SyncOp sync : touching)
      sync.setPlannedHow(StridedAttr::get(kernel.getContext(), blockThreads));
  }

  /// Whether `sync`'s array, or one its stage reads, is kept in registers
  /// or shuffles because the user wrote so.
  static bool touchesWrittenKeptByThreads(SyncOp sync) {
    auto written = [](SyncOp stage) {
      StorageAttr storage = stage.getStorageAttr();
      return storage && storage.getValue() != Storage::Shared;
    };
    if (written(sync))
      return true;
    for (Value read : findStageSources(sync.getInput(), [](Value value) {
           return isa_and_present<SyncOp>(value.getDefiningOp());
         }))
      if (written(read.getDefiningOp<SyncOp>()))
        return true;
    return false;
  }

  /// The strategy whose copy of `kernel`, dealt out to `blockThreads`
  /// threads and refined by the passes of `refineWith`, has the fewest
  /// estimated issue slots in the simulation; strided when no sync is left
  /// to deal out or no copy can be refined. With keep-refined, the chosen
  /// copy too, when one was made.
  std::pair<WorkStrategy, std::optional<RefinedCopy>>
  chooseByCost(KernelOp kernel, uint64_t blockThreads) {
    bool anyOpen = false, moreThanThreads = false;
    kernel.walk([&](SyncOp sync) {
      if (sync.getWorkAssignment())
        return;
      anyOpen = true;
      moreThanThreads |= sync.getType().getNumLeaves() > blockThreads;
    });
    if (!anyOpen)
      return {WorkStrategy::Strided, std::nullopt};
    SmallVector<WorkStrategy, 3> candidates = {WorkStrategy::Strided};
    // With one element per thread, blocked<1> is strided.
    if (moreThanThreads)
      candidates.push_back(WorkStrategy::Blocked);
    candidates.push_back(WorkStrategy::Compact);
    // Each candidate is refined and simulated on a copy of its own: on the
    // context's threads at once, where it has them.
    // Compact, the costliest to refine (obs-inplace tries its every fresh
    // stage), starts first: on two threads the other two then run beside
    // it, where it ran alone after them.
    SmallVector<std::optional<RefinedCopy>, 3> copies(candidates.size());
    parallelFor(kernel.getContext(), 0, candidates.size(), [&](size_t start) {
      size_t index = (start + candidates.size() - 1) % candidates.size();
      copies[index] = refineCopy(kernel, blockThreads, candidates[index]);
    });
    addToStatistic(*this, numStrategiesCosted, "strategies-costed",
                   candidates.size());
    addToStatistic(*this, numStrategyRunsShared, "strategy-runs-shared",
                   llvm::count_if(copies, [](const auto &copy) {
                     return copy && copy->sharedRun;
                   }));
    std::optional<size_t> chosen;
    for (auto [index, copy] : llvm::enumerate(copies))
      if (copy && (!chosen || copy->cost < copies[*chosen]->cost))
        chosen = index;
    if (!chosen)
      return {WorkStrategy::Strided, std::nullopt};
    if (!keepRefined)
      return {candidates[*chosen], std::nullopt};
    return {candidates[*chosen], std::move(copies[*chosen])};
  }

  /// A copy of `kernel` dealt out by `candidate` and refined, with its
  /// estimated issue slots; none when a refinement or the simulation fails
  /// on it (their errors are not the user's: the kernel itself is refined
  /// later, and reports its own).
  std::optional<RefinedCopy> refineCopy(KernelOp kernel, uint64_t blockThreads,
                                        WorkStrategy candidate) {
    MLIRContext *context = kernel.getContext();
    RefinedCopy copy;
    copy.module = ModuleOp::create(kernel.getLoc());
    KernelOp copied = kernel.clone();
    // The copy is dealt out by `candidate`, not by the kernel's own `cost`.
    copied.removeStrategyAttr();
    copy.module->getBody()->push_back(copied);
    PassManager pm(context, ModuleOp::getOperationName());
    pm.enableVerifier(false);
    OpPassManager &refine = pm.nest<KernelOp>();
    ObsAssignWorkOptions options;
    options.threads = blockThreads;
    options.strategy = candidate;
    refine.addPass(createObsAssignWork(options));
    // The copy as dealt out is not simulated: the first refinement does
    // that only where its choices leave a hazard.
    for (const auto &create : refinements)
      refine.addPass(create());
    refine.addPass(std::make_unique<CaptureSimulation>(copy.simulation));
    QuietOnThisThread quiet(context);
    // Only the kernel's own refinements count in the statistics: the
    // copy's are kept, for the copy that is kept.
    ScratchStatistics scratchCounts(copy.statistics);
    if (failed(pm.run(*copy.module)))
      return std::nullopt;
    copy.sharedRun = copy.statistics.total("simulations-shared") > 0 ||
                     copy.simulation->first;
    // A copy the verifier would reject (a choice the refinements could
    // not make safe) is no candidate.
    const KernelSimulation &simulated = *copy.simulation;
    if (!simulated.run.getRegisterViolations().empty() ||
        !simulated.hazards(/*limit=*/1).empty())
      return std::nullopt;
    BlockCost cost = simulated.blockCost();
    copy.cost = cost.estimatedSlots(
        llvm::divideCeil(simulated.run.getThreads(), KernelOp::kWarpSize));
    // Only a copy that may be kept keeps its module and every access of its
    // block while the other candidates are refined.
    if (!keepRefined) {
      copy.simulation.reset();
      copy.module = nullptr;
    }
    return copy;
  }

  /// Makes each pass of `refine-with` (initialize).
  SmallVector<std::function<std::unique_ptr<Pass>()>> refinements;

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
                          numSimulationsRescoped, numSimulationsShared,
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
