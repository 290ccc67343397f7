//===- obs-lsp-server.cpp - the MLIR language server, with obs ------------===//
//
// MLIR's LSP server (diagnostics, hover, go-to-definition, symbols) for .mlir
// files that use obs, and the upstream dialects obs lowers through. Point an
// editor's MLIR extension at it (for VS Code, `mlir.server_path`).
//
// Beyond the verifier's errors, every obs.kernel is proved as obs-verify-sync
// proves it (the kernel as written, in one block's simulation), so an editor
// shows a race, a wrong read of registers or an in-place placement that
// cannot apply where the file is opened or changed, not at the next compile.
// Launches are proved with the module (obs-verify-launches), which the
// server does not run.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/InitAll.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

using namespace mlir;

/// obs-verify-sync's proof of `op`, an obs.kernel, its errors reported at
/// its ops.
static LogicalResult proveSyncs(Operation *op) {
  FailureOr<obs::KernelSimulation> simulated =
      obs::simulateKernel(cast<obs::KernelOp>(op));
  if (failed(simulated))
    return failure();
  return obs::reportUnsafeSyncs(*simulated);
}

int main(int argc, char **argv) {
  DialectRegistry registry;
  obs::registerAllDialects(registry);
  registry.addExtension(+[](MLIRContext *context, obs::ObsDialect *dialect) {
    // The simulation lowers a copy of the kernel into these: loaded now,
    // not while the verifier runs.
    context->loadDialect<arith::ArithDialect, gpu::GPUDialect,
                         memref::MemRefDialect, NVVM::NVVMDialect,
                         scf::SCFDialect, ub::UBDialect>();
    dialect->setKernelCheck(proveSyncs);
  });
  return failed(MlirLspServerMain(argc, argv, registry));
}
