//===- obs-opt.cpp - the obs optimizer driver -----------------------------===//
//
// mlir-opt for obs: the obs dialect, passes and pipelines, plus the upstream
// dialects and passes that obs pipelines go through. It is MlirOptMain with
// one step before parsing: a file nested deeper than the parser's stack
// allows is refused with an error instead of a crash.
//
//===----------------------------------------------------------------------===//

#include "Obs/InitAll.h"
#include "Obs/Support/ProcessMemory.h"
#include "Obs/Support/SourceNesting.h"
#include "Obs/Support/Statistics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::obs::test {
void registerTestPasses();
} // namespace mlir::obs::test

using namespace mlir;

/// Parses and runs `inputFilename` as MlirOptMain(argc, argv, ...) does, once
/// its nesting is known to be within what the parser can take.
static LogicalResult optimize(StringRef inputFilename, StringRef outputFilename,
                              DialectRegistry &registry,
                              const MlirOptMainConfig &config) {
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  {
    // The check's own SourceMgr owns a copy only for the error's location.
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    if (failed(obs::checkSourceNesting(sourceMgr)))
      return failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return failure();
  output->keep();
  return success();
}

/// Whether `name` is one of obs's passes or pipelines, by its argument.
static bool isObsPassName(StringRef name) {
  return name.starts_with("obs-") || name.contains("-obs-") ||
         name.ends_with("-obs");
}

/// obs's passes and pipelines, with their summaries, under a heading of
/// their own: --help lists them among some 800 lines of upstream passes.
/// Read from the command line's registered options (a pass is one once the
/// pass list is registered), so that none is missing.
static std::string describeObsPasses() {
  SmallVector<StringRef> passes, pipelines;
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    StringRef name = entry.first;
    if (!isObsPassName(name))
      continue;
    if (PassInfo::lookup(name))
      passes.push_back(name);
    else if (PassPipelineInfo::lookup(name))
      pipelines.push_back(name);
  }
  llvm::sort(passes);
  llvm::sort(pipelines);
  std::string text;
  llvm::raw_string_ostream os(text);
  auto list = [&](StringRef heading, ArrayRef<StringRef> names, auto lookup) {
    os << "\n" << heading << ":\n";
    for (StringRef name : names)
      os << "  --" << name << " - " << lookup(name)->getPassDescription()
         << "\n";
  };
  os << "\nOBS PASSES (in the list above too; docs/generated/ObsPasses.md "
        "describes each):\n";
  list("obs pipelines", pipelines,
       [](StringRef name) { return PassPipelineInfo::lookup(name); });
  list("obs passes", passes,
       [](StringRef name) { return PassInfo::lookup(name); });
  return text;
}

int main(int argc, char **argv) {
  obs::guardToolProcess("obs-opt");
  obs::registerAllPasses();
  obs::test::registerTestPasses();

  DialectRegistry registry;
  obs::registerAllDialects(registry);
  // The pass list's options exist once MlirOptMain's are registered (which
  // registerAndParseCLIOptions does again, harmlessly), and --help prints
  // while they are parsed.
  MlirOptMainConfig::registerCLOptions(registry);
  static std::string obsPasses = describeObsPasses();
  static llvm::cl::extrahelp obsPassesHelp(obsPasses);
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "obs optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // Listing dialects or passes reads no file.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  llvm::InitLLVM initLLVM(argc, argv);
  LogicalResult result =
      optimize(inputFilename, outputFilename, registry, config);
  if (obs::statisticsRequested())
    obs::printStatistics(llvm::errs());
  return asMainReturnCode(result);
}
