//===- InPlace.cpp - stages that overwrite what they read -----------------===//

#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/KernelLowering/Flatten.h"
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

/// The syncs (by position in program order) whose trial in place would
/// fail, as `simulation`, of the kernel as it is, shows: those the lowering
/// found no array to overwrite for (it finds the same one, or none, whatever
/// else is in place), and those whose stage would race within itself: a
/// thread would overwrite an element that another thread of the stage
/// still reads, or, storing each round as it goes, that the same thread
/// reads later in the stage. In place, a stage that changes every element
/// writes each where the array it overwrites holds it, by the same thread,
/// and reads as it reads now, in the same order where it stores as it goes
/// (one that leaves elements as they are skips their writes, and may skip
/// what computes them: it is left to its trial). A
/// race within a stage is blamed on that stage's sync alone, so refineSyncs
/// would undo the choice in its first round whatever the other candidates
/// are: only the trial's simulation is saved. Where a warp barrier lets the
/// accesses of two stages meet, a race could be blamed on another sync
/// too, and none is looked for.
static llvm::DenseSet<unsigned>
findFailingInPlace(const KernelSimulation &simulation,
                   ChangedElementsCache &cache) {
  llvm::DenseSet<unsigned> failing;
  for (const InPlaceProspect &prospect : simulation.inPlaceProspects)
    if (!prospect.overwritten)
      failing.insert(prospect.syncIndex);
  const BlockRun &run = simulation.run;
  ArrayRef<Barrier> barriers = run.getBarriers();
  if (llvm::any_of(barriers,
                   [](const Barrier &barrier) { return !barrier.block; }))
    return failing;
  llvm::DenseMap<Value, unsigned> memoryOf;
  for (auto [index, memory] : llvm::enumerate(run.getMemories()))
    if (memory.workgroup)
      memoryOf[memory.root] = index;
  // Each prospect's memories (one per component, its own and those it
  // would overwrite), and the phases its stage runs in: the phase a barrier
  // of its sync ends (a stage in a repeat runs in one per iteration).
  struct WatchedMemory {
    bool own;
    unsigned component;
    uint64_t elementBytes;
  };
  struct Watched {
    const InPlaceProspect *prospect;
    llvm::SmallDenseMap<unsigned, WatchedMemory, 4> memories;
  };
  llvm::DenseMap<Operation *, Watched> watchedSync;
  for (const InPlaceProspect &prospect : simulation.inPlaceProspects) {
    Watched watched;
    watched.prospect = &prospect;
    for (auto [component, own, overwritten] :
         llvm::enumerate(prospect.buffers, prospect.overwrittenBuffers)) {
      auto ownMemory = memoryOf.find(own);
      auto overwrittenMemory = memoryOf.find(overwritten);
      if (ownMemory == memoryOf.end() || overwrittenMemory == memoryOf.end()) {
        watched.memories.clear();
        break;
      }
      uint64_t bytes = llvm::divideCeil(
          cast<MemRefType>(own.getType()).getElementTypeBitWidth(), 8);
      unsigned index = component;
      watched.memories[ownMemory->second] = {true, index, bytes};
      watched.memories[overwrittenMemory->second] = {false, index, bytes};
    }
    if (!watched.memories.empty())
      watchedSync[simulation.syncs[prospect.syncIndex]] = std::move(watched);
  }
  std::vector<const Watched *> watchedPhase(barriers.size(), nullptr);
  for (unsigned phase = 0; phase < barriers.size(); ++phase)
    if (auto it = watchedSync.find(syncOfBarrier(simulation, phase));
        it != watchedSync.end())
      watchedPhase[phase] = &it->second;
  // Each watched phase's writes of its own buffers and reads of the
  // buffers it would overwrite, by place (component and element); an
  // access of a place not known (or not one element) leaves the stage to
  // its trial.
  struct ThreadAccess {
    unsigned thread;
    uint64_t order;
  };
  struct PlaceAccess {
    unsigned component;
    int64_t element;
    ThreadAccess by;
  };
  struct PhaseAccesses {
    std::vector<PlaceAccess> writes, reads;
    unsigned components = 0;
    int64_t elements = 0;
    bool unknown = false;
  };
  std::vector<PhaseAccesses> byPhase(barriers.size());
  for (const Access &access : run.getAccesses()) {
    const Watched *watched = access.phase < watchedPhase.size()
                                 ? watchedPhase[access.phase]
                                 : nullptr;
    if (!watched)
      continue;
    auto memory = watched->memories.find(access.memory);
    if (memory == watched->memories.end())
      continue;
    const WatchedMemory &watchedMemory = memory->second;
    PhaseAccesses &phase = byPhase[access.phase];
    if (access.element < 0 || access.atomic ||
        access.byteEnd - access.byteBegin != watchedMemory.elementBytes) {
      phase.unknown = true;
      continue;
    }
    PlaceAccess place{
        watchedMemory.component, access.element, {access.thread, access.order}};
    if (watchedMemory.own && access.write)
      phase.writes.push_back(place);
    else if (!watchedMemory.own && !access.write)
      phase.reads.push_back(place);
    else
      continue;
    phase.components = std::max(phase.components, place.component + 1);
    phase.elements = std::max(phase.elements, place.element + 1);
  }
  // Each phase's writer of each place, in an array indexed by place (a
  // hash map of them was a tenth of a 4,096-key sort's in-place pass),
  // cleared of a phase's writes before the next phase's.
  constexpr unsigned kNoThread = ~0u;
  std::vector<ThreadAccess> writerOf;
  for (size_t phase = 0; phase < byPhase.size(); ++phase) {
    PhaseAccesses &accesses = byPhase[phase];
    if (!watchedPhase[phase])
      continue;
    const InPlaceProspect &prospect = *watchedPhase[phase]->prospect;
    if (accesses.unknown || failing.contains(prospect.syncIndex))
      continue;
    auto slot = [&](const PlaceAccess &place) -> ThreadAccess & {
      return writerOf[size_t(place.component) * accesses.elements +
                      place.element];
    };
    size_t places = size_t(accesses.components) * accesses.elements;
    if (writerOf.size() < places)
      writerOf.resize(places, {kNoThread, 0});
    // Two threads that write one place leave the stage to its trial.
    bool twoWriters = false;
    for (const PlaceAccess &write : accesses.writes) {
      ThreadAccess &writer = slot(write);
      if (writer.thread == kNoThread)
        writer = write.by;
      else
        twoWriters |= writer.thread != write.by.thread;
    }
    bool raced =
        !twoWriters && llvm::any_of(accesses.reads, [&](const auto &read) {
          const ThreadAccess &write = slot(read), &other = read.by;
          if (write.thread == kNoThread)
            return false;
          return write.thread != other.thread ||
                 (prospect.storesAsItGoes && write.order < other.order);
        });
    for (const PlaceAccess &write : accesses.writes)
      slot(write).thread = kNoThread;
    if (!raced)
      continue;
    SyncOp sync = simulation.syncs[prospect.syncIndex];
    llvm::BitVector changed = cache.getOrCompute(prospect.changedKey, [&] {
      return findChangedElements(sync, prospect.overwritten, prospect.sources);
    });
    if (changed.all())
      failing.insert(prospect.syncIndex);
  }
  return failing;
}

