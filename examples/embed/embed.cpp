//===- embed.cpp - a compiler that builds an obs kernel from C++ ----------===//
//
// What a compiler writer embedding obs does: register the dialects and
// passes in its own context, build kernels with the combinator functions of
// Obs/Builder (here seed 002's Sklansky, written as the paper writes it, by
// recursion), and run obs's pipelines on them.
//
//   embed-obs N [THREADS]   prints the PTX of an N-element prefix sum
//   embed-obs N THREADS --device
//                           the same, for the GPU's own chip, which obs's
//                           CUDA runtime (linked in) asks the driver for
//
//===----------------------------------------------------------------------===//

#include "Obs/Builder/Combinators.h"
#include "Obs/InitAll.h"
#include "Obs/Runtime/CudaRuntime.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <cstring>
#include <string>

using namespace mlir;
using namespace mlir::obs;
namespace dsl = mlir::obs::dsl;

// sklansky 0 op = pure id
// sklansky n op = two (sklansky (n-1) op) ->- pure (fan op) ->- sync
static Value sklansky(ImplicitLocOpBuilder &b, Value array, dsl::BinaryFn op) {
  if (dsl::length(array) == 1)
    return array;
  Value halves = dsl::two(b, array, [&](ImplicitLocOpBuilder &b, Value half) {
    return sklansky(b, half, op);
  });
  return dsl::sync(b, dsl::fan(b, halves, op));
}

int main(int argc, char **argv) {
  uint64_t length = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 512;
  uint64_t threads = argc > 2 ? std::strtoull(argv[2], nullptr, 10)
                              : std::max<uint64_t>(1, length / 2);
  if (length == 0 || (length & (length - 1)) != 0) {
    llvm::errs() << "embed-obs: the length must be a power of two\n";
    return 1;
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllPasses();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  // obs.kernel @prefix_sum(%in: !obs.arr<N x i32>) -> !obs.arr<N x i32>
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
  ImplicitLocOpBuilder b(module->getLoc(), &context);
  b.setInsertionPointToEnd(module->getBody());
  auto array = ArrType::get(length, b.getI32Type());
  auto kernel =
      KernelOp::create(b, "prefix_sum", b.getFunctionType({array}, {array}));
  Block *body = &kernel.getBody().front();
  b.setInsertionPointToStart(body);
  auto add = [](ImplicitLocOpBuilder &b, ValueRange x, ValueRange y) {
    return SmallVector<Value>{arith::AddIOp::create(b, x[0], y[0])};
  };
  Value sums = sklansky(b, body->getArgument(0), add);
  ReturnOp::create(b, sums);
  if (failed(verify(*module))) {
    llvm::errs() << "embed-obs: the kernel does not verify\n";
    return 1;
  }

  // The chip: the device's, through obs's CUDA runtime, or sm_90.
  std::string chip = "sm_90";
  if (argc > 3 && std::strcmp(argv[3], "--device") == 0) {
    int major = 0, minor = 0;
    if (obsCudaComputeCapability(&major, &minor) != 0) {
      llvm::errs() << "embed-obs: " << obsCudaError() << "\n";
      obsCudaRelease();
      return 1;
    }
    chip = "sm_" + std::to_string(major) + std::to_string(minor);
    obsCudaRelease();
  }

  // Refine for THREADS threads as the paper does (pairNth: strided), prove
  // it, and lower to PTX.
  PassManager pm(&context);
  std::string pipeline = "obs-optimize{threads=" + std::to_string(threads) +
                         " strategy=strided},obs-to-ptx{chip=" + chip + "}";
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())) ||
      failed(pm.run(*module))) {
    llvm::errs() << "embed-obs: the pipeline failed\n";
    return 1;
  }
  module->walk([](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      llvm::outs() << cast<gpu::ObjectAttr>(object).getObject().getValue();
  });
  return 0;
}
