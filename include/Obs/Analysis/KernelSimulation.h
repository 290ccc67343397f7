//===- KernelSimulation.h - a kernel's block, run thread by thread -*- C++
//-*-===//
//
// What the refinement passes decide with and what the sync verifier checks:
// a copy of the kernel is lowered exactly as convert-obs-to-gpu lowers it,
// and one block of it is run thread by thread (Obs/Analysis/BlockRun.h).
// Hazards found in the gpu.func are mapped back to the syncs of the kernel
// through the provenance the lowering records.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_ANALYSIS_KERNELSIMULATION_H
#define OBS_ANALYSIS_KERNELSIMULATION_H

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/AnalysisManager.h"
#include "mlir/Pass/Pass.h"
#include <memory>
#include <mutex>
#include <optional>

namespace mlir::obs {

struct KernelSimulation {
  /// The lowered copy; the accesses point into it.
  OwningOpRef<ModuleOp> module;
  /// The simulation whose lowered copy this one's accesses point into
  /// instead, when it was derived from that one for other barrier scopes
  /// (KernelSimulations::simulate).
  std::shared_ptr<const KernelSimulation> derivedFrom;
  gpu::GPUFuncOp func;
  /// The kernel's syncs in program order (a sync's `obs.sync_index`).
  SmallVector<SyncOp> syncs;
  /// Syncs the lowering placed in place over the array their stage reads.
  llvm::DenseSet<Operation *> placedInPlace;
  /// The stages stored fresh that could go in place instead.
  SmallVector<InPlaceProspect> inPlaceProspects;
  BlockRun run;
  uint64_t identityWrites = 0;
  /// The kernel's elements that a launch of it puts at one global place of
  /// a block (its `obs.launch_overlaps`): the refinement passes keep them
  /// ordered too.
  SmallVector<GlobalOverlap> globalOverlaps;

  /// Where this simulation's run is another's of the same code, taken over
  /// (KernelSimulations): that simulation, the first of its code, and the
  /// map from its ops and values to this one's. What is found from the run
  /// is found on the first's, once, and taken over too.
  std::shared_ptr<const KernelSimulation> first;
  std::shared_ptr<const IRMapping> fromFirst;

  /// The hazards in shared memory, and in global memory where a launch
  /// overlaps the kernel's inputs and outputs: what a refinement must not
  /// create.
  SmallVector<Hazard> hazards(unsigned limit = 16) const {
    SmallVector<Hazard> found = sharedHazards(limit);
    if (found.size() < limit)
      llvm::append_range(
          found, find(&Findings::global, limit - found.size(),
                      [](const KernelSimulation &at, unsigned n) {
                        return findGlobalHazards(at.run, at.globalOverlaps,
                                                 KernelOp::kWarpSize, n);
                      }));
    return found;
  }
  /// The hazards in shared memory alone (the launch proof reports those in
  /// global memory, with their launch).
  SmallVector<Hazard> sharedHazards(unsigned limit = 16) const {
    return find(&Findings::shared, limit,
                [](const KernelSimulation &at, unsigned n) {
                  return findHazards(at.run, KernelOp::kWarpSize, n);
                });
  }
  /// The block's estimated cost (computeBlockCost), found once.
  BlockCost blockCost() const;

private:
  /// Hazards found before: passes ask one simulation again (the verifier
  /// after the last refinement), and the search comes out in one order, so
  /// a shorter list is a prefix of a longer one.
  struct FoundHazards {
    unsigned limit = 0;
    SmallVector<Hazard> hazards;
    SmallVector<Hazard>
    get(unsigned wanted,
        llvm::function_ref<SmallVector<Hazard>(unsigned)> find) {
      bool complete = hazards.size() < limit;
      if (wanted > limit && !complete) {
        hazards = find(wanted);
        limit = wanted;
      }
      return SmallVector<Hazard>(ArrayRef(hazards).take_front(wanted));
    }
  };
  /// What the searches found on the first simulation of this code, in its
  /// ops, for every simulation that took its run over. Locked: the copies
  /// of a kernel are refined in parallel.
  struct Findings {
    std::mutex mutex;
    FoundHazards shared, global;
    std::optional<BlockCost> cost;
  };
  /// Up to `limit` hazards of the search `search`, run on the first
  /// simulation of this code once, in this one's ops.
  SmallVector<Hazard>
  find(FoundHazards Findings::*found, unsigned limit,
       llvm::function_ref<SmallVector<Hazard>(const KernelSimulation &,
                                              unsigned)>
           search) const;
  /// Those of the first simulation of this code, which every simulation
  /// that took its run over reads (`first`); one that runs its own code
  /// keeps its own.
  Findings &getFindings() const { return first ? *first->findings : *findings; }
  std::unique_ptr<Findings> findings = std::make_unique<Findings>();
};

/// Lowers a copy of `kernel` and runs one block of it. Fails, with the
/// reason reported, when it cannot be lowered or followed. A kernel that is
/// not flat is flattened in the copy, so the simulation's syncs correspond
/// to the kernel's one for one only for a flat kernel (the refinement
/// passes run on flat kernels). A pass
/// that simulates one kernel many times, changing only sync properties,
/// passes the same `cache` each time.
FailureOr<KernelSimulation>
simulateKernel(KernelOp kernel, ChangedElementsCache *cache = nullptr);

/// The simulations of one kernel, shared by the passes that run on it
/// through MLIR's analysis manager (`getAnalysis<KernelSimulations>()` on
/// the kernel, `getChildAnalysis` from a module pass). The last few
/// simulations are kept with the kernel's fingerprint (OperationFingerPrint:
/// every op, attribute and property, the plan included), and one is handed
/// out again only while the kernel has its fingerprint; so no pass has to
/// declare what it preserved, and none is handed a simulation of another
/// plan. More than the last is kept because a refinement that undoes its
/// choices comes back to the plan it started from. The changed elements of
/// in-place stages, which do not depend on the plan, are shared by every
/// simulation of the same code (ChangedElementsCache).
///
/// A kernel that differs from a kept simulation's only in its syncs'
/// scopes (obs-elide-warp-syncs' trials) is not run again: a scope only
/// chooses the barrier the lowering emits (gpu.barrier or bar.warp.sync, at
/// the same place), and the run does not tell the two apart but in each
/// barrier's kind. Its simulation is the kept one's run with the barriers'
/// kinds of the kernel as it is now.
///
/// A plan whose lowered code is exactly code run before in this context,
/// while that run lives (printed whole, with locations, and hashed), is not
/// run again either: obs-assign-work's copies of one kernel often lower
/// alike (compact deals out a fresh stage as strided does). Its simulation
/// is its own lowering with that run taken over to its ops.
class KernelSimulations {
public:
  KernelSimulations(Operation *kernel, AnalysisManager &analyses)
      : changed(analyses.getAnalysis<ChangedElementsCache>()) {}

