//===- obs-opt.cpp - the obs optimizer driver -----------------------------===//
//
// mlir-opt for obs: the obs dialect, passes and pipelines, plus the upstream
// dialects and passes that obs pipelines go through.
//
//===----------------------------------------------------------------------===//

#include "Obs/Conversion/Passes.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Pipelines/Pipelines.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::obs::test {
void registerTestPasses();
} // namespace mlir::obs::test

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::obs::registerObsConversionPasses();
  mlir::obs::registerObsTransformsPasses();
  mlir::obs::registerPipelines();
  mlir::obs::test::registerTestPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::obs::ObsDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::LLVM::LLVMDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::ub::UBDialect>();
  mlir::LogicalResult result =
      mlir::MlirOptMain(argc, argv, "obs optimizer driver\n", registry);
  if (mlir::obs::statisticsRequested())
    mlir::obs::printStatistics(llvm::errs());
  return mlir::asMainReturnCode(result);
}
