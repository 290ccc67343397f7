//===- obs-run.cpp - runs obs kernels -------------------------------------===//
//
// obs-run FILE.mlir --kernel=NAME --target=ref --input=... [--output=FILE]
//
// Parses and verifies FILE, lowers the kernel for the target, JIT-compiles it
// with MLIR's ExecutionEngine and runs it on the inputs. Bad input of any kind
// is one line on stderr and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "HostData.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Pipelines/Pipelines.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
using namespace obs_run;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("obs-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::Required, cl::cat(runCategory));

static cl::opt<std::string>
    kernelName("kernel",
               cl::desc("The obs.kernel to run, by its symbol name (without "
                        "the @)"),
               cl::value_desc("name"), cl::cat(runCategory));

static cl::opt<std::string> targetName(
    "target",
    cl::desc("Where the kernel runs:\n"
             "  ref  sequential loops, one buffer per array: the oracle"),
    cl::value_desc("ref"), cl::init("ref"), cl::cat(runCategory));

static cl::list<std::string> inputs(
    "input",
    cl::desc("The data of one kernel argument; give one per argument, in "
             "order. Forms:\n"
             "  iota              0, 1, 2, ...\n"
             "  iota:START        START, START+1, ...\n"
             "  random:SEED       integers in [0, 100] (reals in [0, 100))\n"
             "  random:SEED:LO:HI integers in [LO, HI] (reals in [LO, HI))\n"
             "  1,2,3             the numbers listed\n"
             "  FILE.txt          numbers separated by spaces, commas or "
             "newlines\n"
             "  FILE.npy          a numpy array of the argument's dtype\n"
             "An array of tuples takes its scalars flattened in order: 4 "
             "pairs are 8 numbers."),
    cl::value_desc("spec"), cl::cat(runCategory));

static cl::opt<std::string> outputFile(
    "output",
    cl::desc("Write the results to FILE.txt (one number per line) or "
             "FILE.npy instead of printing them as [a, b, c]; with several "
             "results, the i-th goes to FILE with '.i' before the extension"),
    cl::value_desc("file"), cl::cat(runCategory));

namespace {

/// Prints each diagnostic as one line: `file:line:col: error: message`.
class OneLineDiagnostics {
public:
  explicit OneLineDiagnostics(MLIRContext &context) : context(context) {
    id = context.getDiagEngine().registerHandler([](Diagnostic &diagnostic) {
      if (diagnostic.getSeverity() != DiagnosticSeverity::Error)
        return success();
      std::string location;
      llvm::raw_string_ostream os(location);
      if (auto fileLoc = dyn_cast<FileLineColLoc>(diagnostic.getLocation()))
        os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
           << fileLoc.getColumn() << ": ";
      llvm::errs() << location << "error: " << diagnostic.str() << "\n";
      return success();
    });
  }
  ~OneLineDiagnostics() { context.getDiagEngine().eraseHandler(id); }

private:
  MLIRContext &context;
  DiagnosticEngine::HandlerID id;
};

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::errs() << "obs-run: " << message << "\n";
  exit(1);
}

void failOn(llvm::Error error, const llvm::Twine &context = "") {
  if (error)
    fail(context + llvm::toString(std::move(error)));
}

/// The file an output goes to: FILE itself, or FILE.i.ext with several.
std::string outputPath(unsigned index, unsigned count) {
  if (count == 1)
    return outputFile;
  llvm::StringRef path(outputFile);
  size_t dot = path.rfind('.');
  return (path.take_front(dot) + "." + llvm::Twine(index) +
          path.drop_front(dot))
      .str();
}

/// Lowers `module`, holding only the kernel, with the ref pipeline and runs
/// it on `arguments` (inputs then results, each as its component buffers).
void runOnReference(ModuleOp module, llvm::StringRef name,
                    SmallVectorImpl<void *> &buffers) {
  PassManager pm(module.getContext());
  obs::buildReferencePipeline(pm);
  if (failed(pm.run(module)))
    fail("cannot lower @" + name + " for the ref target");

  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/2,
                                               /*sizeLevel=*/0,
                                               /*targetMachine=*/nullptr);
  options.transformer = transformer;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(module, options);
  if (!engine)
    failOn(engine.takeError(), "cannot JIT-compile @" + name + ": ");

  // invokePacked takes a pointer to each argument; the arguments are the
  // bare pointers to the buffers.
  SmallVector<void *> packed;
  for (void *&buffer : buffers)
    packed.push_back(&buffer);
  failOn((*engine)->invokePacked(name, packed), "running @" + name + ": ");
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "obs-run: runs an obs kernel on the given inputs and prints its "
      "results\n\n"
      "  obs-run examples/paper/sklansky.mlir --kernel=sklansky3 "
      "--target=ref --input=iota\n");

  if (kernelName.empty())
    fail("no kernel given: use --kernel=NAME");
  if (targetName != "ref")
    fail("unknown target '" + targetName + "': expected ref");

  DialectRegistry registry;
  registry.insert<obs::ObsDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, LLVM::LLVMDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect, ub::UBDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext context(registry);
  OneLineDiagnostics diagnostics(context);

  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buffer)
    fail("cannot open '" + inputFile + "': " + buffer.getError().message());
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return 1;

  auto kernel = module->lookupSymbol<obs::KernelOp>(kernelName);
  if (!kernel) {
    std::string available;
    for (auto other : module->getOps<obs::KernelOp>())
      available += (available.empty() ? "" : ", ") + other.getSymName().str();
    fail("no kernel @" + kernelName + " in '" + inputFile + "'" +
         (available.empty() ? llvm::Twine(" (it has no kernels)")
                            : llvm::Twine(" (its kernels: ") + available +
                                  ")"));
  }

  // The data: the arguments from --input, the results to fill.
  unsigned numArguments = kernel.getNumArguments();
  if (inputs.size() != numArguments)
    fail("@" + kernelName + " takes " + llvm::Twine(numArguments) +
         " array" + (numArguments == 1 ? "" : "s") + ", but " +
         llvm::Twine(inputs.size()) + " --input " +
         (inputs.size() == 1 ? "was" : "were") + " given");
  std::vector<HostArray> arguments, results;
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    arguments.emplace_back(cast<obs::ArrType>(type));
    failOn(arguments.back().fill(inputs[index]),
           "input " + llvm::Twine(index) + " (" +
               llvm::Twine(arguments.back().getNumScalars()) + " numbers of " +
               arguments.back().getComponentType(0).name() + "): ");
  }
  for (Type type : kernel.getResultTypes())
    results.emplace_back(cast<obs::ArrType>(type));
  SmallVector<void *> buffers;
  for (auto *group : {&arguments, &results})
    for (HostArray &array : *group)
      for (unsigned c = 0; c < array.getWidth(); ++c)
        buffers.push_back(array.getBuffer(c));

  // Only the kernel goes through the pipeline.
  for (Operation &op : llvm::make_early_inc_range(module->getOps()))
    if (&op != kernel.getOperation())
      op.erase();

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  runOnReference(*module, kernelName, buffers);

  for (auto [index, result] : llvm::enumerate(results)) {
    if (outputFile.empty()) {
      result.print(llvm::outs());
      llvm::outs() << "\n";
      continue;
    }
    failOn(result.write(outputPath(index, results.size())));
  }
  return 0;
}
