//===- VerifySync.cpp - prove every sync safe -----------------------------===//

#include "Obs/Analysis/KernelSimulation.h"
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
#define GEN_PASS_DEF_OBSVERIFYSYNC
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// Whether `kernel` is safe by construction on the reference target: every
/// sync open (block barriers, fresh buffers, the default sweep), and either
/// no op whose places come from the code (obs.index, obs.scatter), which may
/// leave an array or meet another thread's, or more threads than any GPU
/// block has, which only ref runs, checking those places as it runs.
static bool isSafeByConstruction(KernelOp kernel) {
  bool placesFromCode = false;
  bool refined =
      kernel
          .walk([&](Operation *op) {
            placesFromCode |= isa<IndexOp, ScatterOp>(op);
            auto sync = dyn_cast<SyncOp>(op);
            return sync && (sync.getScopeAttr() || sync.getPlacementAttr() ||
                            sync.getHowAttr() || sync.getStorageAttr() ||
                            sync.getPlanAttr())
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
  return !refined &&
         (!placesFromCode || kernel.getBlockThreads() > KernelOp::kMaxThreads);
}

namespace {
struct ObsVerifySyncPass
    : mlir::obs::impl::ObsVerifySyncBase<ObsVerifySyncPass> {
  using ObsVerifySyncBase::ObsVerifySyncBase;

  void runOnOperation() override {
    KernelOp kernel = getOperation();
    if (skipSafeByConstruction && isSafeByConstruction(kernel))
      return;
    auto &simulations = getAnalysis<KernelSimulations>();
    SimulationCount count(*this, numSimulations, numSimulationsReused,
                          simulations);
    FailureOr<std::shared_ptr<const KernelSimulation>> simulated =
        simulations.simulate(kernel);
    if (failed(simulated))
      return signalPassFailure();
    const KernelSimulation *simulation = simulated->get();
    bool failed = false;
    // An in-place sync needs an array in shared memory to overwrite, and a
    // shared buffer of its own to write: a written placement that the
    // lowering could not honour is rejected, never dropped.
    for (SyncOp sync : simulation->syncs) {
      if (sync.getPlacementOrDefault() != Placement::InPlace ||
          simulation->placedInPlace.contains(sync))
        continue;
      InFlightDiagnostic diag = sync.emitOpError();
      tagError(diag, ErrorKind::RejectedChoice);
      failed = true;
      if (sync.isOutputOnly()) {
        diag << "in place cannot apply: its array is only returned, so its "
                "stage writes the kernel's results in global memory, not a "
                "shared buffer";
        continue;
      }
      if (sync.isYieldedByRepeat()) {
        diag << "in place cannot apply: the repeat body yields its array, "
                "which then overwrites the buffer the iteration read only "
                "where its stage reads the repeat's own array and nothing "
                "else does; this stage reads another array too, or "
                "another stage reads the repeat's";
        continue;
      }
      diag << "in place has nothing to overwrite: its stage reads no array "
              "of type "
           << sync.getType() << " from shared memory that no later stage reads";
    }
    // An array in registers read by a thread that did not compute the
    // element: the value is not in its registers.
    for (const RegisterReadViolation &wrong :
         simulation->run.getRegisterViolations()) {
      reportRegisterViolation(*simulation, wrong);
      failed = true;
    }
    // One report per responsible sync: the first hazard found for it.
    llvm::DenseSet<Operation *> reported;
    for (const Hazard &hazard : simulation->sharedHazards(/*limit=*/64)) {
      if (!reported.insert(responsibleSync(*simulation, hazard)).second)
        continue;
      reportHazard(*simulation, hazard);
      failed = true;
    }
    if (failed)
      return signalPassFailure();
    addToStatistic(*this, numVerified, "syncs-verified",
                   simulation->syncs.size());
  }
};
} // namespace