namespace {
struct ObsInPlacePass : mlir::obs::impl::ObsInPlaceBase<ObsInPlacePass> {
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    auto &simulations = getAnalysis<KernelSimulations>();
    SimulationCount count(*this, numSimulations, numSimulationsReused,
                          numSimulationsRescoped, numSimulationsShared,
                          simulations);
    // A shared-memory plan (obs-plan-shared run before) gave each buffer
    // bytes for the time it was live; writing a stage over its input makes
    // that input live longer, into bytes the plan may have handed on. No
    // race shows that, so the plan goes: the choices are made, and
    // simulated, on buffers of their own, and the plan comes back only when
    // no sync went in place. Taken first, so that a stale plan (one made
    // for other buffers, which obs-optimize plans again after this pass) is
    // not simulated.
    SharedPlan plan = takeSharedPlan(kernel);
    std::shared_ptr<const KernelSimulation> before;
    FailureOr<bool> safe = isSafeToRefine(kernel, simulations, &before);
    if (failed(safe))
      return signalPassFailure();
    if (!*safe)
      return plan.restore(kernel);
    // The simulation's syncs are the kernel's one for one only for a flat
    // kernel.
    llvm::DenseSet<unsigned> failing;
    if (isFlat(kernel))
      failing = findFailingInPlace(*before, simulations.changedElements());
    SmallVector<SyncOp> candidates;
    unsigned position = 0;
    kernel.walk([&](SyncOp sync) {
      // An array kept by its threads has no buffer to place.
      if (sync.getEffectivePlacementAttr() || sync.isOutputOnly() ||
          sync.isKeptByThreads()) {
        ++position;
        return;
      }
      if (failing.contains(position++))
        addToStatistic(*this, numNotTried, "syncs-not-tried");
      else
        candidates.push_back(sync);
    });
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