  /// The simulation of `kernel` as it is now: a kept one when the kernel
  /// has not changed since, otherwise a new one. Fails, with the reason
  /// reported, as simulateKernel does.
  FailureOr<std::shared_ptr<const KernelSimulation>> simulate(KernelOp kernel);

  /// Keeps `simulation` as the simulation of `kernel` as it is now: one made
  /// elsewhere of the same code (a refined copy that `kernel` took the
  /// place of, whose simulation is self-contained).
  void keep(KernelOp kernel,
            std::shared_ptr<const KernelSimulation> simulation);

  ChangedElementsCache &changedElements() { return changed; }
  /// Kept across passes: the fingerprint decides.
  bool isInvalidated(const AnalysisManager::PreservedAnalyses &) {
    return false;
  }
  /// Simulations made, handed out again, and derived from another for
  /// other barrier scopes, for pass statistics.
  uint64_t getSimulated() const { return simulated; }
  uint64_t getReused() const { return reused; }
  uint64_t getRescoped() const { return rescoped; }
  uint64_t getShared() const { return shared; }

private:
  ChangedElementsCache &changed;
  /// How many simulations are kept: each holds a lowered copy of the kernel
  /// and every access of its block.
  static constexpr unsigned kKept = 3;
  struct Kept {
    /// The kernel's fingerprint.
    OperationFingerPrint plan;
    /// Its fingerprint with no sync scopes, where the kernel is flat (the
    /// simulation may be rescoped for a kernel with the same one).
    std::optional<OperationFingerPrint> rescopeKey;
    std::shared_ptr<const KernelSimulation> simulation;
  };
  /// Keeps `kept`, the most recently used.
  void remember(Kept kept);
  /// The kept simulations, the most recently used first.
  SmallVector<Kept, kKept> recent;
  uint64_t simulated = 0, reused = 0, rescoped = 0, shared = 0;
};

/// The block obs-verify-sync simulated when it proved a kernel with
/// `kernel`'s content (`key`, ObsDialect::getProofKey) in this context,
/// among the most recent proofs (ObsDialect::recordProvedKernel); or null.
/// The launch proof of a lowering that follows obs-optimize reads it rather
/// than simulate the same kernel again (a radix sort's scatter kernel
/// takes a second). Only the run is handed out: the simulation's syncs are
/// those of the kernel it was made for, which may be another op by then (a
/// copy of the module).
std::shared_ptr<const BlockRun> findProvedRun(KernelOp kernel,
                                              const ObsDialect::ProofKey &key);

/// Counts, into a pass's statistics `made`, `reused`, `rescoped` and
/// `shared` ("simulations", "simulations-reused", "simulations-rescoped"
/// and "simulations-shared"), the simulations `simulations` makes, hands
/// out again, derives from a kept one for other scopes, and takes from
/// another copy's run of the same code while it lives: how close the
/// passes come to one simulation per plan.
class SimulationCount {
public:
  SimulationCount(Pass &pass, Pass::Statistic &made, Pass::Statistic &reused,
                  Pass::Statistic &rescoped, Pass::Statistic &shared,
                  const KernelSimulations &simulations)
      : pass(pass), made(made), reused(reused), rescoped(rescoped),
        shared(shared), simulations(simulations),
        madeBefore(simulations.getSimulated()),
        reusedBefore(simulations.getReused()),
        rescopedBefore(simulations.getRescoped()),
        sharedBefore(simulations.getShared()) {}
  ~SimulationCount();

private:
  Pass &pass;
  Pass::Statistic &made, &reused, &rescoped, &shared;
  const KernelSimulations &simulations;
  uint64_t madeBefore, reusedBefore, rescopedBefore, sharedBefore;
};

/// Reports, at the syncs, every written choice of `simulation`'s kernel
/// that is not safe (obs-verify-sync's proof): an in-place placement the
/// lowering could not honour, a read of registers or shuffles that gets
/// another thread's value, and one hazard per responsible sync. Fails when
/// it reported anything.
LogicalResult reportUnsafeSyncs(const KernelSimulation &simulation);

/// The sync whose barrier is the `barrier`-th the block passes (the one its
/// phase `barrier` ends); null for a barrier of no sync or past the last.
SyncOp syncOfBarrier(const KernelSimulation &simulation, unsigned barrier);

/// The sync responsible for `hazard` (null when none is): the stage that
/// has it when it is within one stage, otherwise the first warp-scoped sync
/// between the two accesses.
SyncOp responsibleSync(const KernelSimulation &simulation,
                       const Hazard &hazard);

/// Reports `hazard` at the sync responsible for it: the stage that has it
/// when it is within one stage, otherwise the warp-scoped sync that does
/// not order it. The message names the two threads (and warps), the
/// element, the buffer and the kind of hazard.
void reportHazard(const KernelSimulation &simulation, const Hazard &hazard);

/// Reports `wrong`, a read of an array in registers by a thread that did not
/// compute the element, as an error at its sync, naming the two threads
/// and the element.
void reportRegisterViolation(const KernelSimulation &simulation,
                             const RegisterReadViolation &wrong);

/// A refinement of syncs, decided by simulation: `apply` makes the choice on
/// a sync, `undo` takes it back, and `took` says whether a simulation shows
/// the choice in effect (an in-place sync the lowering found no array to
/// overwrite for has not taken).
/// Whether `kernel`, as it is now, is one a refinement pass may start
/// from: its simulation finds no hazard and no wrong read of an array in
/// registers (a kernel with either is the verifier's to report). Fails,
/// with the reason reported, when it cannot be simulated. The simulation
/// goes to `simulated` where it is given.
FailureOr<bool>
isSafeToRefine(KernelOp kernel, KernelSimulations &simulations,
               std::shared_ptr<const KernelSimulation> *simulated = nullptr);

struct SyncRefinement {
  llvm::function_ref<void(SyncOp)> apply;
  llvm::function_ref<void(SyncOp)> undo;
  llvm::function_ref<bool(const KernelSimulation &, unsigned syncIndex)> took;
  /// Where a choice did not take in `simulation`, makes the next one the
  /// pass would try instead (registers, then shuffles) and returns true, so
  /// that the sync stays a candidate and the next round tries it with the
  /// others; returns false where there is none, or where `simulation`
  /// already shows that it cannot take either (the choice is then undone).
  llvm::function_ref<bool(const KernelSimulation &simulation,
                          unsigned syncIndex, SyncOp)>
      fallBack = nullptr;
};

/// Makes `refinement` on as many of `candidates` (syncs of the hazard-free
/// flat kernel `kernel`) as it can while the kernel stays hazard-free, and
/// returns the simulation of the result. It is optimistic: every candidate
/// at once, then the choices that hazards are attributed to are undone
/// until none is left, one simulation per round rather than one per sync.
/// A hazard it cannot attribute falls back to trying the candidates one by
/// one. A choice that did not take is replaced by the refinement's next
/// one for the sync, if it has one, in the same rounds. Either way the
/// result is a kernel that simulates hazard-free.
FailureOr<std::shared_ptr<const KernelSimulation>>
refineSyncs(KernelOp kernel, ArrayRef<SyncOp> candidates,
            const SyncRefinement &refinement, KernelSimulations &simulations);

/// refineSyncs on a kernel no simulation has yet shown safe to refine
/// (isSafeToRefine), without simulating it as it is where that is not
/// needed: the rounds of every candidate at once come first, and the
/// kernel as it was is simulated only when one of them finds a hazard, or
/// a wrong read of an array no candidate chose, which that kernel may
/// already have had. Returns null, with every choice undone, where the
/// kernel as it was is not safe to refine. A result that simulates clean is
/// safe whatever the kernel was before, so where the choices are safe
/// together (registers and shuffles just after the work is dealt out, for
/// each of obs-assign-work's copies) the simulation of the kernel as dealt
/// out is never made.
FailureOr<std::shared_ptr<const KernelSimulation>>
refineSyncsOfUnprovedKernel(KernelOp kernel, ArrayRef<SyncOp> candidates,
                            const SyncRefinement &refinement,
                            KernelSimulations &simulations);

} // namespace mlir::obs

#endif // OBS_ANALYSIS_KERNELSIMULATION_H
