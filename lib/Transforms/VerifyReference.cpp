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
  explicit ObsVerifyReferencePass(
      std::function<void(OpPassManager &)> buildDefaultRefinement = {})
      : proof(ModuleOp::getOperationName()),
        refinedProof(ModuleOp::getOperationName()) {
    if (buildDefaultRefinement) {
      buildDefaultRefinement(refinedProof);
      refinedProof.addPass(createObsVerifyLaunches());
    }
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
      : ObsVerifyReferenceBase(other), proof(other.proof),
        refinedProof(other.refinedProof) {}

  void getDependentDialects(DialectRegistry &registry) const override {
    ObsVerifyReferenceBase::getDependentDialects(registry);
    proof.getDependentDialects(registry);
    refinedProof.getDependentDialects(registry);
  }

  /// Runs `pipeline` on a copy of the module's ops, nested in the module
  /// while it runs (a pass may run a pipeline only on what it holds).
  LogicalResult proveCopy(OpPassManager &pipeline) {
    ModuleOp module = getOperation();
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto copy = ModuleOp::create(builder, module.getLoc());
    builder.setInsertionPointToEnd(copy.getBody());
    for (Operation &op : module.getBody()->getOperations())
      if (&op != copy.getOperation())
        builder.clone(op);
    LogicalResult proved = runPipeline(pipeline, copy);
    copy.erase();
    return proved;
  }

  void runOnOperation() override {
    if (refinedProof.size() == 0) {
      if (failed(proveCopy(proof)))
        return signalPassFailure();
      return markAllAnalysesPreserved();
    }
    // The proof as written first; its diagnostics are kept until the
    // proof as the GPU targets refine the kernels by default has had its
    // say: where that one holds, they accept the kernel, and so does ref
    // (`--check` compared a run with a target that refused it).
    MLIRContext *context = &getContext();
    SmallVector<Diagnostic> asWritten;
    LogicalResult proved = failure();
    {
      ScopedDiagnosticHandler keep(context, [&](Diagnostic &diagnostic) {
        asWritten.push_back(std::move(diagnostic));
        return success();
      });
      proved = proveCopy(proof);
    }
    if (succeeded(proved))
      return markAllAnalysesPreserved();
    {
      ScopedDiagnosticHandler quiet(context,
                                    [](Diagnostic &) { return success(); });
      proved = proveCopy(refinedProof);
    }
    if (succeeded(proved))
      return markAllAnalysesPreserved();
    for (Diagnostic &diagnostic : asWritten)
      context->getDiagEngine().emit(std::move(diagnostic));
    signalPassFailure();
  }

  OpPassManager proof;
  /// The default refinement and the proof after it, where the pipeline
  /// that made this pass gave one (empty where it gave none).
  OpPassManager refinedProof;
};
} // namespace

std::unique_ptr<Pass> mlir::obs::createObsVerifyReference(
    std::function<void(OpPassManager &)> buildDefaultRefinement) {
  return std::make_unique<ObsVerifyReferencePass>(
      std::move(buildDefaultRefinement));
}
