//===- SyncRefinement.cpp - refinements of syncs decided by simulation ----===//
//
// The loop every refinement pass shares (registers and shuffles, in place,
// warp scopes, and obs-assign-work's keeping of earlier choices): every
// candidate at once, then the choices the hazards are blamed on undone,
// one simulation per round.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Support/StableSort.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::obs;

FailureOr<bool>
mlir::obs::isSafeToRefine(KernelOp kernel, KernelSimulations &simulations,
                          std::shared_ptr<const KernelSimulation> *simulated) {
  FailureOr<std::shared_ptr<const KernelSimulation>> simulation =
      simulations.simulate(kernel);
  if (failed(simulation))
    return failure();
  if (simulated)
    *simulated = *simulation;
  return (*simulation)->hazards(/*limit=*/1).empty() &&
         (*simulation)->run.getRegisterViolations().empty();
}

/// refineSyncs, and refineSyncsOfUnprovedKernel where `startProved` is
/// false: null, with every choice undone, where the kernel as it was has a
/// hazard or a wrong read of its own.
static FailureOr<std::shared_ptr<const KernelSimulation>>
refineSyncsFrom(KernelOp kernel, ArrayRef<SyncOp> candidates,
                const SyncRefinement &refinement,
                KernelSimulations &simulations, bool startProved) {
  // The kernel's syncs in the order the simulation numbers them.
  SmallVector<SyncOp> syncs;
  kernel.walk([&](SyncOp sync) { syncs.push_back(sync); });
  llvm::DenseMap<Operation *, unsigned> indexOf;
  for (auto [index, sync] : llvm::enumerate(syncs))
    indexOf[sync] = index;

  // A choice is kept when the pass says it took, and when, if the sync's
  // array is in registers, every read of it is by the thread that computed
  // the element (a wrong read is no hazard in memory, but a wrong value).
  auto took = [&](const KernelSimulation &simulation, Operation *sync) {
    unsigned index = indexOf.lookup(sync);
    if (!refinement.took(simulation, index))
      return false;
    // Only a sync in registers or shuffles has checks, hence violations.
    return llvm::none_of(simulation.run.getRegisterViolations(),
                         [&](const RegisterReadViolation &wrong) {
                           return wrong.sync == index;
                         });
  };
  llvm::SetVector<Operation *> active;
  for (SyncOp sync : candidates) {
    refinement.apply(sync);
    active.insert(sync);
  }
  auto undo = [&](Operation *sync) {
    refinement.undo(cast<SyncOp>(sync));
    active.remove(sync);
  };
  // Where a choice did not take: the refinement's next one, if it has one.
  auto fellBack = [&](const KernelSimulation &simulation, Operation *sync) {
    return refinement.fallBack &&
           refinement.fallBack(simulation, indexOf.lookup(sync),
                               cast<SyncOp>(sync));
  };
  while (true) {
    FailureOr<std::shared_ptr<const KernelSimulation>> simulated =
        simulations.simulate(kernel);
    if (failed(simulated))
      return failure();
    const std::shared_ptr<const KernelSimulation> &simulation = *simulated;
    // A wrong read of an array no candidate chose here is the kernel's own,
    // as is a hazard the rounds below would blame on the choices: both mean
    // what they say only of a kernel that was safe before any choice.
    if (!startProved) {
      bool readOfItsOwn =
          llvm::any_of(simulation->run.getRegisterViolations(),
                       [&](const RegisterReadViolation &wrong) {
                         return wrong.sync >= syncs.size() ||
                                !active.contains(syncs[wrong.sync]);
                       });
      if (readOfItsOwn || !simulation->hazards(/*limit=*/1).empty()) {
        for (Operation *sync : SmallVector<Operation *>(active.getArrayRef()))
          undo(sync);
        FailureOr<bool> safe = isSafeToRefine(kernel, simulations);
        if (failed(safe))
          return failure();
        if (!*safe)
          return std::shared_ptr<const KernelSimulation>();
        return refineSyncsFrom(kernel, candidates, refinement, simulations,
                               /*startProved=*/true);
      }
    }
    bool changed = false;
    for (Operation *sync : SmallVector<Operation *>(active.getArrayRef()))
      if (!took(*simulation, sync)) {
        if (!fellBack(*simulation, sync))
          undo(sync);
        changed = true;
      }
    SmallVector<Hazard> hazards = simulation->hazards(/*limit=*/1 << 16);
    if (hazards.empty() && !changed)
      return simulation;
    // Each hazard is cured by undoing the choice on its stage's sync (within
    // one stage) or on any sync whose barrier lies between its accesses.
    // Curing them all with few undone choices is interval stabbing: by
    // increasing end, undo the latest choice within each interval that is
    // not yet cured.
    bool attributed = false;
    llvm::DenseSet<Operation *> undone;
    auto originalOf = [&](unsigned barrier) -> Operation * {
      SyncOp sync = barrier < simulation->run.getBarriers().size()
                        ? syncOfBarrier(*simulation, barrier)
                        : SyncOp();
      if (!sync)
        return nullptr;
      auto it = llvm::find(simulation->syncs, sync);
      return syncs[it - simulation->syncs.begin()];
    };
    stableSort(hazards, [](const Hazard &a, const Hazard &b) {
      return a.second.phase < b.second.phase;
    });
    for (const Hazard &hazard : hazards) {
      unsigned first = hazard.first.phase, last = hazard.second.phase;
      if (hazard.sameStage())
        last = first + 1;
      bool cured = false;
      for (unsigned barrier = first; barrier < last && !cured; ++barrier)
        cured = undone.contains(originalOf(barrier));
      if (cured)
        continue;
      for (unsigned barrier = last; barrier-- > first;) {
        Operation *original = originalOf(barrier);
        if (original && active.contains(original)) {
          undo(original);
          undone.insert(original);
          attributed = true;
          break;
        }
      }
    }
    if (hazards.empty() || attributed)
      continue;
    // Hazards that no single choice explains: start again from the
    // hazard-free kernel and take the candidates one at a time.
    SmallVector<Operation *> remaining(active.getArrayRef());
    for (Operation *sync : remaining)
      undo(sync);
    for (Operation *sync : remaining) {
      refinement.apply(cast<SyncOp>(sync));
      while (true) {
        FailureOr<std::shared_ptr<const KernelSimulation>> trial =
            simulations.simulate(kernel);
        if (failed(trial))
          return failure();
        // A race stays whatever the choice; a choice that did not take
        // may have a next one to try.
        bool tookHere = took(**trial, sync);
        if (tookHere && (*trial)->hazards(/*limit=*/1).empty())
          break;
        if (tookHere || !fellBack(**trial, sync)) {
          refinement.undo(cast<SyncOp>(sync));
          break;
        }
      }
    }
    return simulations.simulate(kernel);
  }
}

FailureOr<std::shared_ptr<const KernelSimulation>>
mlir::obs::refineSyncs(KernelOp kernel, ArrayRef<SyncOp> candidates,
                       const SyncRefinement &refinement,
                       KernelSimulations &simulations) {
  return refineSyncsFrom(kernel, candidates, refinement, simulations,
                         /*startProved=*/true);
}

FailureOr<std::shared_ptr<const KernelSimulation>>
mlir::obs::refineSyncsOfUnprovedKernel(KernelOp kernel,
                                       ArrayRef<SyncOp> candidates,
                                       const SyncRefinement &refinement,
                                       KernelSimulations &simulations) {
  return refineSyncsFrom(kernel, candidates, refinement, simulations,
                         /*startProved=*/false);
}
