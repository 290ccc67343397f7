//===- obs-lsp-server.cpp - the MLIR language server, with obs ------------===//
//
// MLIR's LSP server (diagnostics, hover, go-to-definition, symbols) for .mlir
// files that use obs, and the upstream dialects obs lowers through. Point an
// editor's MLIR extension at it (for VS Code, `mlir.server_path`).
//
// Beyond the verifier's errors, every obs.kernel is proved as the reference
// target proves it (obs-verify-reference: networks expanded, flattened, its
// written choices simulated; a halo argument read as by one block), so an
// editor shows a race, a wrong read of registers or an in-place placement that
// cannot apply where the file is opened or changed, not at the next compile.
// So are a module's launches (obs-verify-launches, once per module): blocks
// that write what another block reads.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/InitAll.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

using namespace mlir;

/// The proof of one kernel: its halo arguments expanded as for one block
/// over its tile (obs-expand-device, which a kernel alone gives nothing
/// else to do), then the reference target's proof.
static void buildKernelProof(OpPassManager &pm) {
  pm.addPass(obs::createObsExpandDevice());
  pm.addPass(obs::createObsVerifyReference());
}

/// Runs a proof on `copy`, its diagnostics without the generic form of
/// their op attached (an editor shows each as a message at its location).
static void runQuietly(PassManager &pm, Operation *copy) {
  MLIRContext *context = copy->getContext();
  bool printed = context->shouldPrintOpOnDiagnostic();
  context->printOpOnDiagnostic(false);
  (void)pm.run(copy);
  context->printOpOnDiagnostic(printed);
}

/// Reports, at `op`'s ops, what the reference target's proof finds wrong
/// with `op`, an obs.kernel, proved on a copy. Always succeeds: a kernel the
/// proof rejects is still a file the editor can navigate (a failed verifier
/// would leave the server without the file's IR).
static LogicalResult proveKernel(Operation *op) {
  // The proof verifies nothing itself, but stays out of its own way should
  // anything verify the copy.
  static thread_local bool proving = false;
  if (proving)
    return success();
  proving = true;
  OwningOpRef<ModuleOp> copy = ModuleOp::create(op->getLoc());
  copy->getBody()->push_back(op->clone());
  PassManager pm(op->getContext());
  pm.enableVerifier(false);
  buildKernelProof(pm);
  runQuietly(pm, *copy);
  proving = false;
  return success();
}

/// The proof of a module's launches, with its kernels prepared as the GPU
/// pipelines prepare them: networks expanded and flattened.
static void buildLaunchProof(OpPassManager &pm) {
  pm.addPass(obs::createObsExpandDevice());
  OpPassManager &kernels = pm.nest<obs::KernelOp>();
  kernels.addPass(obs::createObsExpandNetworks());
  kernels.addPass(obs::createObsFlatten());
  pm.addPass(obs::createObsVerifyLaunches());
}

/// Reports what the launch proof finds wrong with `module`'s launches
/// (blocks that write what another block reads), proved on a copy. Always
/// succeeds, as proveKernel does.
static LogicalResult proveLaunches(Operation *module) {
  static thread_local bool proving = false;
  if (proving)
    return success();
  proving = true;
  OwningOpRef<Operation *> copy = module->clone();
  PassManager pm(module->getContext(), module->getName().getStringRef());
  pm.enableVerifier(false);
  buildLaunchProof(pm);
  runQuietly(pm, *copy);
  proving = false;
  return success();
}

int main(int argc, char **argv) {
  DialectRegistry registry;
  obs::registerAllDialects(registry);
  registry.addExtension(+[](MLIRContext *context, obs::ObsDialect *dialect) {
    // What the proof lowers a copy into, loaded now rather than while a
    // file is verified.
    DialectRegistry proofDialects;
    OpPassManager proof(ModuleOp::getOperationName());
    buildKernelProof(proof);
    buildLaunchProof(proof);
    proof.getDependentDialects(proofDialects);
    context->appendDialectRegistry(proofDialects);
    for (StringRef name : proofDialects.getDialectNames())
      context->getOrLoadDialect(name);
    dialect->setKernelCheck(proveKernel);
    dialect->setLaunchCheck(proveLaunches);
  });
  return failed(MlirLspServerMain(argc, argv, registry));
}
