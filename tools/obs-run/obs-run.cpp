//===- obs-run.cpp - runs obs kernels -------------------------------------===//
//
//   obs-run FILE.mlir --kernel=NAME|--entry=FUNC --target=ref|cpu|cuda
//           --input=... [--output=FILE] [--check] [--emit=STAGE]
//
// Parses and verifies FILE, lowers the kernel (or the host function and the
// kernels it launches) for the target, and runs it on the inputs through
// MLIR's ExecutionEngine: ref and cpu as host code, cuda as host code whose
// launches, streams and memory go through obs's CUDA runtime (the kernels as
// PTX the driver compiles). Bad input of any kind is one line on stderr and
// exit code 1.
//
//===----------------------------------------------------------------------===//

#include "NetworkPicture.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Dialect/Obs/Storage.h"
#include "Obs/InitAll.h"
#include "Obs/Pipelines/Pipelines.h"
#include "Obs/Runner/CompileCache.h"
#include "Obs/Runner/HostData.h"
#include "Obs/Runtime/CudaRuntime.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/SourceNesting.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"
#include <algorithm>
#include <chrono>
#include <cmath>

using namespace mlir;
using namespace obs_run;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("obs-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::Required, cl::cat(runCategory));

static cl::opt<std::string>
    kernelName("kernel",
               cl::desc("The obs.kernel to run on one block, by its symbol "
                        "name (without the @)"),
               cl::value_desc("name"), cl::cat(runCategory));

static cl::opt<std::string> entryName(
    "entry",
    cl::desc("A host func.func over memrefs to run instead of a kernel; it "
             "runs kernels with obs.launch. --input fills its first "
             "arguments, in order; the arguments after them start as zeros "
             "and are printed (or written) after the run"),
    cl::value_desc("name"), cl::cat(runCategory));

static cl::opt<std::string> targetName(
    "target",
    cl::desc("Where the kernel runs:\n"
             "  ref   sequential loops, one buffer per array: the oracle\n"
             "  cpu   the kernel's gpu.func, as loops over threads split at "
             "barriers\n"
             "  cuda  PTX on an NVIDIA GPU, the host code through obs's CUDA\n"
             "        runtime (the arrays copied to the device and back)"),
    cl::value_desc("ref|cpu|cuda"), cl::init("ref"), cl::cat(runCategory));

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

static cl::opt<uint64_t> lengthOption(
    "length",
    cl::desc("The length of a host function's memref of dynamic size "
             "(memref<?xT>) that an --input of no length of its own (iota, "
             "random) fills. Otherwise a dynamic memref takes its length "
             "from its input (a file or a list), and one with no --input "
             "(an output) the length of the function's first argument"),
    cl::value_desc("N"), cl::cat(runCategory));

static cl::opt<std::string> outputFile(
    "output",
    cl::desc("Write the results to FILE.txt (one number per line) or "
             "FILE.npy instead of printing them as [a, b, c]; with several "
             "results, the i-th goes to FILE with '.i' before the extension"),
    cl::value_desc("file"), cl::cat(runCategory));

// libLLVM owns a global `-threads` option (ThinLTO's), so obs-run's
// --threads is taken out of the command line before LLVM parses it.
static cl::extrahelp threadsHelp(
    "\n  --threads=N    The kernel's block size (1 to 1024), overriding its "
    "`threads`\n                 attribute\n");

static cl::opt<std::string>
    chip("chip",
         cl::desc("The GPU architecture for PTX: by default the device's (from "
                  "its compute capability) on --target=cuda, and sm_90 for "
                  "--emit=ptx"),
         cl::value_desc("sm_XX"), cl::init("sm_90"), cl::cat(runCategory));

static cl::opt<std::string> threadOrder(
    "thread-order",
    cl::desc("On the cpu target, the order in which threads and warps run: "
             "forward, reverse, or shuffle[:SEED] (a race shows as a wrong "
             "result under some order)"),
    cl::value_desc("order"), cl::init("forward"), cl::cat(runCategory));

static cl::opt<std::string> blockOrder(
    "block-order",
    cl::desc("On the cpu target, the order in which a launch's blocks run, "
             "each to its end: forward, reverse, or shuffle[:SEED] (blocks "
             "that race in global memory give a wrong result under some "
             "order)"),
    cl::value_desc("order"), cl::init("forward"), cl::cat(runCategory));

static cl::opt<std::string> emitStage(
    "emit",
    cl::desc("Print the IR after a stage instead of running:\n"
             "  obs   the obs program the target lowers\n"
             "  gpu   the gpu.module and host code (cpu and cuda)\n"
             "  llvm  the LLVM dialect the target compiles\n"
             "  ptx   the kernel's PTX\n"
             "  svg   the kernel drawn as a network: a wire per element, a "
             "column per stage, links where elements combine, syncs marked "
             "block, warp or in place\n"
             "  plan  the launch plan the entry runs for its inputs (run on "
             "the cpu target): a line per launch (kernel, grid, block, "
             "bytes of global memory read and written), then the total and "
             "the bytes per element of its first argument"),
    cl::value_desc("obs|gpu|llvm|ptx|svg|plan"), cl::cat(runCategory));

static cl::opt<bool> noOptimize(
    "no-optimize",
    cl::desc("Run the kernel as written: no obs-optimize (work assignment, "
             "warp syncs, in-place stages) before the cpu and cuda targets; "
             "its syncs are still verified"),
    cl::init(false), cl::cat(runCategory));

static cl::list<obs::RefinementPass, bool, obs::RefinementPassParser> passes(
    "passes",
    cl::desc("The refinement passes to run before the cpu and cuda targets, "
             "in obs-optimize's order, instead of all of them. The kernel is "
             "always flattened and its syncs verified"),
    cl::value_desc("pass,..."), cl::CommaSeparated, cl::cat(runCategory));

static cl::opt<obs::WorkStrategy>
    strategy("strategy", cl::desc("obs-optimize's work assignment"),
             cl::init(obs::WorkStrategy::Cost), OBS_WORK_STRATEGY_VALUES,
             cl::cat(runCategory));

static cl::opt<bool>
    check("check",
          cl::desc("Also run on the ref target and compare; a difference is an "
                   "error that names the first differing element"),
          cl::init(false), cl::cat(runCategory));

static cl::opt<unsigned> benchRuns(
    "bench",
    cl::desc("Time N runs after one warm-up, and print to stderr the fastest "
             "and the median in milliseconds, with GB/s. On cpu and ref: the "
             "compiled function's time (compilation excluded), for the bytes "
             "the arrays hold. On cuda: the whole kernel or entry between "
             "CUDA events, for the bytes its launches move (each memref a "
             "launch is given, once), then each kernel's launches per run, "
             "their time and GB/s, from N more runs with every launch timed"),
    cl::value_desc("N"), cl::init(0), cl::cat(runCategory));

static cl::opt<bool> noCache(
    "no-cache",
    cl::desc("Compile the program again even where the compile cache holds "
             "it. On the ref and cpu targets, obs-run keeps the code it "
             "compiles in OBS_CACHE_DIR (else $XDG_CACHE_HOME/obs, else "
             "~/.cache/obs), keyed by the program, the options that change "
             "its code and this build of obs, so that a second run skips "
             "the proof, the lowering and LLVM's optimisation"),
    cl::init(false), cl::cat(runCategory));

// For testing the compile cache: say on stderr whether it held the program.
static cl::opt<bool> reportCache(
    "report-cache",
    cl::desc("Testing obs: print to stderr whether the compile cache held "
             "each program run (hit) or not (miss)"),
    cl::init(false), cl::Hidden, cl::cat(runCategory));

// For testing the checks a host function makes of its arguments: a caller
// that breaks the contract of a function that launches kernels.
enum class BrokenContract { None, Overlap, Misalign };
static cl::opt<BrokenContract> testBreakContract(
    "test-break-contract",
    cl::desc("Testing obs: call the function with its memrefs breaking the "
             "contract (the cpu and ref targets)"),
    cl::values(clEnumValN(BrokenContract::Overlap, "overlap",
                          "the second memref is the first's buffer"),
               clEnumValN(BrokenContract::Misalign, "misalign",
                          "the first memref starts 4 bytes into its buffer")),
    cl::init(BrokenContract::None), cl::Hidden, cl::cat(runCategory));

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
        os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine()
           << ":" << fileLoc.getColumn() << ": ";
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

/// What runs: the kernel's or the host function's arrays, in order (the
/// arguments, then the results of a kernel; the memref arguments of a host
/// function), and how many of them are inputs.
struct Job {
  std::string symbol;
  std::vector<HostArray> arrays;
  unsigned numInputs = 0;
  unsigned grid = 1, threads = 1;

  SmallVector<void *> buffers() {
    SmallVector<void *> pointers;
    for (HostArray &array : arrays)
      for (unsigned c = 0; c < array.getWidth(); ++c)
        pointers.push_back(array.getBuffer(c));
    return pointers;
  }
};

/// A host function's memref as an array of obs-run's model, with `length`
/// for a dynamic outermost dimension.
obs::ArrType arrayOfMemRef(MemRefType memref, uint64_t length = 0) {
  Type element = memref.getElementType();
  for (int64_t extent : llvm::reverse(memref.getShape().drop_front()))
    element = obs::ArrType::get(memref.getContext(), extent, element);
  int64_t outer = memref.getShape().front();
  return obs::ArrType::get(memref.getContext(),
                           ShapedType::isDynamic(outer) ? length : outer,
                           element);
}

/// The outermost length of argument `index` of a host function, a memref
/// of dynamic size: from its input's own length (a file or a list, whose
/// numbers fill whole rows), else --length for an input of no length
/// (iota, random), else, for an argument with no input, the first
/// argument's length.
uint64_t dynamicLength(MemRefType memref, unsigned index, const Job &job) {
  uint64_t rowScalars = 1;
  for (int64_t extent : memref.getShape().drop_front())
    rowScalars *= static_cast<uint64_t>(extent);
  std::string what;
  llvm::raw_string_ostream(what)
      << "argument " << index << " (" << memref << ")";
  if (index < inputs.size()) {
    llvm::Expected<std::optional<uint64_t>> count =
        countInputScalars(inputs[index]);
    failOn(count.takeError(), "input " + llvm::Twine(index) + ": ");
    if (*count) {
      if (rowScalars == 0 || **count % rowScalars != 0)
        fail(what + ": its input has " + llvm::Twine(**count) +
             " numbers, which do not fill rows of " + llvm::Twine(rowScalars));
      return **count / std::max<uint64_t>(rowScalars, 1);
    }
    if (!lengthOption.getNumOccurrences())
      fail(what + " has a dynamic size, and its input '" + inputs[index] +
           "' has no length of its own: give --length=N, a file or a list");
    return lengthOption;
  }
  if (index == 0 || job.arrays.empty())
    fail(what + " has a dynamic size and no input to take it from");
  return job.arrays.front().getType().getLength();
}

/// Erases the functions and kernels of `module` that `entry` does not use,
/// directly or through others: the pipelines then compile only what runs
/// (a file of several entries, each with its device ops, compiles one).
void keepOnlyReachable(ModuleOp module, func::FuncOp entry) {
  llvm::SmallPtrSet<Operation *, 16> reached = {entry};
  SmallVector<Operation *> worklist = {entry};
  SymbolTable symbols(module);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(&op->getRegion(0));
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *used =
          symbols.lookup(use.getSymbolRef().getRootReference().getValue());
      if (used && reached.insert(used).second && used->getNumRegions())
        worklist.push_back(used);
    }
  }
  for (Operation &op : llvm::make_early_inc_range(module.getOps()))
    if (isa<func::FuncOp, obs::KernelOp>(op) && !reached.contains(&op))
      op.erase();
}

