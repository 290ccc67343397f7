//===- obs-lsp-server.cpp - the MLIR language server, with obs ------------===//
//
// MLIR's LSP server (diagnostics, hover, go-to-definition, symbols) for .mlir
// files that use obs, and the upstream dialects obs lowers through. Point an
// editor's MLIR extension at it (for VS Code, `mlir.server_path`).
//
//===----------------------------------------------------------------------===//

#include "Obs/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::obs::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
