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

#include "Arguments.h"
#include "BenchReport.h"
#include "EntrySignature.h"
#include "JobArrays.h"
#include "NetworkPicture.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Dialect/Obs/Storage.h"
#include "Obs/InitAll.h"
#include "Obs/Pipelines/Pipelines.h"
#include "Obs/Runner/CompileCache.h"
#include "Obs/Runner/HostData.h"
#include "Obs/Runner/Target.h"
#include "Obs/Support/Formatting.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/ProcessMemory.h"
#include "Obs/Support/SourceNesting.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "Progress.h"
#include "Results.h"
#include "RuntimeReports.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include <algorithm>
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
             "and are printed (or written) after the run. An entry whose "
             "every argument is an input works in place: all are printed"),
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
             "(an output) the length of the function's first argument, or "
             "--length for the first of an entry of outputs only; at "
             "most 2147483647"),
    cl::value_desc("N"), cl::cat(runCategory));

static cl::opt<std::string> outputFile(
    "output",
    cl::desc("Write the results to FILE instead of printing them as "
             "[a, b, c]: a numpy array where FILE ends in .npy, otherwise "
             "text, one number per line; with several results, the i-th goes "
             "to FILE with '.i' before the extension"),
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
             "  gpu   the gpu.module and host code (cpu and cuda; cpu's "
             "without --target)\n"
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
             "the proof, the lowering and LLVM's optimisation. For the cpu "
             "and cuda targets and --emit, it also keeps the program "
             "obs-optimize refined, which other targets, chips and stages "
             "start from (the lowering proves it again)"),
    cl::init(false), cl::cat(runCategory));

static cl::opt<bool> timePhases(
    "time",
    cl::desc("Print to stderr, at the end, how long each phase took (MLIR's "
             "timing report): parsing the program, reading the inputs, "
             "compiling for each target (obs-optimize's and the lowering's "
             "passes nested, each with its time), the JIT's compilation of "
             "the host code, running and writing the results. "
             "Nothing is compiled, and so timed, where the compile cache "
             "holds the program, and obs-optimize is not where it holds the "
             "refined program"),
    cl::init(false), cl::cat(runCategory));

/// The timing report's root with --time, an inert scope without.
static TimingScope *rootTiming = nullptr;

/// The scope of one phase of obs-run in the timing report.
static TimingScope timePhase(const llvm::Twine &name) {
  return rootTiming ? rootTiming->nest(name.str()) : TimingScope();
}

/// `options` with the compilation timed in `phase`, with --time.
static obs::CompileOptions timedIn(obs::CompileOptions options,
                                   TimingScope &phase) {
  options.timing = timePhases ? &phase : nullptr;
  return options;
}

using obs_run::Progress;
static cl::opt<Progress::Mode> progressMode(
    "progress",
    cl::desc("Show on stderr what a compilation is doing (the pass, and the "
             "kernel it works on)"),
    cl::values(clEnumValN(Progress::Mode::Auto, "auto",
                          "on a terminal, once it has taken 2 seconds: one "
                          "line, rewritten, with the time so far (default)"),
               clEnumValN(Progress::Mode::Always, "always",
                          "every step on a line of its own, wherever stderr "
                          "goes"),
               clEnumValN(Progress::Mode::Never, "never", "nothing")),
    cl::init(Progress::Mode::Auto), cl::cat(runCategory));

static cl::opt<unsigned> testProgressQuietMs(
    "test-progress-quiet-ms",
    cl::desc("Testing obs: how long --progress=auto shows nothing, in "
             "milliseconds"),
    cl::init(2000), cl::Hidden, cl::cat(runCategory));

// For testing the compile cache: say on stderr whether it held the program.
static cl::opt<bool> reportCache(
    "report-cache",
    cl::desc("Testing obs: print to stderr whether the compile cache held "
             "each program run (hit) or not (miss)"),
    cl::init(false), cl::Hidden, cl::cat(runCategory));

// For testing the checks a host function makes of its arguments: a caller
// that breaks the contract of a function that launches kernels.
using obs::BrokenContract;
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

/// What the compilations of this run are doing (--progress), cleared before
/// anything else goes to stderr or stdout.
Progress &getProgress() {
  static Progress progress(progressMode,
                           std::chrono::milliseconds(testProgressQuietMs));
  return progress;
}

} // namespace