/// Parses `--NAME=forward|reverse|shuffle[:SEED]` into an order and a seed.
void parseOrder(llvm::StringRef name, llvm::StringRef text,
                obs::ExecutionOrder &order, uint64_t &seed) {
  llvm::StringRef rest = text;
  if (rest == "forward" || rest == "reverse") {
    order = rest == "forward" ? obs::ExecutionOrder::Forward
                              : obs::ExecutionOrder::Reverse;
    return;
  }
  seed = 1;
  if (rest == "shuffle" ||
      (rest.consume_front("shuffle:") && !rest.getAsInteger(10, seed))) {
    order = obs::ExecutionOrder::Shuffle;
    return;
  }
  fail("unknown " + name + " '" + text +
       "': expected forward, reverse or shuffle[:SEED]");
}

/// The cpu target's orders of threads and blocks, from the command line.
void parseOrders(obs::CPUPipelineOptions &options) {
  obs::ExecutionOrder order;
  uint64_t seed = 1;
  parseOrder("thread order", threadOrder, order, seed);
  options.order = order;
  options.seed = seed;
  parseOrder("block order", blockOrder, order, seed);
  options.blockOrder = order;
  options.blockSeed = seed;
}

/// Fails unless `name` is an architecture NVPTX knows (it would warn and
/// carry on for another).
void checkChip(llvm::StringRef name) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    fail("no NVPTX target in this LLVM: " + error);
  // Made for no CPU in particular: made for an unknown one, it would warn.
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!info || !info->isCPUStringValid(name))
    fail("unknown chip '" + name +
         "': expected an NVPTX architecture such "
         "as sm_80, sm_90 or sm_100");
}

