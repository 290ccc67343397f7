//===- obs-libfuzzer.cpp - libFuzzer on the obs compiler ------------------===//
//
// Feeds arbitrary bytes to the compiler as a .mlir file: parse, verify,
// then obs-optimize and the kernel lowering (obs-to-gpu, then the cpu
// target's obs-gpu-to-cpu), and the reference lowering (obs-lower-reference).
// The upstream conversions to the LLVM dialect after them are left out:
// they are not obs's, and they would halve the executions per second. An input
// the parser or the verifier rejects is fine, and so is a pass that fails with
// a diagnostic; a crash, an assertion, or IR that a pass leaves failing the
// verifier is a bug, and aborts so that libFuzzer saves the input.
//
//   obs-libfuzzer CORPUS_DIR -dict=tools/obs-libfuzzer/obs.dict
//
// Programs are kept small (at most 512 elements per array) so that each
// run takes milliseconds; the refinement passes simulate every thread.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/InitAll.h"
#include "Obs/Support/SourceNesting.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace mlir;

namespace {

/// After every pass, the IR must verify: a pass that leaves it invalid is a
/// bug even when the pipeline goes on to fail.
struct VerifyAfterEachPass : PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    if (succeeded(verify(op)))
      return;
    llvm::errs() << "obs-libfuzzer: " << pass->getArgument()
                 << " left IR that does not verify\n";
    abort();
  }
};

MLIRContext &context() {
  static MLIRContext *instance = [] {
    DialectRegistry registry;
    obs::registerAllDialects(registry);
    obs::registerAllPasses();
    auto *context = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    // Diagnostics are expected; keep them quiet.
    context->getDiagEngine().registerHandler(
        [](Diagnostic &) { return success(); });
    return context;
  }();
  return *instance;
}

/// Whether every array type in `module` is small.
bool isSmall(ModuleOp module) {
  bool small = true;
  module.walk([&](Operation *op) {
    auto check = [&](Type type) {
      if (auto array = dyn_cast<obs::ArrType>(type))
        small &= array.getNumLeaves() <= 512;
    };
    for (Type type : op->getResultTypes())
      check(type);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type type : block.getArgumentTypes())
          check(type);
    if (auto kernel = dyn_cast<obs::KernelOp>(op))
      for (Type type : kernel.getArgumentTypes())
        check(type);
  });
  return small;
}

void runPipeline(ModuleOp module, StringRef pipeline) {
  OwningOpRef<ModuleOp> copy(module.clone());
  PassManager pm(module.getContext());
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  if (failed(parsePassPipeline(pipeline, pm)))
    abort();
  (void)pm.run(*copy);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = context();
  // MLIR's lexer reads one past the end of its buffer, expecting the NUL
  // that files read by MemoryBuffer have and libFuzzer's data has not.
  std::string copy(reinterpret_cast<const char *>(data), size);
  StringRef text(copy.c_str(), size);
  // obs-opt and obs-run refuse these before parsing too: the parser's
  // recursion is MLIR's, and its stack overflow is not what this looks for.
  if (obs::findExcessiveNesting(text))
    return 0;
  ParserConfig config(&ctx, /*verifyAfterParse=*/true);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module || !isSmall(*module))
    return 0;
  runPipeline(*module, "obs-optimize,obs-to-gpu,obs-gpu-to-cpu");
  runPipeline(*module, "obs-verify-launches,obs-lower-reference");
  return 0;
}
