//===- VerifySync.cpp - prove every sync safe -----------------------------===//

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
            placesFromCode |= isa<IndexOp, ScatterOp, CarryOp>(op);
            auto sync = dyn_cast<SyncOp>(op);
            return sync && (sync.getScopeAttr() || sync.getPlacementAttr() ||
                            sync.getHowAttr() || sync.getStorageAttr() ||
                            sync.getPlanAttr())
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
  // A shared-memory plan in the input is proved as any other choice.
  bool planned = static_cast<bool>(
      ObsDialect::SharedBytesAttrHelper(kernel.getContext()).getAttr(kernel));
  return !refined && !planned &&
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
    // Proved already in this context, exactly as it is now (the end of
    // obs-optimize, when the lowering follows in the same process).
    auto *dialect = cast<ObsDialect>(kernel->getDialect());
    ObsDialect::ProofKey proofKey = ObsDialect::getProofKey(kernel);
    if (dialect->isProvedKernel(proofKey)) {
      addToStatistic(*this, numAlreadyProved, "kernels-already-proved");
      return;
    }
    auto &simulations = getAnalysis<KernelSimulations>();
    SimulationCount count(*this, numSimulations, numSimulationsReused,
                          numSimulationsRescoped, numSimulationsShared,
                          simulations);
    FailureOr<std::shared_ptr<const KernelSimulation>> simulated =
        simulations.simulate(kernel);
    if (failed(simulated))
      return signalPassFailure();
    const KernelSimulation *simulation = simulated->get();
    if (failed(reportUnsafeSyncs(*simulation)))
      return signalPassFailure();
    addToStatistic(*this, numVerified, "syncs-verified",
                   simulation->syncs.size());
    dialect->recordProvedKernel(proofKey, *simulated);
  }
};
} // namespace