/// Lowers a copy of `module` for `target` (up to `stage`, all the way when
/// empty) and returns it; the cuda target's PTX is for `gpuChip`.
OwningOpRef<ModuleOp> lower(ModuleOp module, llvm::StringRef target,
                            llvm::StringRef stage,
                            llvm::StringRef gpuChip = chip,
                            bool recordLaunches = false) {
  OwningOpRef<ModuleOp> copy(module.clone());
  PassManager pm(module.getContext());
  // The cpu and cuda targets run kernels refined and proved by obs-optimize;
  // the ref target runs them as written.
  if (target != "ref") {
    obs::OptimizePipelineOptions options;
    options.strategy = strategy;
    if (noOptimize)
      options.passes = {obs::RefinementPass::None};
    else if (!passes.empty())
      options.passes =
          SmallVector<obs::RefinementPass>(passes.begin(), passes.end());
    obs::buildOptimizePipeline(pm, options);
  }
  if (stage == "obs") {
    // Done: the program the target lowers.
  } else if (stage == "gpu") {
    obs::buildKernelsToGPUPipeline(pm);
  } else if (target == "ref") {
    obs::buildReferencePipeline(pm);
  } else if (target == "cpu") {
    obs::CPUPipelineOptions options;
    parseOrders(options);
    options.recordLaunches = recordLaunches;
    // One compiled program serves every order (the compile cache's key
    // leaves them out): they are filled before each run.
    options.runTimeOrders = true;
    obs::buildCPUPipeline(pm, options);
  } else {
    obs::PTXPipelineOptions options;
    options.chip = gpuChip.str();
    options.recordLaunches = recordLaunches;
    // At the llvm stage, the gpu.module in NVVM, before it becomes PTX.
    options.serialize = stage != "llvm";
    obs::buildPTXPipeline(pm, options);
  }
  if (failed(pm.run(*copy)))
    fail("cannot lower '" + inputFile + "' for the " + target + " target");
  return copy;
}

/// The PTX of the gpu.binary in `module`.
std::string ptxOf(ModuleOp module) {
  std::string ptx;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      ptx += cast<gpu::ObjectAttr>(object).getObject().getValue().str();
  });
  return ptx;
}

/// The bytes of all of `job`'s arrays: what it moves when it reads or writes
/// each once.
uint64_t arrayBytes(const Job &job) {
  uint64_t bytes = 0;
  for (const HostArray &array : job.arrays)
    for (unsigned c = 0; c < array.getWidth(); ++c)
      bytes += array.getBufferBytes(c);
  return bytes;
}

/// Prints `bench: @symbol on TARGET: fastest F ms, median M ms over N runs,
/// G GB/s` to stderr, for `bytes` moved per run.
void reportBench(const Job &job, llvm::StringRef target,
                 std::vector<float> times, uint64_t bytes) {
  llvm::sort(times);
  float median = times[times.size() / 2];
  double gbPerSecond = median > 0 ? bytes / (median * 1e6) : 0;
  llvm::errs() << "bench: @" << job.symbol << " on " << target << ": fastest "
               << llvm::format("%.3f", times.front()) << " ms, median "
               << llvm::format("%.3f", median) << " ms over " << times.size()
               << " runs, " << llvm::format("%.2f", gbPerSecond) << " GB/s of "
               << bytes << " bytes\n";
}

/// What the ref and cpu targets' code calls when a scatter without a
/// combine writes a place twice (Obs/Support/RuntimeFunctions.h): the run is
/// wrong from there on, so it stops.
extern "C" void obsScatterCollision(int64_t block, int64_t place) {
  fail("error: an obs.scatter without a combine writes place " +
       llvm::Twine(place) + " of its result twice, in block " +
       llvm::Twine(block) +
       ": without a combine each place is written at most once");
}