[[noreturn]] void obs_run::fail(const llvm::Twine &message) {
  getProgress().clear();
  getProgress().write("obs-run: " + message + "\n");
  exit(1);
}
namespace {

/// How many errors OneLineDiagnostics has printed: a compilation that
/// failed after printing its own says nothing more (one line per error).
unsigned printedDiagnostics = 0;

/// Whether the run compiles for ref because of --check: a failure there
/// is not the target the user asked for, and is said so.
bool compilingForCheck = false;

/// Stops the run after a compilation that failed: quietly where the
/// failure's diagnostics said why, with `message` where none did.
[[noreturn]] void failCompilation(const llvm::Twine &message) {
  if (compilingForCheck) {
    if (printedDiagnostics == 0)
      getProgress().write("obs-run: " + message + "\n");
    obs_run::fail("--check: the ref target, which --check compares with, "
                  "cannot compile the program (" +
                  llvm::Twine(targetName) + " did): drop --check");
  }
  if (printedDiagnostics == 0)
    obs_run::fail(message);
  getProgress().clear();
  exit(1);
}

/// Prints each diagnostic as one line: `file:line:col: error: message`.
class OneLineDiagnostics {
public:
  explicit OneLineDiagnostics(MLIRContext &context) : context(context) {
    id = context.getDiagEngine().registerHandler([](Diagnostic &diagnostic) {
      if (diagnostic.getSeverity() != DiagnosticSeverity::Error)
        return success();
      ++printedDiagnostics;
      std::string location;
      llvm::raw_string_ostream os(location);
      if (auto fileLoc = dyn_cast<FileLineColLoc>(diagnostic.getLocation()))
        os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine()
           << ":" << fileLoc.getColumn() << ": ";
      getProgress().write(location + "error: " + diagnostic.str() + "\n");
      return success();
    });
  }
  ~OneLineDiagnostics() { context.getDiagEngine().eraseHandler(id); }

private:
  MLIRContext &context;
  DiagnosticEngine::HandlerID id;
};

void failOn(llvm::Error error, const llvm::Twine &context = "") {
  if (error)
    fail(context + llvm::toString(std::move(error)));
}

/// The outermost length of argument `index` of a host function, a memref
/// of dynamic size: from its input's own length (a file or a list, whose
/// numbers fill whole rows), else --length for an input of no length
/// (iota, random), else, for an argument with no input, the first
/// argument's length (--length for the first, in an entry of outputs only).
uint64_t dynamicLength(MemRefType memref, unsigned index, const obs::Job &job) {
  uint64_t rowScalars = 1;
  for (int64_t extent : memref.getShape().drop_front())
    rowScalars *= static_cast<uint64_t>(extent);
  std::string what;
  llvm::raw_string_ostream(what)
      << "argument " << index << " (" << memref << ")";
  if (index < inputs.size()) {
    llvm::Expected<std::optional<uint64_t>> count =
        countInputScalars(inputs[index]);
    failOn(count.takeError(), "input " + llvm::Twine(index + 1) + ": ");
    if (*count) {
      if (rowScalars == 0 || **count % rowScalars != 0)
        fail(what + ": its input has " + obs::formatCount(**count, "number") +
             (**count == 1 ? ", which does not fill rows of "
                           : ", which do not fill rows of ") +
             llvm::Twine(rowScalars));
      return **count / std::max<uint64_t>(rowScalars, 1);
    }
    if (!lengthOption.getNumOccurrences())
      fail(what + " has a dynamic size, and its input '" + inputs[index] +
           "' has no length of its own: give --length=N, a file or a list");
    return lengthOption;
  }
  // An entry of outputs only: the first takes --length, where it could
  // not be sized at all.
  if (index == 0 && lengthOption.getNumOccurrences())
    return lengthOption;
  if (index == 0 || job.arrays.empty())
    fail(what + " has a dynamic size and no input to take it from: give "
                "--length=N");
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

/// How the command line asks `target` to compile a program.
obs::CompileOptions getCompileOptions(const obs::Target &target) {
  obs::CompileOptions options;
  options.optimize = !noOptimize;
  options.strategy = strategy;
  options.passes.assign(passes.begin(), passes.end());
  parseOrder("thread order", threadOrder, options.threadOrder,
             options.threadSeed);
  parseOrder("block order", blockOrder, options.blockOrder, options.blockSeed);
  // Run on cuda, PTX is for the device's architecture unless told.
  if (target.getName() != "cuda" || chip.getNumOccurrences())
    options.chip = chip;
  // --bench learns what each launch moves from the host code itself.
  options.recordLaunches = target.getName() == "cuda" && benchRuns > 0;
  // Not where statistics or cross-checked proofs are asked (Target.cpp).
  if (!noCache)
    options.cacheDirectory = obs::CompileCache::getDefaultDirectory();
  // Every pass reports its step: only when something shows them.
  if (getProgress().isActive())
    options.reportStep = [](const llvm::Twine &step) {
      getProgress().step(step);
    };
  if (reportCache)
    options.reportCache = [](const llvm::Twine &what) {
      getProgress().write("obs-run: compile cache: " + what + "\n");
    };
  return options;
}

/// The target named `name`; --target was checked.
std::unique_ptr<obs::Target> getTarget(llvm::StringRef name) {
  std::unique_ptr<obs::Target> target = obs::Target::get(name);
  if (!target)
    fail("unknown target '" + name + "': expected " + obs::Target::kNames);
  return target;
}

/// Lowers a copy of `module` for `target` up to `stage` (all the way when
/// empty).
OwningOpRef<ModuleOp> lower(ModuleOp module, const obs::Target &target,
                            const obs::CompileOptions &options,
                            llvm::StringRef stage) {
  FailureOr<OwningOpRef<ModuleOp>> lowered =
      target.lower(module, options, stage);
  getProgress().clear();
  if (failed(lowered))
    failCompilation("cannot lower '" + inputFile + "' for the " +
                    target.getName() + " target");
  return std::move(*lowered);
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

/// Compiles `module` for `target` with `options` and runs `job` on it
/// (timed, with --bench).
void run(ModuleOp module, const obs::Target &target,
         const obs::CompileOptions &options, obs::Job &job) {
  TimingScope compiling = timePhase("compile for " + target.getName());
  llvm::Expected<std::unique_ptr<obs::Executable>> executable =
      target.compile(module, timedIn(options, compiling), getRunReports());
  if (!executable)
    failCompilation(llvm::toString(executable.takeError()));
  compiling.stop();
  {
    TimingScope jit = timePhase("JIT for " + target.getName());
    failOn((*executable)->prepare(job));
  }
  TimingScope running = timePhase("run on " + target.getName());
  if (benchRuns) {
    llvm::Expected<obs::BenchResult> result =
        (*executable)->bench(job, benchRuns);
    if (!result)
      failOn(result.takeError());
    getProgress().clear();
    printBench(job, target.getName(), std::move(*result));
  } else {
    // The host code is compiled as it is first called.
    failOn((*executable)->run(job));
  }
  failOn((*executable)->release());
  getProgress().clear();
}

/// Runs `job` on the cpu target with its launches recorded, and prints the
/// plan: a line per launch, then the total and the bytes per element of
/// the entry's first argument.
void printPlan(ModuleOp module, obs::CompileOptions options, obs::Job &job) {
  std::unique_ptr<obs::Target> cpu = getTarget("cpu");
  TimingScope compiling = timePhase("compile for cpu");
  options = timedIn(options, compiling);
  options.recordLaunches = true;
  // The plan names each kernel by the number the host code reports.
  OwningOpRef<ModuleOp> lowered = lower(module, *cpu, options, "");
  ArrayAttr names =
      obs::ObsDialect::RecordedLaunchesAttrHelper(module.getContext())
          .getAttr(*lowered);
  llvm::Expected<std::unique_ptr<obs::Executable>> executable =
      obs::compileForHost(*lowered, options, getRunReports());
  if (!executable)
    failOn(executable.takeError());
  obs::clearRecordedLaunches();
  failOn((*executable)->run(job));
  uint64_t read = 0, written = 0;
  ArrayRef<obs::RecordedLaunch> launches = obs::getRecordedLaunches();
  for (auto [index, launch] : llvm::enumerate(launches)) {
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
  // An array of rows counts its rows' elements (a matrix, its cells).
  uint64_t elements = job.arrays.front().getType().getNumLeaves();
  size_t count = launches.size();
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

} // namespace

namespace {

/// Fails unless the options that need no program agree with each other:
/// one of --kernel and --entry, a known stage, and what each stage needs.
void checkOptions() {
  if (kernelName.empty() == entryName.empty())
    fail("give either --kernel=NAME or --entry=FUNC");
  if (!emitStage.empty() && emitStage != "obs" && emitStage != "gpu" &&
      emitStage != "llvm" && emitStage != "ptx" && emitStage != "svg" &&
      emitStage != "plan")
    fail("unknown stage '" + emitStage +
         "': expected obs, gpu, llvm, ptx, svg or plan");
  if (emitStage == "svg" && kernelName.empty())
    fail("--emit=svg draws a kernel: give --kernel=NAME");
  // The gpu stage is the cpu and cuda targets': ref lowers obs ops to loops
  // directly, and the unrefined kernels it would show run nowhere.
  if (emitStage == "gpu" && targetName == "ref") {
    if (targetName.getNumOccurrences())
      fail("--emit=gpu is a stage of the cpu and cuda targets, not ref");
    targetName.setValue("cpu");
  }
  // Options that would otherwise be taken and do nothing.
  if (!emitStage.empty() && emitStage != "plan" &&
      (outputFile.getNumOccurrences() || check || benchRuns))
    fail("--emit=" + emitStage +
         " prints the program instead of running it: drop " +
         (outputFile.getNumOccurrences() ? "--output"
          : check                        ? "--check"
                                         : "--bench"));
  if (emitStage == "plan" && (outputFile.getNumOccurrences() || check))
    fail(llvm::Twine("--emit=plan prints the entry's launches, not its "
                     "results: drop ") +
         (check ? "--check" : "--output"));
  if (benchRuns.getNumOccurrences() && benchRuns == 0)
    fail("--bench=0 times no run: give N of at least 1");
  if (noOptimize && passes.getNumOccurrences())
    fail("--no-optimize runs no refinement pass: drop --passes");
  if (noOptimize && strategy.getNumOccurrences())
    fail("--no-optimize deals out no work: drop --strategy");
  if (llvm::is_contained(passes, obs::RefinementPass::None) &&
      passes.size() > 1)
    fail("--passes=none runs no refinement pass: it takes no other");
  if (lengthOption.getNumOccurrences() && !kernelName.empty())
    fail("--length sizes an entry's dynamic memrefs; --kernel's arrays have "
         "their own lengths");
  // What only another target honours (a user who asks ref for a shuffled
  // order believes it tested one). Forward is how ref runs, and is not
  // refused.
  // The orders are the cpu target's, in what it runs and in its LLVM
  // (the tables); the chip is the PTX's, made by cuda's runs and LLVM and
  // by --emit=ptx. Earlier stages and other targets take neither.
  bool runsOrLLVM = emitStage.empty() || emitStage == "llvm";
  bool onCPU = (targetName == "cpu" && runsOrLLVM) || emitStage == "plan";
  for (auto [order, name] : {std::pair(&threadOrder, "--thread-order"),
                             std::pair(&blockOrder, "--block-order")})
    if (!onCPU && *order != "forward")
      fail(llvm::Twine(name) + "=" + *order +
           " orders the cpu target's threads and blocks; " +
           (!emitStage.empty()
                ? "--emit=" + emitStage + " prints a stage that has no order"
            : targetName == "ref" ? "the ref target runs them in order"
                                  : "the cuda target's GPU chooses its own"));
  bool refines = targetName != "ref" || emitStage == "plan" ||
                 emitStage == "ptx" || emitStage == "svg";
  if (!refines && (noOptimize || passes.getNumOccurrences() ||
                   strategy.getNumOccurrences()))
    fail(llvm::Twine(noOptimize                   ? "--no-optimize"
                     : passes.getNumOccurrences() ? "--passes"
                                                  : "--strategy") +
         " is about obs-optimize, which the cpu and cuda targets run; the ref "
         "target runs kernels as written");
  if (chip.getNumOccurrences() && emitStage != "ptx" &&
      (targetName != "cuda" || !runsOrLLVM))
    fail("--chip=" + chip +
         " chooses the GPU that --target=cuda and --emit=ptx compile for; " +
         (targetName != "cuda"
              ? "the " + targetName + " target runs on this machine"
              : "--emit=" + emitStage + " prints a stage before the PTX"));
  if (emitStage != "plan")
    return;
  // The plan is what the entry runs on its inputs: it needs them.
  if (entryName.empty())
    fail("--emit=plan prints the launches of a host function: give "
         "--entry=FUNC");
  if (targetName.getNumOccurrences() && targetName != "cpu")
    fail("--emit=plan runs the entry on the cpu target, not " + targetName);
  // Each timed run would record its launches into the plan again.
  if (benchRuns)
    fail("--emit=plan runs the entry once: drop --bench");
}

/// The block size `--threads` gives, 0 when absent.
uint64_t parseThreads(const std::optional<std::string> &text) {
  uint64_t threads = 0;
  if (text && (llvm::StringRef(*text).getAsInteger(10, threads) ||
               threads == 0 || threads > obs::KernelOp::kMaxThreads))
    fail("--threads=" + *text + ": a block has 1 to " +
         llvm::Twine(obs::KernelOp::kMaxThreads) + " threads");
  return threads;
}

/// The program in the input file, parsed and verified; null after its
/// diagnostics.
OwningOpRef<ModuleOp> parseProgram(MLIRContext &context) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buffer)
    fail("cannot open '" + inputFile + "': " + buffer.getError().message());
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  if (failed(obs::checkSourceNesting(*sourceMgr)))
    return nullptr;
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  // A program read is host-checked, whatever it says (docs/Rationale.md).
  if (module)
    module->walk([&](func::FuncOp function) {
      obs::ObsDialect::HostCheckedAttrHelper(&context).removeAttr(function);
    });
  return module;
}

/// The job of --kernel: its arguments, then its results, run alone on one
/// block with `threads` threads (its own when 0). The module keeps only the
/// kernel. Failure after the verifier's diagnostics. `needsData`: the job
/// runs, on inputs.
FailureOr<obs::Job> describeKernelJob(ModuleOp module, uint64_t threads,
                                      bool needsData) {
  auto kernel = module.lookupSymbol<obs::KernelOp>(kernelName);
  if (!kernel) {
    std::string available;
    for (obs::KernelOp other : module.getOps<obs::KernelOp>())
      available += (available.empty() ? "" : ", ") + other.getSymName().str();
    fail("no kernel @" + kernelName + " in '" + inputFile + "'" +
         (available.empty()
              ? llvm::Twine(" (it has no kernels)")
              : llvm::Twine(" (its kernels: ") + available + ")"));
  }
  if (threads) {
    kernel.setThreadsAttr(
        IntegerAttr::get(IntegerType::get(module.getContext(), 64), threads));
    if (failed(mlir::verify(kernel)))
      return failure();
  }
  // Run alone, on one block, whether or not its module launches it.
  kernel.setPublic();
  // Only the kernel goes through the pipelines.
  for (Operation &op : llvm::make_early_inc_range(module.getOps()))
    if (&op != kernel.getOperation())
      op.erase();
  obs::Job job;
  job.symbol = kernelName;
  // A halo argument, run alone, is one block's tile: the halo's places
  // are read past its ends, as the boundary says.
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    auto array = cast<obs::ArrType>(type);
    if (obs::HaloAttr halo = obs::getHalo(kernel, index))
      array = array.withLength(halo.getTileLength(array.getLength()));
    // A global argument of the nominal length is any length: only a
    // launch's memref gives it one (it was allocated whole, 8 GiB of i32,
    // before its input was read).
    if (needsData && obs::isGlobalArgument(kernel, index) &&
        array.getLength() == uint64_t(std::numeric_limits<int32_t>::max()))
      fail("argument " + llvm::Twine(index) + " of @" + kernelName +
           " is obs.global of the nominal length 2147483647, which stands "
           "for any length: run it through an entry (--entry) that launches "
           "it on a memref");
    if (needsData)
      obs_run::addArray(job, array);
  }
  job.numInputs = kernel.getNumArguments();
  if (needsData)
    for (Type type : kernel.getResultTypes())
      obs_run::addArray(job, cast<obs::ArrType>(type));
  return job;
}

/// The job of --entry: its memref arguments, sized from their inputs unless
/// `needsData` is false. The module keeps only what the entry uses.
obs::Job describeEntryJob(ModuleOp module, bool needsData) {
  auto entry = module.lookupSymbol<func::FuncOp>(entryName);
  if (!entry)
    fail("no function @" + entryName + " in '" + inputFile + "'");
  if (inputs.size() > entry.getNumArguments())
    fail("@" + entryName + " takes " + llvm::Twine(entry.getNumArguments()) +
         " memrefs, but " + llvm::Twine(inputs.size()) + " --input were given");
  obs::Job job;
  if (failed(obs_run::verifyEntrySignature(entry)))
    failCompilation("@" + entryName + " cannot be run");
  for (auto [index, type] : llvm::enumerate(entry.getArgumentTypes())) {
    auto memref = cast<MemRefType>(type);
    // Emitting IR needs no data: no array is made (a static memref of
    // 2^30 i64 took 8 GiB for --emit=ptx).
    if (!needsData)
      continue;
    uint64_t length = 0;
    if (!memref.hasStaticShape())
      length = dynamicLength(memref, index, job);
    obs::ArrType array = obs_run::arrayOfMemRef(memref, length);
    // After the memory, and before the array is made (2^31 i32 took 36 s
    // to zero): a length no machine could hold says so first. A launch's
    // memref of dynamic size holds at most 2^31 - 1 elements, the length
    // of its nominal static type.
    obs_run::checkArrayFits(job, array);
    if (length > uint64_t(std::numeric_limits<int32_t>::max()))
      fail("argument " + llvm::Twine(index) + " has " + llvm::Twine(length) +
           " elements, more than the 2147483647 a memref of dynamic size "
           "may hold");
    job.arrays.emplace_back(array);
  }
  if (lengthOption.getNumOccurrences() &&
      llvm::all_of(entry.getArgumentTypes(), [](Type type) {
        return cast<MemRefType>(type).hasStaticShape();
      }))
    fail("--length sizes an entry's dynamic memrefs; @" + entryName +
         " has none");
  if (needsData && job.arrays.empty() && outputFile.getNumOccurrences())
    fail("--output writes an entry's memrefs after the run; @" + entryName +
         " takes none");
  job.symbol = entryName;
  keepOnlyReachable(module, entry);
  job.numInputs = inputs.size();
  return job;
}

/// Fills `job`'s inputs from --input, one per input array.
void fillInputs(obs::Job &job) {
  if (!kernelName.empty() && inputs.size() != job.numInputs)
    fail("@" + kernelName + " takes " + llvm::Twine(job.numInputs) + " array" +
         (job.numInputs == 1 ? "" : "s") + ", but " +
         llvm::Twine(inputs.size()) + " --input " +
         (inputs.size() == 1 ? "was" : "were") + " given");
  for (unsigned index = 0; index < inputs.size(); ++index)
    failOn(job.arrays[index].fill(inputs[index]),
           "input " + llvm::Twine(index + 1) + " (" +
               obs::formatCount(job.arrays[index].getNumScalars(), "number") +
               " of " + job.arrays[index].describeElement() + "): ");
}

/// Prints the program after --emit's stage (but plan) for `target`.
void emit(ModuleOp module, const obs::Target &target,
          obs::CompileOptions options) {
  TimingScope compiling = timePhase("compile");
  options = timedIn(options, compiling);
  // The stages of a program for a GPU are for --chip's.
  options.chip = chip;
  if (emitStage == "ptx") {
    failOn(obs::checkChip(chip));
    OwningOpRef<ModuleOp> lowered =
        lower(module, *getTarget("cuda"), options, "");
    std::string ptx = ptxOf(*lowered);
    // Nothing printed and exit 0 read as an empty kernel.
    if (ptx.empty())
      fail("@" + entryName + " launches no kernel: there is no PTX to print");
    llvm::outs() << ptx;
    return;
  }
  if (emitStage == "svg") {
    // The kernel as the cpu and cuda targets run it: networks expanded,
    // flattened, and refined unless --no-optimize.
    OwningOpRef<ModuleOp> lowered =
        lower(module, *getTarget("cpu"), options, "obs");
    auto kernel = lowered->lookupSymbol<obs::KernelOp>(kernelName);
    if (!kernel || failed(obs::drawNetwork(kernel, llvm::outs())))
      failCompilation("cannot draw @" + kernelName);
    return;
  }
  OwningOpRef<ModuleOp> lowered = lower(module, target, options, emitStage);
  lowered->print(llvm::outs());
  llvm::outs() << "\n";
}

} // namespace

/// Leaves registered only the options --help lists: obs-run's own, obs's
/// that it honours, and the help and version options.
/// libLLVM registers others in every tool (--color, --stats,
/// --debug-counter, --x86-asm-syntax, ...), which obs-run would otherwise
/// take silently; now they are unknown, in one line.
void takeOnlyListedOptions() {
  auto &registered = cl::getRegisteredOptions();
  for (StringRef name : {"obs-statistics", "obs-cross-check-proofs"})
    if (cl::Option *option = registered.lookup(name))
      option->addCategory(runCategory);
  llvm::StringSet<> generic = {
      "help",    "help-hidden",   "help-list",        "help-list-hidden",
      "version", "print-options", "print-all-options"};
  SmallVector<cl::Option *> others;
  for (auto &[name, option] : registered)
    if (!llvm::is_contained(option->Categories, &runCategory) &&
        !generic.contains(name))
      others.push_back(option);
  for (cl::Option *option : others)
    option->removeArgument();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  obs::guardToolProcess("obs-run");
  std::optional<std::string> threadsText = takeThreadsArgument(argc, argv);
  takeOnlyListedOptions();
  cl::ParseCommandLineOptions(
      argc, argv,
      "obs-run: runs an obs kernel on the given inputs and prints its "
      "results\n\n"
      "  obs-run examples/paper/sklansky.mlir --kernel=sklansky3 "
      "--target=cpu --input=iota\n");
  checkOptions();
  std::unique_ptr<obs::Target> target = getTarget(targetName);
  // Bad orders are refused before any work.
  obs::CompileOptions options = getCompileOptions(*target);
  uint64_t threads = parseThreads(threadsText);
  if (threads && !entryName.empty())
    fail("--threads sets the block of --kernel's kernel; an entry's kernels "
         "have their own `threads`");

  DialectRegistry registry;
  obs::registerAllDialects(registry);
  MLIRContext context(registry);
  // obs-run describes every array with obs types, even for a file without
  // obs ops; the run's reports name its ops' places, as errors do.
  context.loadDialect<obs::ObsDialect>();
  OneLineDiagnostics diagnostics(context);
  obs_run::setReportedFile(inputFile);
  // The report prints as the manager goes, after the results.
  DefaultTimingManager timingManager;
  timingManager.setEnabled(timePhases);
  TimingScope timing = timingManager.getRootScope();
  rootTiming = &timing;
  OwningOpRef<ModuleOp> module;
  {
    TimingScope parsing = timePhase("parse");
    module = parseProgram(context);
  }
  if (!module)
    return 1;

  // What runs, and the data it runs on; emitting IR needs no data.
  bool emitsIR = !emitStage.empty() && emitStage != "plan";
  if (emitsIR)
    inputs.clear();
  FailureOr<obs::Job> job = kernelName.empty()
                                ? describeEntryJob(*module, !emitsIR)
                                : describeKernelJob(*module, threads, !emitsIR);
  if (failed(job))
    return 1;
  job->brokenContract = testBreakContract;
  if (!emitsIR) {
    TimingScope reading = timePhase("inputs");
    fillInputs(*job);
  }

  if (emitStage == "plan")
    printPlan(*module, options, *job);
  else if (emitsIR)
    emit(*module, *target, options);
  if (!emitStage.empty()) {
    if (obs::statisticsRequested())
      obs::printStatistics(llvm::errs());
    return finishOutput(0);
  }

  // The inputs as they were, for ref to run on: only with --check.
  std::optional<obs::Job> reference;
  if (check)
    reference = *job;
  run(*module, *target, options, *job);
  if (reference) {
    compilingForCheck = true;
    run(*module, *getTarget("ref"), options, *reference);
    compareWithReference(*job, *reference, targetName);
  }
  if (obs::statisticsRequested())
    obs::printStatistics(llvm::errs());
  {
    TimingScope writing = timePhase("outputs");
    writeResults(*job, outputFile);
    // Before the timing report, which goes to stderr as obs-run ends.
    if (int code = finishOutput(0))
      return code;
  }
  return 0;
}
