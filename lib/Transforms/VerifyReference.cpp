//===- VerifyReference.cpp - the reference target's proof -----------------===//
//
// The reference target runs kernels as written, through a lowering simple
// enough to trust; it must not run a kernel that the GPU targets would run
// with a race. So it proves what they prove, on what they run: a copy of the
// module with its networks expanded, flattened and canonicalized, as the
// GPU pipelines prepare it. The module itself is not changed, so the oracle
// stays independent of those rewrites.
//
//===----------------------------------------------------------------------===//

#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSVERIFYREFERENCE
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsVerifyReferencePass
    : mlir::obs::impl::ObsVerifyReferenceBase<ObsVerifyReferencePass> {
  ObsVerifyReferencePass() : proof(ModuleOp::getOperationName()) {
    OpPassManager &kernels = proof.nest<KernelOp>();
    kernels.addPass(createObsExpandNetworks());
    kernels.addPass(createObsFlatten());
    kernels.addPass(createSoundCanonicalizerPass());
    // A kernel whose syncs are all open, and that reads and writes nowhere
    // but where its arrays say, is safe by construction; one no GPU block
    // could run (more than 1024 threads) still runs here.
    ObsVerifySyncOptions options;
    options.skipSafeByConstruction = true;
    kernels.addPass(createObsVerifySync(options));
    proof.addPass(createObsVerifyLaunches());
  }
  ObsVerifyReferencePass(const ObsVerifyReferencePass &other)
      : ObsVerifyReferenceBase(other), proof(other.proof) {}

  void getDependentDialects(DialectRegistry &registry) const override {
    ObsVerifyReferenceBase::getDependentDialects(registry);
    proof.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The copy is nested in the module while the proof runs on it (a pass
    // may run a pipeline only on what it holds), then goes.
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto copy = ModuleOp::create(builder, module.getLoc());
    builder.setInsertionPointToEnd(copy.getBody());
    for (Operation &op : module.getBody()->getOperations())
      if (&op != copy.getOperation())
        builder.clone(op);
    LogicalResult proved = runPipeline(proof, copy);
    copy.erase();
    if (failed(proved))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  OpPassManager proof;
};
} // namespace

std::unique_ptr<Pass> mlir::obs::createObsVerifyReference() {
  return std::make_unique<ObsVerifyReferencePass>();
}