/// What the ref and cpu targets' code calls when an obs.index reads outside
/// its array (Obs/Support/RuntimeFunctions.h): it reads element 0 instead,
/// so the run is wrong from there on, and stops.
extern "C" void obsIndexOutside(int64_t block, int64_t index, int64_t length) {
  std::string where =
      block < 0 ? std::string() : (" in block " + llvm::Twine(block)).str();
  fail("error: an obs.index reads index " + llvm::Twine(index) +
       " of an array of " + llvm::Twine(length) + " elements" + where +
       ": the index is outside the array");
}

/// What a public host function that launches kernels calls when its caller
/// breaks the contract its kernels rely on (Obs/Support/RuntimeFunctions.h):
/// they would read or write wrong memory, so the run stops.
extern "C" void obsArgumentContract(int64_t first, int64_t second) {
  if (first < 0)
    return;
  if (second < 0)
    fail("error: memref argument " + llvm::Twine(first) +
         " of a host function that launches kernels is not aligned to 16 "
         "bytes: its kernels may load and store vectors");
  fail("error: memref arguments " + llvm::Twine(first) + " and " +
       llvm::Twine(second) +
       " of a host function that launches kernels overlap: its kernels "
       "assume distinct allocations");
}

/// One launch as obs-record-launches reports it.
struct RecordedLaunch {
  int64_t kernel, grid, threads, read, written;
};
std::vector<RecordedLaunch> recordedLaunches;

extern "C" void obsRecordLaunch(int64_t kernel, int64_t grid, int64_t threads,
                                int64_t read, int64_t written) {
  // A launch of no blocks runs nothing (a plan's level not taken).
  if (grid > 0)
    recordedLaunches.push_back({kernel, grid, threads, read, written});
}

/// The functions lowered code calls in the runner
/// (Obs/Support/RuntimeFunctions.h), for the JIT.
llvm::orc::SymbolMap
runtimeFunctionSymbols(llvm::orc::MangleAndInterner mangle) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](llvm::StringRef name, auto *function) {
    symbols[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                             llvm::JITSymbolFlags::Exported};
  };
  add(obs::kRecordLaunchFunction, &obsRecordLaunch);
  add(obs::kScatterCollisionFunction, &obsScatterCollision);
  add(obs::kIndexOutsideFunction, &obsIndexOutside);
  add(obs::kArgumentContractFunction, &obsArgumentContract);
  return symbols;
}

/// Calls `function`, the packed interface of `job`'s symbol, with `job`'s
/// buffers, one bare pointer each; then, with --bench, times it.
void invokeJob(void (*function)(void **), llvm::StringRef target, Job &job) {
  SmallVector<void *> buffers = job.buffers();
  if (testBreakContract == BrokenContract::Overlap && buffers.size() > 1)
    buffers[1] = buffers[0];
  if (testBreakContract == BrokenContract::Misalign && !buffers.empty())
    buffers[0] = static_cast<char *>(buffers[0]) + 4;
  PackedMemRefs arguments;
  arguments.add(job.arrays, buffers);
  SmallVector<void *> &packed = arguments.get();
  function(packed.data());
  if (!benchRuns)
    return;
  std::vector<float> times;
  for (unsigned run = 0; run < benchRuns; ++run) {
    auto start = std::chrono::steady_clock::now();
    function(packed.data());
    std::chrono::duration<float, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    times.push_back(elapsed.count());
  }
  reportBench(job, target, times, arrayBytes(job));
}

/// JIT-compiles the lowered `module` for `target` and runs `job` on it;
/// then hands the engine, which kept its object code, to `compiled`.
void runOnJit(ModuleOp module, llvm::StringRef target, Job &job,
              llvm::function_ref<void(ExecutionEngine &)> compiled = {}) {
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/2,
                                               /*sizeLevel=*/0,
                                               /*targetMachine=*/nullptr);
  options.transformer = transformer;
  options.enableObjectDump = static_cast<bool>(compiled);
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(module, options);
  if (!engine)
    failOn(engine.takeError(), "cannot JIT-compile @" + job.symbol + ": ");
  (*engine)->registerSymbols(runtimeFunctionSymbols);
  llvm::Expected<void (*)(void **)> function =
      (*engine)->lookupPacked(job.symbol);
  if (!function)
    failOn(function.takeError(), "cannot JIT-compile @" + job.symbol + ": ");
  invokeJob(*function, target, job);
  if (compiled)
    compiled(**engine);
}

/// What decides the code obs-run compiles for `target` from a program,
/// besides the program: the options that choose the pipeline.
std::string pipelineKey(llvm::StringRef target) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "target=" << target;
  if (target == "ref")
    return text;
  // Not the thread and block orders: the code reads them as data
  // (Obs/Support/ExecutionOrder.h), filled before each run.
  os << " strategy=" << static_cast<int>(strategy.getValue())
     << " no-optimize=" << noOptimize << " passes=";
  for (obs::RefinementPass pass : passes)
    os << static_cast<int>(pass) << ",";
  return text;
}

/// The names of the order tables the cpu target's `object` holds.
SmallVector<std::string> orderTablesOf(llvm::MemoryBufferRef object) {
  SmallVector<std::string> names;
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> file =
      llvm::object::ObjectFile::createObjectFile(object);
  if (!file) {
    llvm::consumeError(file.takeError());
    return names;
  }
  for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
    llvm::Expected<llvm::StringRef> name = symbol.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (obs::parseExecutionOrderSymbol(*name))
      names.push_back(name->str());
  }
  return names;
}

