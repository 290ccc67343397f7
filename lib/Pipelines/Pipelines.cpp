//===- Pipelines.cpp - obs pass pipelines ---------------------------------===//

#include "Obs/Pipelines/Pipelines.h"
#include "Obs/Conversion/Passes.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::obs::buildHostToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::obs::buildReferencePipeline(OpPassManager &pm) {
  pm.addPass(createObsLowerReference());
  buildHostToLLVMPipeline(pm);
}

void mlir::obs::registerPipelines() {
  PassPipelineRegistration<>(
      "obs-reference",
      "The ref target: obs kernels to sequential loops, one buffer per "
      "array, then to the LLVM dialect",
      buildReferencePipeline);
  PassPipelineRegistration<>(
      "obs-host-to-llvm",
      "Host code (func, scf, arith, math, memref, cf) to the LLVM dialect, "
      "memrefs passed as bare pointers",
      buildHostToLLVMPipeline);
}
