//===- obs-opt.cpp - the obs optimizer driver -----------------------------===//
//
// mlir-opt for obs: the obs dialect, passes and pipelines, plus the upstream
// dialects and passes that obs pipelines go through.
//
//===----------------------------------------------------------------------===//

#include "Obs/InitAll.h"
#include "Obs/Support/Statistics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::obs::test {
void registerTestPasses();
} // namespace mlir::obs::test

int main(int argc, char **argv) {
  mlir::obs::registerAllPasses();
  mlir::obs::test::registerTestPasses();

  mlir::DialectRegistry registry;
  mlir::obs::registerAllDialects(registry);
  mlir::LogicalResult result =
      mlir::MlirOptMain(argc, argv, "obs optimizer driver\n", registry);
  if (mlir::obs::statisticsRequested())
    mlir::obs::printStatistics(llvm::errs());
  return mlir::asMainReturnCode(result);
}