/// Fills the order tables `names` of `jit` with the orders obs-run was
/// asked for: the code compiled for one order runs in any.
llvm::Error fillOrderTables(llvm::orc::LLJIT &jit,
                            llvm::ArrayRef<std::string> names) {
  obs::CPUPipelineOptions orders;
  parseOrders(orders);
  for (const std::string &name : names) {
    auto [block, count] = *obs::parseExecutionOrderSymbol(name);
    llvm::Expected<llvm::orc::ExecutorAddr> address = jit.lookup(name);
    if (!address)
      return address.takeError();
    obs::ExecutionOrder kind = block ? orders.blockOrder : orders.order;
    uint64_t seed = block ? orders.blockSeed : orders.seed;
    if (count) {
      obs::fillExecutionOrder(
          kind, seed,
          llvm::MutableArrayRef(address->toPtr<int32_t *>(), *count));
    } else {
      std::array<int64_t, 2> affine = obs::getAffineExecutionOrder(kind, seed);
      std::copy(affine.begin(), affine.end(), address->toPtr<int64_t *>());
    }
  }
  return llvm::Error::success();
}

/// Runs `job` from the compile cache's object code for `module` on `target`
/// (ref or cpu), or compiles it and keeps the code there. An entry that
/// cannot be loaded is compiled again.
void runCached(ModuleOp module, llvm::StringRef target, Job &job) {
  // Statistics are the compilation's: they need one.
  obs::CompileCache cache(noCache || obs::statisticsRequested()
                              ? std::string()
                              : obs::CompileCache::getDefaultDirectory());
  std::string key = cache.getKey(module, pipelineKey(target));
  if (std::unique_ptr<llvm::MemoryBuffer> object = cache.load(key)) {
    SmallVector<std::string> orderTables =
        orderTablesOf(object->getMemBufferRef());
    llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
        obs::loadCompiledObject(std::move(object), runtimeFunctionSymbols);
    llvm::Error filled =
        jit ? fillOrderTables(**jit, orderTables) : jit.takeError();
    llvm::Expected<llvm::orc::ExecutorAddr> function =
        filled ? llvm::Expected<llvm::orc::ExecutorAddr>(std::move(filled))
               : (*jit)->lookup("_mlir_" + job.symbol);
    if (function) {
      if (reportCache)
        llvm::errs() << "obs-run: compile cache: hit on " << target << "\n";
      return invokeJob(function->toPtr<void (*)(void **)>(), target, job);
    }
    llvm::consumeError(function.takeError());
  }
  if (reportCache)
    llvm::errs() << "obs-run: compile cache: miss on " << target << "\n";
  OwningOpRef<ModuleOp> lowered = lower(module, target, "");
  if (!cache.isEnabled())
    return runOnJit(*lowered, target, job);
  runOnJit(*lowered, target, job, [&](ExecutionEngine &engine) {
    cache.store(key,
                [&](llvm::StringRef path) { engine.dumpToObjectFile(path); });
  });
}

/// What obs-run gives the JIT for the host code's runtime calls: obs's CUDA
/// runtime, linked into obs-run.
llvm::orc::SymbolMap cudaRuntimeSymbols(llvm::orc::MangleAndInterner mangle) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](llvm::StringRef name, auto *function) {
    symbols[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                             llvm::JITSymbolFlags::Exported};
  };
  add("mgpuModuleLoad", &mgpuModuleLoad);
  add("mgpuModuleLoadJIT", &mgpuModuleLoadJIT);
  add("mgpuModuleUnload", &mgpuModuleUnload);
  add("mgpuModuleGetFunction", &mgpuModuleGetFunction);
  add("mgpuLaunchKernel", &mgpuLaunchKernel);
  add("mgpuStreamCreate", &mgpuStreamCreate);
  add("mgpuStreamDestroy", &mgpuStreamDestroy);
  add("mgpuStreamSynchronize", &mgpuStreamSynchronize);
  add("mgpuStreamWaitEvent", &mgpuStreamWaitEvent);
  add("mgpuEventCreate", &mgpuEventCreate);
  add("mgpuEventDestroy", &mgpuEventDestroy);
  add("mgpuEventSynchronize", &mgpuEventSynchronize);
  add("mgpuEventRecord", &mgpuEventRecord);
  add("mgpuMemAlloc", &mgpuMemAlloc);
  add("mgpuMemFree", &mgpuMemFree);
  add("mgpuMemcpy", &mgpuMemcpy);
  add("mgpuMemset32", &mgpuMemset32);
  add("mgpuMemset16", &mgpuMemset16);
  add("mgpuSetDefaultDevice", &mgpuSetDefaultDevice);
  return symbols;
}

/// The runtime's failure, after everything it made is released.
[[noreturn]] void failOnRuntime(std::unique_ptr<ExecutionEngine> &engine) {
  std::string message =
      obsCudaError() ? obsCudaError() : "the CUDA runtime failed";
  // Its destructors unload the kernels' module (nothing, after a failure:
  // the release does it).
  engine.reset();
  obsCudaRelease();
  fail(message);
}

/// Whatever fails once the runtime is open goes through exit(1): release
/// what it made on the way out.
void releaseCudaAtExit() { obsCudaRelease(); }

/// Runs `job` on the GPU: the module's host code (a kernel's is a function
/// of its name that launches it on one block) through MLIR's host lowering
/// and obs's CUDA runtime, as a compiler that embeds obs would, with the
/// job's arrays copied to the device and back.
void runOnCuda(ModuleOp module, Job &job) {
  if (obsCudaInit() != 0) {
    std::string message = obsCudaError();
    obsCudaRelease();
    fail(message);
  }
  std::atexit(releaseCudaAtExit);
  std::unique_ptr<ExecutionEngine> engine;
  auto check = [&] {
    if (obsCudaError())
      failOnRuntime(engine);
  };
  std::string gpuChip = chip;
  if (!chip.getNumOccurrences()) {
    int major = 0, minor = 0;
    if (obsCudaComputeCapability(&major, &minor) != 0)
      failOnRuntime(engine);
    gpuChip = "sm_" + std::to_string(major) + std::to_string(minor);
  }
  checkChip(gpuChip);
  // --bench learns what each launch moves from the host code itself.
  OwningOpRef<ModuleOp> lowered =
      lower(module, "cuda", "", gpuChip, /*recordLaunches=*/benchRuns > 0);
  // Host code that reads or writes memory itself runs on memory the host
  // and the device share, the entry's arguments' included.
  bool shared = obs::ObsDialect::HostMemorySharedAttrHelper(module.getContext())
                    .isAttrPresent(*lowered);

  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/2,
                                               /*sizeLevel=*/0,
                                               /*targetMachine=*/nullptr);
  options.transformer = transformer;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> made =
      ExecutionEngine::create(*lowered, options);
  if (!made)
    failOn(made.takeError(), "cannot JIT-compile @" + job.symbol + ": ");
  engine = std::move(*made);
  engine->registerSymbols(cudaRuntimeSymbols);
  engine->registerSymbols(runtimeFunctionSymbols);

  SmallVector<void *> host = job.buffers();
  SmallVector<size_t> bytes;
  for (HostArray &array : job.arrays)
    for (unsigned c = 0; c < array.getWidth(); ++c)
      bytes.push_back(array.getBufferBytes(c));
  SmallVector<void *> device;
  for (auto [pointer, size] : llvm::zip_equal(host, bytes)) {
    device.push_back(mgpuMemAlloc(size, nullptr, shared));
    mgpuMemcpy(device.back(), pointer, size, nullptr);
  }
  obsCudaSynchronize();
  check();
  PackedMemRefs arguments;
  arguments.add(job.arrays, device);
  SmallVector<void *> &packed = arguments.get();
  auto invoke = [&] {
    if (llvm::Error error = engine->invokePacked(job.symbol, packed)) {
      if (obsCudaError())
        llvm::consumeError(std::move(error)), failOnRuntime(engine);
      failOn(std::move(error), "running @" + job.symbol + ": ");
    }
    obsCudaSynchronize();
    check();
  };
  invoke();
  // The results come back; the inputs are the host's already.
  unsigned firstResult = 0;
  for (unsigned a = 0; a < job.numInputs; ++a)
    firstResult += job.arrays[a].getWidth();
  for (unsigned i = firstResult; i < host.size(); ++i)
    mgpuMemcpy(host[i], device[i], bytes[i], nullptr);
  obsCudaSynchronize();
  check();

  if (benchRuns) {
    // The run above was the warm-up. The whole entry is timed by events
    // around it, then each launch, in as many more runs.
    void *start = obsCudaTimerCreate(), *stop = obsCudaTimerCreate();
    check();
    std::vector<float> times;
    for (unsigned run = 0; run < benchRuns; ++run) {
      mgpuEventRecord(start, nullptr);
      invoke();
      mgpuEventRecord(stop, nullptr);
      float milliseconds = 0;
      if (obsCudaTimerElapsed(start, stop, &milliseconds) != 0)
        failOnRuntime(engine);
      times.push_back(milliseconds);
    }
    mgpuEventDestroy(start);
    mgpuEventDestroy(stop);
    // A kernel run on its own has no host code to report its one launch:
    // it moves its arrays, once each.
    uint64_t aloneBytes = arrayBytes(job);
    recordedLaunches.clear();
    obsCudaProfileLaunches(1);
    for (unsigned run = 0; run < benchRuns; ++run)
      invoke();
    // Each kernel's launches per run, their time and bytes per run. The
    // host code reported every launch it made, in order.
    ArrayRef<RecordedLaunch> made = recordedLaunches;
    size_t count = obsCudaProfiledLaunchCount();
    // Host code reports each launch it makes (a kernel run on its own
    // reports none); the driver must have profiled the same ones.
    if (!made.empty() && made.size() != count)
      fail("the host code reported " + std::to_string(made.size()) +
           " launches, but " + std::to_string(count) +
           " were profiled: cannot tell what each moved");
    struct Profiled {
      unsigned count = 0;
      float milliseconds = 0;
      uint64_t bytes = 0;
    };
    llvm::StringMap<Profiled> byName;
    SmallVector<std::string> order;
    for (size_t i = 0; i < count; ++i) {
      float milliseconds = 0;
      const char *name = obsCudaProfiledLaunch(i, &milliseconds);
      if (!name)
        failOnRuntime(engine);
      auto [entry, added] = byName.try_emplace(name);
      if (added)
        order.push_back(name);
      Profiled &profiled = entry->second;
      ++profiled.count;
      profiled.milliseconds += milliseconds;
      profiled.bytes +=
          made.empty() ? aloneBytes : made[i].read + made[i].written;
    }
    obsCudaProfileLaunches(0);
    uint64_t planBytes = 0;
    for (const auto &entry : byName)
      planBytes += entry.second.bytes / benchRuns;
    reportBench(job, "cuda", times, planBytes);
    for (const std::string &name : order) {
      const Profiled &profiled = byName[name];
      float perRun = profiled.milliseconds / benchRuns;
      uint64_t kernelBytes = profiled.bytes / benchRuns;
      llvm::errs() << "bench:   launch " << name << ": "
                   << profiled.count / benchRuns << " per run, "
                   << llvm::format("%.3f", perRun) << " ms, "
                   << llvm::format("%.2f", perRun > 0
                                               ? kernelBytes / (perRun * 1e6)
                                               : 0.0)
                   << " GB/s of " << kernelBytes << " bytes\n";
    }
  }

  for (void *pointer : device)
    mgpuMemFree(pointer, nullptr);
  check();
  // The JIT's destructors unload the kernels' module.
  engine.reset();
  check();
  if (obsCudaRelease() != 0)
    fail(obsCudaError());
}

/// Runs `job` on the cpu target with its launches recorded, and prints the
/// plan: a line per launch, then the total and the bytes per element of
/// the entry's first argument.
void printPlan(ModuleOp module, Job &job) {
  OwningOpRef<ModuleOp> lowered =
      lower(module, "cpu", "", chip, /*recordLaunches=*/true);
  ArrayAttr names =
      obs::ObsDialect::RecordedLaunchesAttrHelper(module.getContext())
          .getAttr(*lowered);
  recordedLaunches.clear();
  runOnJit(*lowered, "cpu", job);
  uint64_t read = 0, written = 0;
  for (auto [index, launch] : llvm::enumerate(recordedLaunches)) {
    llvm::StringRef name =
        names && launch.kernel < static_cast<int64_t>(names.size())
            ? cast<FlatSymbolRefAttr>(names[launch.kernel]).getValue()
            : "?";
    llvm::outs() << "launch " << index + 1 << ": @" << name << " grid "
                 << launch.grid << " block " << launch.threads << ": "
                 << launch.read << " bytes read, " << launch.written
                 << " bytes written\n";
    read += launch.read;
    written += launch.written;
  }
  uint64_t elements = job.arrays.front().getType().getLength();
  size_t count = recordedLaunches.size();
  llvm::outs() << "@" << job.symbol << " on " << elements
               << " elements: " << count << " launch"
               << (count == 1 ? "" : "es") << ", " << read << " bytes read, "
               << written << " bytes written";
  if (elements)
    llvm::outs() << ", "
                 << llvm::format("%.4f", double(read + written) / elements)
                 << " bytes per element";
  llvm::outs() << "\n";
}

void run(ModuleOp module, llvm::StringRef target, Job &job) {
  if (target == "cuda")
    return runOnCuda(module, job);
  runCached(module, target, job);
}

/// Fails, naming the first difference, unless `job` and `reference` hold the
/// same results.
void compareWithReference(Job &job, Job &reference) {
  for (unsigned a = job.numInputs; a < job.arrays.size(); ++a) {
    HostArray &mine = job.arrays[a], &theirs = reference.arrays[a];
    for (uint64_t k = 0; k < mine.getNumScalars(); ++k) {
      Number x = mine.get(k), y = theirs.get(k);
      bool same = x.isFloat ? (x.real == y.real ||
                               (std::isnan(x.real) && std::isnan(y.real)))
                            : x.integer == y.integer;
      if (same)
        continue;
      std::string left, right;
      llvm::raw_string_ostream l(left), r(right);
      auto show = [](llvm::raw_ostream &os, const Number &n) {
        if (n.isFloat)
          os << n.real;
        else
          os << n.integer;
      };
      show(l, x);
      show(r, y);
      fail(targetName + " and ref differ: result " +
           llvm::Twine(a - job.numInputs) + ", number " + llvm::Twine(k) +
           " is " + left + " on " + targetName + " but " + right + " on ref");
    }
  }
}

} // namespace

/// Removes `--threads=N` (or `--threads N`, with one or two dashes) from
/// the arguments and returns N's text, empty when absent.
std::optional<std::string> takeThreadsArgument(int &argc, char **argv) {
  std::optional<std::string> value;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--") {
      while (i < argc)
        argv[kept++] = argv[i++];
      break;
    }
    if (!arg.consume_front("--") && !arg.consume_front("-")) {
      argv[kept++] = argv[i];
      continue;
    }
    if (arg.consume_front("threads=")) {
      value = arg.str();
      continue;
    }
    if (arg == "threads" && i + 1 < argc) {
      value = argv[++i];
      continue;
    }
    argv[kept++] = argv[i];
  }
  argc = kept;
  return value;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  std::optional<std::string> threadsText = takeThreadsArgument(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "obs-run: runs an obs kernel on the given inputs and prints its "
      "results\n\n"
      "  obs-run examples/paper/sklansky.mlir --kernel=sklansky3 "
      "--target=cpu --input=iota\n");

  if (kernelName.empty() == entryName.empty())
    fail("give either --kernel=NAME or --entry=FUNC");
  if (targetName != "ref" && targetName != "cpu" && targetName != "cuda")
    fail("unknown target '" + targetName + "': expected ref, cpu or cuda");
  if (!emitStage.empty() && emitStage != "obs" && emitStage != "gpu" &&
      emitStage != "llvm" && emitStage != "ptx" && emitStage != "svg" &&
      emitStage != "plan")
    fail("unknown stage '" + emitStage +
         "': expected obs, gpu, llvm, ptx, svg or plan");
  if (emitStage == "svg" && kernelName.empty())
    fail("--emit=svg draws a kernel: give --kernel=NAME");
  // The plan is what the entry runs on its inputs: it needs them.
  bool plan = emitStage == "plan";
  bool emitsIR = !emitStage.empty() && !plan;
  if (plan && entryName.empty())
    fail("--emit=plan prints the launches of a host function: give "
         "--entry=FUNC");
  if (plan && targetName.getNumOccurrences() && targetName != "cpu")
    fail("--emit=plan runs the entry on the cpu target, not " + targetName);
  // Each timed run would record its launches into the plan again.
  if (plan && benchRuns)
    fail("--emit=plan runs the entry once: drop --bench");
  if (targetName == "cpu") {
    obs::CPUPipelineOptions options;
    parseOrders(options);
  }
  uint64_t threadsOption = 0;
  if (threadsText &&
      (llvm::StringRef(*threadsText).getAsInteger(10, threadsOption) ||
       threadsOption == 0 || threadsOption > obs::KernelOp::kMaxThreads))
    fail("--threads=" + *threadsText + ": a block has 1 to " +
         llvm::Twine(obs::KernelOp::kMaxThreads) + " threads");

  DialectRegistry registry;
  obs::registerAllDialects(registry);
  MLIRContext context(registry);
  // obs-run describes every array with obs types, even for a file that has
  // no obs ops.
  context.loadDialect<obs::ObsDialect>();
  OneLineDiagnostics diagnostics(context);

  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buffer)
    fail("cannot open '" + inputFile + "': " + buffer.getError().message());
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  if (failed(obs::checkSourceNesting(*sourceMgr)))
    return 1;
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return 1;

  // What runs, and the data it runs on.
  Job job;
  auto listSymbols = [&](auto ops) {
    std::string names;
    for (auto op : ops)
      names += (names.empty() ? "" : ", ") + op.getSymName().str();
    return names;
  };
  if (!kernelName.empty()) {
    auto kernel = module->lookupSymbol<obs::KernelOp>(kernelName);
    if (!kernel) {
      std::string available = listSymbols(module->getOps<obs::KernelOp>());
      fail("no kernel @" + kernelName + " in '" + inputFile + "'" +
           (available.empty()
                ? llvm::Twine(" (it has no kernels)")
                : llvm::Twine(" (its kernels: ") + available + ")"));
    }
    if (threadsText) {
      kernel.setThreadsAttr(
          IntegerAttr::get(IntegerType::get(&context, 64), threadsOption));
      if (failed(mlir::verify(kernel)))
        return 1;
    }
    // Run alone, on one block, whether or not its module launches it.
    kernel.setPublic();
    // Only the kernel goes through the pipelines.
    for (Operation &op : llvm::make_early_inc_range(module->getOps()))
      if (&op != kernel.getOperation())
        op.erase();
    job.symbol = kernelName;
    job.threads = kernel.getBlockThreads();
    for (Type type : kernel.getArgumentTypes())
      job.arrays.emplace_back(cast<obs::ArrType>(type));
    job.numInputs = job.arrays.size();
    for (Type type : kernel.getResultTypes())
      job.arrays.emplace_back(cast<obs::ArrType>(type));
  } else {
    auto entry = module->lookupSymbol<func::FuncOp>(entryName);
    if (!entry)
      fail("no function @" + entryName + " in '" + inputFile + "'");
    if (inputs.size() > entry.getNumArguments())
      fail("@" + entryName + " takes " + llvm::Twine(entry.getNumArguments()) +
           " memrefs, but " + llvm::Twine(inputs.size()) +
           " --input were given");
    for (auto [index, type] : llvm::enumerate(entry.getArgumentTypes())) {
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref || memref.getRank() == 0 ||
          llvm::any_of(memref.getShape().drop_front(), ShapedType::isDynamic) ||
          !memref.getLayout().isIdentity() ||
          !obs::isScalarElementType(memref.getElementType()))
        fail("@" + entryName +
             " must take memrefs of scalar elements, static sizes but for "
             "the outermost, and no layout");
      uint64_t length = 0;
      if (!memref.hasStaticShape() && !emitsIR)
        length = dynamicLength(memref, index, job);
      job.arrays.emplace_back(arrayOfMemRef(memref, length));
    }
    if (entry.getNumResults())
      fail("@" + entryName +
           " must return nothing: its results are the "
           "memrefs it writes");
    job.symbol = entryName;
    keepOnlyReachable(*module, entry);
  }
  // Emitting IR needs no data.
  if (emitsIR)
    inputs.clear();
  if (!kernelName.empty() && !emitsIR && inputs.size() != job.numInputs)
    fail("@" + kernelName + " takes " + llvm::Twine(job.numInputs) + " array" +
         (job.numInputs == 1 ? "" : "s") + ", but " +
         llvm::Twine(inputs.size()) + " --input " +
         (inputs.size() == 1 ? "was" : "were") + " given");
  if (!entryName.empty())
    job.numInputs = inputs.size();
  for (unsigned index = 0; index < inputs.size(); ++index)
    failOn(job.arrays[index].fill(inputs[index]),
           "input " + llvm::Twine(index) + " (" +
               llvm::Twine(job.arrays[index].getNumScalars()) + " numbers of " +
               job.arrays[index].getComponentType(0).name() + "): ");

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  if (plan) {
    printPlan(*module, job);
    if (obs::statisticsRequested())
      obs::printStatistics(llvm::errs());
    return 0;
  }
  if (emitsIR) {
    if (emitStage == "ptx") {
      checkChip(chip);
      OwningOpRef<ModuleOp> lowered = lower(*module, "cuda", "");
      llvm::outs() << ptxOf(*lowered);
    } else if (emitStage == "svg") {
      // The kernel as the cpu and cuda targets run it: networks expanded,
      // flattened, and refined unless --no-optimize.
      OwningOpRef<ModuleOp> lowered = lower(*module, "cpu", "obs");
      auto kernel = lowered->lookupSymbol<obs::KernelOp>(kernelName);
      if (!kernel || failed(obs::drawNetwork(kernel, llvm::outs())))
        fail("cannot draw @" + kernelName);
    } else {
      OwningOpRef<ModuleOp> lowered = lower(*module, targetName, emitStage);
      lowered->print(llvm::outs());
      llvm::outs() << "\n";
    }
    if (obs::statisticsRequested())
      obs::printStatistics(llvm::errs());
    return 0;
  }

  Job reference = job;
  run(*module, targetName, job);
  if (check) {
    run(*module, "ref", reference);
    compareWithReference(job, reference);
  }
  if (obs::statisticsRequested())
    obs::printStatistics(llvm::errs());

  unsigned numResults = job.arrays.size() - job.numInputs;
  for (unsigned index = 0; index < numResults; ++index) {
    HostArray &result = job.arrays[job.numInputs + index];
    if (outputFile.empty()) {
      result.print(llvm::outs());
      llvm::outs() << "\n";
      continue;
    }
    failOn(result.write(outputPath(index, numResults)));
  }
  return 0;
}
