//===- obs-fuzz.cpp - a differential fuzzer for obs programs --------------===//
//
//   obs-fuzz --programs=N --seed=S [--save=DIR]
//
// Generates random well-typed kernels (ProgramGenerator.h), runs each on the
// ref target, then on the cpu target as written and through random subsets
// and orders of the refinement passes, under forward, reverse and shuffled
// thread orders, and compares every result with ref. A kernel whose
// user-written syncs the verifier rejects, as written or for the threads a
// pipeline's work assignment chose, is counted, not failed; so is one
// over one of the compiler's limits (shared memory, inlined reads, the
// proof's accesses), and one whose estimated work (estimateWork) is over
// --max-work, which is not run at all. Rejections and limits are told by the
// kind their errors carry (Obs/Support/ErrorKinds.h), not by their wording.
// A mismatch, a crash, a timeout, or a pipeline that fails on a kernel that
// runs as written is a failure: the program is saved to DIR with what failed
// and how to run it, and reduced (steps removed, repeats shortened,
// properties dropped while the failure stays) into a -reduced.mlir next to
// it.
//
// Each program runs in a child process, so a crash is a finding rather than
// the end of the run. Exits with 0 only when nothing failed.
//
//===----------------------------------------------------------------------===//

#include "DeviceGenerator.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/InitAll.h"
#include "Obs/Runner/HostData.h"
#include "Obs/Runner/Target.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "ProgramGenerator.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"
#include <cmath>
#include <csignal>
#include <cstring>
#include <functional>
#include <map>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace obs_fuzz;
namespace cl = llvm::cl;

static cl::OptionCategory fuzzCategory("obs-fuzz options");
static cl::opt<unsigned> numPrograms("programs",
                                     cl::desc("How many programs to test"),
                                     cl::init(100), cl::cat(fuzzCategory));
static cl::opt<uint64_t> seed("seed", cl::desc("The first random seed"),
                              cl::init(1), cl::cat(fuzzCategory));
static cl::opt<unsigned>
    firstProgram("first",
                 cl::desc("The first program of the seed to test: with "
                          "--programs=1, program N alone, as a failure report "
                          "names it"),
                 cl::init(0), cl::cat(fuzzCategory));
static cl::opt<unsigned>
    maxLength("max-length",
              cl::desc("The longest array a program works on (1 to 1024); "
                       "at 1024, one program in 25 is a long scan of an "
                       "array over half a block's shared memory instead"),
              cl::init(1024), cl::cat(fuzzCategory));
static cl::opt<unsigned> pipelinesPerProgram(
    "pipelines",
    cl::desc("Random refinement pipelines per program, besides the kernel as "
             "written"),
    cl::init(2), cl::cat(fuzzCategory));
static cl::opt<std::string>
    saveDir("save", cl::desc("Where failing programs and their reductions go"),
            cl::init("obs-fuzz-failures"), cl::cat(fuzzCategory));
static cl::opt<unsigned> timeout(
    "timeout",
    cl::desc("Seconds of CPU time a program may take before it is a failure "
             "(and four times as many seconds of wall-clock time)"),
    cl::init(120), cl::cat(fuzzCategory));
static cl::opt<double> maxWork(
    "max-work",
    cl::desc("Programs whose kernel as written would evaluate more elements "
             "than this (recomputation by fusion included, as estimated) are "
             "counted, not run"),
    cl::init(8388608), cl::cat(fuzzCategory));
static cl::opt<unsigned> jobs("jobs", cl::desc("Programs checked at once"),
                              cl::init(1), cl::cat(fuzzCategory));
static cl::opt<bool> verbose("verbose", cl::desc("A line for every program"),
                             cl::init(false), cl::cat(fuzzCategory));
static cl::opt<bool> countOnly(
    "count-only",
    cl::desc("Count what the programs of the seed exercise (launches of each "
             "kind, written sync properties) without running them"),
    cl::init(false), cl::cat(fuzzCategory));
static cl::opt<int> printOnly("print",
                              cl::desc("Print program N of the seed and stop"),
                              cl::init(-1), cl::cat(fuzzCategory));
static cl::opt<bool> deviceMode(
    "device",
    cl::desc("Random device-level programs (obs.device_map, _scan, _sort, "
             "_reduce on memrefs of run-time length) instead of kernels: each "
             "compiled once for ref and for cpu through obs-optimize, the "
             "kernels as written and a random refinement pipeline, run on "
             "three lengths, and checked against an oracle computed from the "
             "ops' definitions (DeviceGenerator.h)"),
    cl::init(false), cl::cat(fuzzCategory));
// For testing obs-fuzz itself: a miscompilation to find, save and reduce.
static cl::opt<std::string> testMiscompileOp(
    "test-miscompile-op",
    cl::desc("Testing obs-fuzz: pretend the cpu target miscompiles every "
             "kernel (with --device, every program) that uses this op (the "
             "lowest bit of its first result number flips)"),
    cl::Hidden, cl::cat(fuzzCategory));

namespace {

/// One way of running a program on the cpu target.
struct Configuration {
  /// The refinement passes, in order, as pass-pipeline text (empty: the
  /// kernel as written).
  std::vector<std::string> passes;
  /// The order of threads and warps, and of a launch's blocks.
  std::string order = "forward";
  uint64_t orderSeed = 1;
  std::string blockOrder = "forward";
  uint64_t blockSeed = 1;

  /// The passes on the module, as parsePassPipeline takes them into a
  /// module's pass manager (obs-opt's --pass-pipeline wraps them in
  /// builtin.module(...)).
  std::string pipeline() const { return refinement() + "," + lowering(); }
  /// The refinement part, which the thread orders share.
  std::string refinement() const {
    // Like obs-optimize, the refinement passes learn first which global
    // places a launch shares within a block, so that they keep the barriers
    // that order them.
    std::string text = passes.empty() ? "" : "obs-collect-launch-overlaps,";
    text += "obs.kernel(obs-expand-networks,obs-flatten,canonicalize";
    for (const std::string &pass : passes)
      text += "," + pass;
    return text + ",obs-verify-sync)";
  }
  std::string lowering() const {
    return "obs-to-cpu{order=" + order + " seed=" + std::to_string(orderSeed) +
           " block-order=" + blockOrder +
           " block-seed=" + std::to_string(blockSeed) + "}";
  }
};

enum class Outcome : int {
  Agreed = 0,
  Rejected,  // the verifier rejects the kernel as written
  Unsafe,    // the kernel reads outside an array: rejected, or stopped
  OverLimit, // the kernel as written is over one of the compiler's limits
  Mismatch,  // cpu and ref differ
  Failed,    // a pipeline failed where it should not
};

/// What a child reports about one program, through a pipe: plain data.
struct Report {
  Outcome outcome = Outcome::Agreed;
  unsigned pipelines = 0, runs = 0, rejected = 0, unsafe = 0, resources = 0;
  int failingPipeline = -1; // index into the configurations tried
  char message[2048] = {};
};

/// The configurations tried for program `index`: the kernel as written,
/// then random subsets and orders of the refinement passes.
std::vector<Configuration> configurationsFor(uint64_t index) {
  std::mt19937_64 rng(seed * 7919 + index * 104729 + 17);
  auto uniform = [&](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  };
  std::vector<Configuration> result;
  static const char *orders[] = {"forward", "reverse", "shuffle"};
  auto addOrders = [&](std::vector<std::string> passes) {
    for (const char *order : orders) {
      Configuration c;
      c.passes = passes;
      c.order = order;
      c.orderSeed = uniform(1, 1000);
      c.blockOrder = orders[uniform(0, 2)];
      c.blockSeed = uniform(1, 1000);
      result.push_back(c);
    }
  };
  addOrders({});
  static const char *strategies[] = {"strided", "blocked", "compact", "cost"};
  static const uint64_t threads[] = {0, 1, 32, 64, 96, 128, 256, 1024};
  for (unsigned p = 0; p < pipelinesPerProgram; ++p) {
    std::string strategy = strategies[uniform(0, 3)];
    // The cost strategy refines each strategy's copy before it costs it,
    // with some of the passes, so that their choices on every copy are
    // fuzzed too.
    if (strategy == "cost")
      strategy += uniform(0, 1) ? " refine-with=promote-registers,inplace"
                                : " refine-with=inplace";
    std::vector<std::string> passes = {
        "obs-assign-work{threads=" + std::to_string(threads[uniform(0, 7)]) +
            " strategy=" + strategy + "}",
        "obs-inplace", "obs-plan-shared", "obs-elide-warp-syncs",
        uniform(0, 1) ? "obs-promote-registers"
                      : "obs-promote-registers{shuffles=false}"};
    std::shuffle(passes.begin(), passes.end(), rng);
    passes.resize(uniform(1, passes.size()));
    addOrders(passes);
  }
  return result;
}

/// Why a step failed: its diagnostics as one line, and whether any of them
/// is a compiler limit, a rejected choice or an unsafe program (the kinds
/// the errors carry, not their wording), or the run stopped at a read
/// outside an array.
struct StepError {
  std::string text;
  bool overLimit = false;
  bool rejected = false;
  bool unsafe = false;
  bool readOutside = false;
};

/// Collects the diagnostics of a step.
struct Diagnostics {
  explicit Diagnostics(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diagnostic) {
          if (!error.text.empty())
            error.text += " | ";
          error.text += diagnostic.str();
          error.overLimit |=
              obs::hasErrorKind(diagnostic, obs::ErrorKind::CompilerLimit);
          error.rejected |=
              obs::hasErrorKind(diagnostic, obs::ErrorKind::RejectedChoice);
          error.unsafe |=
              obs::hasErrorKind(diagnostic, obs::ErrorKind::UnsafeProgram);
          return success();
        }) {}
  StepError error;
  ScopedDiagnosticHandler handler;
};

/// A copy of `module` after `pipeline`, or the diagnostics on failure.
FailureOr<OwningOpRef<ModuleOp>> transform(ModuleOp module, StringRef pipeline,
                                           StepError &error) {
  MLIRContext *context = module.getContext();
  Diagnostics diagnostics(*context);
  OwningOpRef<ModuleOp> copy(module.clone());
  PassManager pm(context);
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())) ||
      failed(pm.run(*copy))) {
    error = diagnostics.error;
    if (error.text.empty())
      error.text = "the pipeline failed";
    return failure();
  }
  return copy;
}

/// Whether `configuration`'s work assignment alone, with no other
/// refinement, makes the verifier reject `module`: the properties the user
/// wrote do not hold for the threads it assigns.
bool rejectedForWrittenProperties(ModuleOp module,
                                  const Configuration &configuration) {
  auto assign =
      llvm::find_if(configuration.passes, [](const std::string &pass) {
        return StringRef(pass).starts_with("obs-assign-work");
      });
  if (assign == configuration.passes.end())
    return false;
  Configuration alone = configuration;
  alone.passes = {*assign};
  StepError error;
  return failed(transform(module, alone.refinement(), error)) && error.rejected;
}

/// What a program runs: the kernel @fuzz alone, or the host function
/// @launch that launches it over blocks; and its arrays' types.
struct Entry {
  std::string symbol;
  obs::ArrType input, output;
};

Entry entryOf(ModuleOp module) {
  if (auto host = module.lookupSymbol<func::FuncOp>("launch")) {
    auto arrayOf = [](Type type) {
      auto memref = cast<MemRefType>(type);
      return obs::ArrType::get(memref.getContext(), memref.getShape().front(),
                               memref.getElementType());
    };
    return {"launch", arrayOf(host.getArgumentTypes()[0]),
            arrayOf(host.getArgumentTypes()[1])};
  }
  auto kernel = module.lookupSymbol<obs::KernelOp>("fuzz");
  return {"fuzz", cast<obs::ArrType>(kernel.getArgumentTypes()[0]),
          cast<obs::ArrType>(kernel.getResultTypes()[0])};
}

/// The properties each sync has written, by the sync's location: a merged
/// sync (obs-flatten's) keeps the location of those it merges.
std::map<std::string, std::string> writtenProperties(ModuleOp module) {
  std::map<std::string, std::string> properties;
  module.walk([&](obs::SyncOp sync) {
    std::string where, what;
    llvm::raw_string_ostream whereStream(where), whatStream(what);
    sync.getLoc().print(whereStream);
    for (Attribute attribute :
         {Attribute(sync.getScopeAttr()), Attribute(sync.getPlacementAttr()),
          sync.getHowAttr()}) {
      if (attribute)
        whatStream << attribute;
      whatStream << ";";
    }
    properties[where] = what;
  });
  return properties;
}

/// The first place a generated scatter without a combine wrote twice in the
/// current run, as block and place (Obs/Support/RuntimeFunctions.h). The
/// generated scatters write permutations, so any is a failure.
std::optional<std::pair<int64_t, int64_t>> scatterCollision;

void obsFuzzScatterCollision(int64_t block, int64_t place) {
  if (!scatterCollision)
    scatterCollision = {block, place};
}

/// The first read outside its array by an obs.index in the current run, as
/// index and length (Obs/Support/RuntimeFunctions.h).
std::optional<std::pair<int64_t, int64_t>> indexOutside;

void obsFuzzIndexOutside(int64_t, int64_t index, int64_t length) {
  if (!indexOutside)
    indexOutside = {index, length};
}

/// The check a public host function that launches kernels makes of its
/// caller (Obs/Support/RuntimeFunctions.h). The fuzzer passes distinct,
/// aligned buffers, so a report is a bug; the call must not return, so the
/// child stops, and its crash is the finding.
void obsFuzzArgumentContract(int64_t first, int64_t second) {
  if (first < 0)
    return;
  llvm::errs() << "obs-fuzz: the argument contract is broken at memref "
               << first << " (and " << second << ")\n";
  std::abort();
}

/// Lowers a copy of `module` by `pipeline` and JIT-compiles it, or returns
/// the diagnostics on failure.
FailureOr<std::unique_ptr<obs::Executable>>
compile(ModuleOp module, StringRef pipeline, StepError &error) {
  MLIRContext *context = module.getContext();
  Diagnostics diagnostics(*context);
  FailureOr<OwningOpRef<ModuleOp>> lowered = transform(module, pipeline, error);
  if (failed(lowered))
    return failure();
  // The programs are small and run once: LLVM's optimisation would cost
  // more than it saves.
  obs::CompileOptions options;
  options.jitOptLevel = 0;
  obs::RuntimeReports reports;
  reports.scatterCollision = obsFuzzScatterCollision;
  reports.indexOutside = obsFuzzIndexOutside;
  reports.argumentContract = obsFuzzArgumentContract;
  llvm::Expected<std::unique_ptr<obs::Executable>> executable =
      obs::compileForHost(**lowered, options, reports);
  if (!executable) {
    error = diagnostics.error;
    error.text = llvm::toString(executable.takeError()) +
                 (error.text.empty() ? "" : ": " + error.text);
    return failure();
  }
  return std::move(*executable);
}

/// Runs `symbol` of `executable` on `input`, writing `output`.
LogicalResult invoke(obs::Executable &executable, StringRef symbol,
                     const obs_run::HostArray &input,
                     obs_run::HostArray &output, StepError &error) {
  obs::Job job;
  job.symbol = symbol.str();
  job.arrays = {input, output};
  job.numInputs = 1;
  scatterCollision.reset();
  indexOutside.reset();
  if (llvm::Error e = executable.run(job)) {
    error.text = "cannot run: " + llvm::toString(std::move(e));
    return failure();
  }
  output = std::move(job.arrays[1]);
  if (scatterCollision) {
    error.text = "a scatter without a combine wrote place " +
                 std::to_string(scatterCollision->second) +
                 " twice, in block " + std::to_string(scatterCollision->first);
    return failure();
  }
  if (indexOutside) {
    error.readOutside = true;
    error.text = "an obs.index read index " +
                 std::to_string(indexOutside->first) + " of an array of " +
                 std::to_string(indexOutside->second) + " elements";
    return failure();
  }
  return success();
}

/// Lowers a copy of `module` by `pipeline`, JIT-compiles it and runs its
/// `entry` on `input`, returning the result, or the diagnostics on failure.
FailureOr<obs_run::HostArray> run(ModuleOp module, const Entry &entry,
                                  StringRef pipeline, obs_run::HostArray input,
                                  StepError &error) {
  FailureOr<std::unique_ptr<obs::Executable>> engine =
      compile(module, pipeline, error);
  if (failed(engine))
    return failure();
  obs_run::HostArray output(entry.output);
  if (failed(invoke(**engine, entry.symbol, input, output, error)))
    return failure();
  return output;
}

/// The first scalar where `a` and `b` differ, or -1; with `signedZeros`,
/// -0 and +0 differ too.
int64_t firstDifference(const obs_run::HostArray &a,
                        const obs_run::HostArray &b, bool signedZeros = false) {
  for (uint64_t k = 0; k < a.getNumScalars(); ++k) {
    obs_run::Number x = a.get(k), y = b.get(k);
    bool same = x.isFloat ? ((x.real == y.real &&
                              (!signedZeros ||
                               std::signbit(x.real) == std::signbit(y.real))) ||
                             (std::isnan(x.real) && std::isnan(y.real)))
                          : x.integer == y.integer;
    if (!same)
      return static_cast<int64_t>(k);
  }
  return -1;
}

/// The seed of program `index`'s random input (of its first length, for
/// a device program; the others follow it).
uint64_t inputSeedOf(uint64_t index) { return seed * 31 + index; }

/// A number as reports print it.
std::string printNumber(const obs_run::Number &number) {
  return number.isFloat ? std::to_string(number.real)
                        : std::to_string(number.integer);
}

void setMessage(Report &report, const std::string &text) {
  std::strncpy(report.message, text.c_str(), sizeof(report.message) - 1);
}

/// The context every child parses into: made once, before the first fork,
/// with every dialect registered and none loaded.
MLIRContext *sharedContext = nullptr;

/// In a child: where it says which configuration it is running.
int *childProgress = nullptr;

/// `text` parsed and verified, or null, with `report` saying why: a
/// program the verifier rejects (unsafe element code, a work assignment)
/// is counted, and one that does not parse otherwise is a failure.
OwningOpRef<ModuleOp> parseProgram(const std::string &text, Report &report) {
  MLIRContext &context = *sharedContext;
  Diagnostics diagnostics(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (module)
    return module;
  if (diagnostics.error.unsafe) {
    // Element code the verifier rejects (a gpu op), on every target.
    ++report.unsafe;
    report.outcome = Outcome::Unsafe;
    setMessage(report, diagnostics.error.text);
  } else if (diagnostics.error.rejected || diagnostics.error.overLimit) {
    // A work assignment the op verifier rejects.
    ++report.rejected;
    report.outcome = Outcome::Rejected;
    setMessage(report, diagnostics.error.text);
  } else {
    report.outcome = Outcome::Failed;
    setMessage(report, "the generated program does not parse or verify: " +
                           diagnostics.error.text);
  }
  return nullptr;
}

/// Tells in `report` what ref's failure, `error`, on `input` means: a
/// limit or a failure of its own, or a rejection (or a stop at a read
/// outside an array) that the cpu target, under `configurations`' kernel
/// as written, must agree with.
void checkRefFailure(ModuleOp module, const Entry &entry,
                     const obs_run::HostArray &input,
                     const std::vector<Configuration> &configurations,
                     StepError &error, Report &report) {
  if (error.overLimit) {
    ++report.resources;
    report.outcome = Outcome::OverLimit;
    setMessage(report, "ref: " + error.text);
    return;
  }
  bool unsafe = error.unsafe || error.readOutside;
  if (!error.rejected && !unsafe) {
    report.outcome = Outcome::Failed;
    setMessage(report, "ref: " + error.text);
    return;
  }
  // ref proves what the kernel's user wrote, as the GPU targets do, and
  // checks as it runs what depends on data: the kernel as written must
  // then be rejected on cpu too, or stop there at a read outside an
  // array too (under every order).
  std::string refError = error.text;
  bool stopped = error.readOutside;
  ++(unsafe ? report.unsafe : report.rejected);
  report.outcome = unsafe ? Outcome::Unsafe : Outcome::Rejected;
  setMessage(report, "ref: " + refError);
  for (auto [index, configuration] : llvm::enumerate(configurations)) {
    if (!configuration.passes.empty())
      continue;
    if (childProgress)
      *childProgress = static_cast<int>(index);
    ++report.pipelines;
    error = StepError();
    FailureOr<OwningOpRef<ModuleOp>> made =
        transform(module, configuration.refinement(), error);
    bool ran =
        succeeded(made) &&
        succeeded(run(**made, entry, configuration.lowering(), input, error));
    const char *why = nullptr;
    if (ran)
      why = stopped ? "ref stops at a read outside an array, but cpu runs "
                      "the kernel: "
                    : "ref rejects the kernel as written, but cpu runs it: ";
    else if (stopped && !error.readOutside && !error.overLimit)
      why = "ref stops at a read outside an array, but cpu fails "
            "otherwise: ";
    if (why) {
      report.outcome = Outcome::Failed;
      report.failingPipeline = index;
      setMessage(report, why + refError +
                             (ran ? std::string() : " | cpu: " + error.text));
      return;
    }
    // A static rejection is the same under every order; a stop is checked
    // under each.
    if (!stopped)
      break;
  }
}

/// Refines `module` by `configuration`'s refinement (the `index`th
/// configuration) into `refinedModule`, which stays null where the
/// refinement fails, with `error` saying why. Fails, with `report` told,
/// where the refinement replaced a property the user wrote (`written`).
LogicalResult refine(ModuleOp module, const Configuration &configuration,
                     size_t index,
                     const std::map<std::string, std::string> &written,
                     OwningOpRef<ModuleOp> &refinedModule, StepError &error,
                     Report &report) {
  ++report.pipelines;
  FailureOr<OwningOpRef<ModuleOp>> made =
      transform(module, configuration.refinement(), error);
  if (failed(made))
    return success();
  refinedModule = std::move(*made);
  for (auto &[where, what] : writtenProperties(*refinedModule)) {
    auto it = written.find(where);
    if (it == written.end() || it->second == what)
      continue;
    report.outcome = Outcome::Failed;
    report.failingPipeline = index;
    setMessage(report, "a refinement replaced the written properties "
                       "of the sync at " +
                           where + ": " + it->second + " became " + what);
    return failure();
  }
  return success();
}

/// Whether checking goes on after `module` failed, with `error`, under
/// `configuration` (the `index`th) though ref ran it; where it does not,
/// `report` says why.
bool goesOnAfterFailure(ModuleOp module, const Configuration &configuration,
                        size_t index, const StepError &error, Report &report) {
  bool asWritten = configuration.passes.empty();
  // A refinement that runs out of shared memory was too ambitious, not
  // wrong; a kernel as written over a limit is not checked further.
  if (error.overLimit) {
    ++report.resources;
    if (!asWritten)
      return true;
    report.outcome = Outcome::OverLimit;
    setMessage(report, error.text);
    return false;
  }
  // ref accepted the kernel as written, so every target must: the
  // verifiers disagree. A read outside an array is an error on every
  // target and for every plan.
  if ((asWritten && error.rejected) || error.unsafe || error.readOutside) {
    report.outcome = Outcome::Failed;
    report.failingPipeline = index;
    setMessage(report, "ref runs the kernel as written, but cpu "
                       "rejects it: " +
                           error.text);
    return false;
  }
  // A work assignment the pipeline chose may make what the user wrote
  // (a warp scope, an in place) false, and the kernel is then rejected,
  // as it must be. That is told apart from a refinement that made a
  // race of its own by assigning the work alone: if that is rejected
  // too, the written properties are what fails.
  if (error.rejected && rejectedForWrittenProperties(module, configuration)) {
    ++report.rejected;
    return true;
  }
  report.outcome = Outcome::Failed;
  report.failingPipeline = index;
  setMessage(report, error.text);
  return false;
}

/// Whether `module` uses the op --test-miscompile-op names.
bool usesTestMiscompileOp(ModuleOp module) {
  return module
      ->walk([](Operation *op) {
        return op->getName().getStringRef() == testMiscompileOp
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Checks one program under `configurations` (all of them, or the one a
/// reduction replays); runs in a child process.
Report checkProgram(const std::string &text, uint64_t inputSeed,
                    const std::vector<Configuration> &configurations) {
  Report report;
  StepError error;
  OwningOpRef<ModuleOp> module = parseProgram(text, report);
  if (!module)
    return report;
  Entry entry = entryOf(*module);
  obs_run::HostArray input(entry.input);
  if (llvm::Error e =
          input.fill("random:" + std::to_string(inputSeed) + ":-100:100")) {
    report.outcome = Outcome::Failed;
    setMessage(report, llvm::toString(std::move(e)));
    return report;
  }
  // ref runs first under every configuration: a crash there reduces with
  // the first.
  if (childProgress)
    *childProgress = 0;
  FailureOr<obs_run::HostArray> reference =
      run(*module, entry, "obs-reference", input, error);
  ++report.runs;
  if (failed(reference)) {
    checkRefFailure(*module, entry, input, configurations, error, report);
    return report;
  }
  // The refined kernels, by refinement, shared by the thread orders.
  std::map<std::string, OwningOpRef<ModuleOp>> refined;
  // What the user wrote, which every refinement keeps.
  std::map<std::string, std::string> written = writtenProperties(*module);
  for (auto [index, configuration] : llvm::enumerate(configurations)) {
    if (childProgress)
      *childProgress = static_cast<int>(index);
    OwningOpRef<ModuleOp> &refinedModule = refined[configuration.refinement()];
    FailureOr<obs_run::HostArray> result = failure();
    if (!refinedModule && failed(refine(*module, configuration, index, written,
                                        refinedModule, error, report)))
      return report;
    if (refinedModule)
      result =
          run(*refinedModule, entry, configuration.lowering(), input, error);
    if (failed(result)) {
      if (goesOnAfterFailure(*module, configuration, index, error, report))
        continue;
      return report;
    }
    ++report.runs;
    if (!testMiscompileOp.empty() && result->getNumLeaves() > 0 &&
        usesTestMiscompileOp(*module))
      *static_cast<uint8_t *>(result->getBuffer(0)) ^= 1;
    int64_t k = firstDifference(*result, *reference);
    if (k >= 0) {
      report.outcome = Outcome::Mismatch;
      report.failingPipeline = index;
      obs_run::Number x = result->get(k), y = reference->get(k);
      setMessage(report, "number " + std::to_string(k) + " is " +
                             printNumber(x) + " on cpu but " + printNumber(y) +
                             " on ref");
      return report;
    }
  }
  return report;
}

/// A pipeline a device program is compiled by, and its name in reports.
struct DevicePipeline {
  std::string name, text;
  /// Whether the plan's kernels may be over a compiler limit: only
  /// obs-optimize is bound to fit them, not a random refinement.
  bool mayExceedLimits = false;
};

/// The pipelines of device program `index`: ref, and the cpu target through
/// obs-optimize as obs-run runs it, through obs-optimize with a random
/// strategy, and through a random refinement pipeline (configurationsFor's,
/// which may leave a plan's kernels over the shared-memory limit: only
/// obs-optimize must fit), each under random thread and block orders. The
/// kernels as written are not tried: without obs-plan-shared every sync of
/// a tile's network takes a buffer of its own.
std::vector<DevicePipeline> devicePipelinesFor(uint64_t index) {
  std::vector<Configuration> random = configurationsFor(index);
  // configurationsFor gives the kernel as written under three orders, then
  // each refinement pipeline under three.
  std::mt19937_64 rng(seed * 7919 + index * 104729 + 23);
  auto uniform = [&](size_t lo, size_t hi) {
    return std::uniform_int_distribution<size_t>(lo, hi)(rng);
  };
  std::vector<DevicePipeline> pipelines = {{"ref", "obs-reference"}};
  pipelines.push_back({"cpu through obs-optimize",
                       "obs-optimize," + random[uniform(0, 2)].lowering()});
  static const char *strategies[] = {"strided", "blocked", "compact", "cost"};
  std::string strategy = strategies[uniform(0, 3)];
  pipelines.push_back({"cpu through obs-optimize{strategy=" + strategy + "}",
                       "obs-optimize{strategy=" + strategy + "}," +
                           random[uniform(0, 2)].lowering()});
  if (random.size() > 3)
    pipelines.push_back({"cpu refined",
                         "obs-expand-device," +
                             random[uniform(3, random.size() - 1)].pipeline(),
                         /*mayExceedLimits=*/true});
  return pipelines;
}

/// The oracle's input: the numbers of `array`.
DeviceArray toDeviceArray(const obs_run::HostArray &array,
                          DeviceScalar scalar) {
  DeviceArray result;
  result.type = scalar;
  for (uint64_t k = 0; k < array.getNumScalars(); ++k) {
    obs_run::Number number = array.get(k);
    if (isFloat(scalar))
      result.reals.push_back(number.real);
    else
      result.integers.push_back(number.integer);
  }
  return result;
}

/// The oracle's answer as a kernel's result is stored.
obs_run::HostArray toHostArray(const DeviceArray &array, Type element) {
  obs_run::HostArray result(
      obs::ArrType::get(element.getContext(), array.size(), element));
  for (uint64_t k = 0; k < array.size(); ++k) {
    obs_run::Number number;
    number.isFloat = isFloat(array.type);
    if (number.isFloat)
      number.real = array.reals[k];
    else
      number.integer = array.integers[k];
    // The oracle computes in the element's type, so every number fits.
    llvm::cantFail(result.set(k, number));
  }
  return result;
}

/// Checks device program `program` on each of its lengths, under
/// `pipelines`, against the oracle; runs in a child process.
Report checkDeviceProgram(const DeviceProgram &program, uint64_t inputSeed,
                          const std::vector<DevicePipeline> &pipelines) {
  Report report;
  MLIRContext &context = *sharedContext;
  std::string text = printDeviceProgram(program);
  OwningOpRef<ModuleOp> module;
  {
    Diagnostics diagnostics(context);
    module = parseSourceString<ModuleOp>(text, &context);
    if (!module) {
      report.outcome = Outcome::Failed;
      setMessage(report, "the generated program does not parse or verify: " +
                             diagnostics.error.text);
      return report;
    }
  }
  bool miscompiled = !testMiscompileOp.empty() &&
                     StringRef(text).contains(" " + testMiscompileOp + " ");
  auto entry = module->lookupSymbol<func::FuncOp>("entry");
  Type inputElement =
      cast<MemRefType>(entry.getArgumentTypes()[0]).getElementType();
  Type outputElement =
      cast<MemRefType>(entry.getArgumentTypes()[1]).getElementType();
  // The inputs, and what the oracle makes of them, once for every pipeline.
  std::vector<obs_run::HostArray> inputs, expected;
  for (auto [k, length] : llvm::enumerate(program.lengths)) {
    obs_run::HostArray input(obs::ArrType::get(&context, length, inputElement));
    if (llvm::Error e = input.fill("random:" + std::to_string(inputSeed + k) +
                                   ":-100:100")) {
      report.outcome = Outcome::Failed;
      setMessage(report, llvm::toString(std::move(e)));
      return report;
    }
    expected.push_back(toHostArray(
        evaluateDeviceProgram(program, toDeviceArray(input, program.input)),
        outputElement));
    inputs.push_back(std::move(input));
  }
  for (auto [index, pipeline] : llvm::enumerate(pipelines)) {
    if (childProgress)
      *childProgress = static_cast<int>(index);
    ++report.pipelines;
    StepError error;
    FailureOr<std::unique_ptr<obs::Executable>> engine =
        compile(*module, pipeline.text, error);
    // Device ops' kernels write no properties but work assignments (the
    // merge sort's), and obs-optimize plans them within every limit, so
    // any other failure is one.
    if (failed(engine) && error.overLimit && pipeline.mayExceedLimits) {
      ++report.resources;
      continue;
    }
    if (failed(engine)) {
      report.outcome = Outcome::Failed;
      report.failingPipeline = index;
      setMessage(report, pipeline.name + ": " + error.text);
      return report;
    }
    for (auto [k, length] : llvm::enumerate(program.lengths)) {
      obs_run::HostArray output(expected[k].getType());
      std::string where =
          pipeline.name + ", " + std::to_string(length) + " elements: ";
      if (failed(invoke(**engine, "entry", inputs[k], output, error))) {
        report.outcome = Outcome::Failed;
        report.failingPipeline = index;
        setMessage(report, where + error.text);
        return report;
      }
      ++report.runs;
      if (miscompiled && pipeline.name != "ref" && output.getNumLeaves() > 0)
        *static_cast<uint8_t *>(output.getBuffer(0)) ^= 1;
      // Bit for bit, the sign of a zero included: every combine is exact.
      int64_t i = firstDifference(output, expected[k], /*signedZeros=*/true);
      if (i < 0)
        continue;
      report.outcome = Outcome::Mismatch;
      report.failingPipeline = index;
      setMessage(report, where + "number " + std::to_string(i) + " is " +
                             printNumber(output.get(i)) +
                             " but the oracle's is " +
                             printNumber(expected[k].get(i)));
      return report;
    }
  }
  return report;
}

/// A check running in a child process.
struct Child {
  pid_t pid;
  int fd;
  /// The configuration the child is running, in memory shared with it, so
  /// that a crash still names the configuration to reduce with.
  int *progress;
};

/// Starts `check` in a child, which reports through a pipe.
Child startChild(const std::function<Report()> &check) {
  int fds[2];
  if (pipe(fds) != 0) {
    perror("obs-fuzz: pipe");
    exit(2);
  }
  fflush(stdout);
  llvm::outs().flush();
  auto *progress =
      static_cast<int *>(mmap(nullptr, sizeof(int), PROT_READ | PROT_WRITE,
                              MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  if (progress == MAP_FAILED) {
    perror("obs-fuzz: mmap");
    exit(2);
  }
  *progress = -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    childProgress = progress;
    // CPU time, so that a loaded machine does not turn slow programs into
    // timeouts; the wall clock only catches a child that stops running.
    // LLVM's crash handler would print a stack dump for SIGXCPU; no core
    // file either.
    struct rlimit cpu = {timeout, timeout + 5}, noCore = {0, 0};
    setrlimit(RLIMIT_CPU, &cpu);
    setrlimit(RLIMIT_CORE, &noCore);
    signal(SIGXCPU, SIG_DFL);
    alarm(4 * timeout);
    Report report = check();
    ssize_t written = write(fds[1], &report, sizeof(report));
    (void)written;
    _exit(0);
  }
  close(fds[1]);
  return {pid, fds[0], progress};
}

/// Reads the report of a child that has exited with `status` from its pipe;
/// a crash, a timeout or a missing report is a failure, and sets `crashed`.
Report collectReport(Child child, int status, bool &crashed) {
  Report report;
  ssize_t got = read(child.fd, &report, sizeof(report));
  close(child.fd);
  int running = *child.progress;
  munmap(child.progress, sizeof(int));
  crashed = got != static_cast<ssize_t>(sizeof(report)) || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0;
  if (!crashed)
    return report;
  report = Report();
  report.outcome = Outcome::Failed;
  report.failingPipeline = running;
  setMessage(
      report,
      WIFSIGNALED(status)
          ? (WTERMSIG(status) == SIGALRM || WTERMSIG(status) == SIGXCPU
                 ? std::string("timed out")
                 : std::string("crashed: ") + strsignal(WTERMSIG(status)))
          : "exited with " + std::to_string(WEXITSTATUS(status)));
  return report;
}

/// Waits for `child` and returns its report.
Report finishChild(Child child, bool &crashed) {
  int status = 0;
  waitpid(child.pid, &status, 0);
  return collectReport(child, status, crashed);
}

Report checkInChild(const std::string &text, uint64_t inputSeed,
                    const std::vector<Configuration> &configurations,
                    bool &crashed) {
  return finishChild(
      startChild([&] { return checkProgram(text, inputSeed, configurations); }),
      crashed);
}

/// What a report of a mismatch or a failure says, for the output and the
/// saved program.
std::string describeFailure(const Report &report) {
  return (report.outcome == Outcome::Mismatch ? "mismatch: " : "failure: ") +
         std::string(report.message);
}

/// Calls `f` on the index of each program of --first to --first +
/// --programs, in order.
void forEachIndex(const std::function<void(uint64_t)> &f) {
  for (uint64_t index = firstProgram; index < firstProgram + numPrograms;
       ++index)
    f(index);
}

/// Checks programs --first to --first + --programs, up to --jobs at a time,
/// each in a child: `check(index)` says what a child runs (nothing: the
/// program is skipped), and `handle` takes each report as it comes.
void checkPrograms(
    const std::function<std::function<Report()>(uint64_t)> &check,
    const std::function<void(uint64_t, const Report &, bool)> &handle) {
  std::map<pid_t, std::pair<uint64_t, Child>> running;
  uint64_t next = firstProgram;
  uint64_t end = uint64_t(firstProgram) + numPrograms;
  while (next < end || !running.empty()) {
    while (next < end && running.size() < std::max(1u, jobs.getValue())) {
      if (std::function<Report()> work = check(next)) {
        Child child = startChild(work);
        running[child.pid] = {next, child};
      }
      ++next;
    }
    if (running.empty())
      continue; // Every program left was skipped.
    // The first child to finish: read its report before reaping it.
    int status = 0;
    pid_t done = waitpid(-1, &status, WNOHANG);
    if (done <= 0) {
      fd_set ready;
      FD_ZERO(&ready);
      int highest = 0;
      for (auto &[pid, entry] : running) {
        FD_SET(entry.second.fd, &ready);
        highest = std::max(highest, entry.second.fd);
      }
      select(highest + 1, &ready, nullptr, nullptr, nullptr);
      for (auto it = running.begin(); it != running.end(); ++it)
        if (FD_ISSET(it->second.second.fd, &ready)) {
          auto [index, child] = it->second;
          running.erase(it);
          bool crashed = false;
          Report report = finishChild(child, crashed);
          handle(index, report, crashed);
          break;
        }
      continue;
    }
    // Exited before its report was read (a crash): its pipe is at EOF.
    auto it = running.find(done);
    if (it == running.end())
      continue;
    auto [index, child] = it->second;
    running.erase(it);
    bool crashed = false;
    Report report = collectReport(child, status, crashed);
    handle(index, report, crashed);
  }
}

/// Reduces a failing program while the same configuration fails the same
/// way, and returns the smallest found.
Program reduce(Program program, uint64_t inputSeed,
               const Configuration &configuration, Outcome outcome,
               bool crashed) {
  std::vector<Configuration> only = {configuration};
  unsigned budget = 300;
  bool progress = true;
  while (progress && budget > 0) {
    progress = false;
    for (Program &candidate : simplerPrograms(program)) {
      if (budget-- == 0)
        break;
      bool candidateCrashed = false;
      Report report = checkInChild(printProgram(candidate), inputSeed, only,
                                   candidateCrashed);
      if (report.outcome == outcome && candidateCrashed == crashed) {
        program = std::move(candidate);
        progress = true;
        break;
      }
    }
  }
  return program;
}

void save(const std::string &name, const Program &program, uint64_t inputSeed,
          const Configuration *configuration, const std::string &what) {
  std::string path = saveDir + "/" + name + ".mlir";
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "obs-fuzz: cannot write '" << path << "': " << ec.message()
                 << "\n";
    return;
  }
  os << "// obs-fuzz --seed=" << seed << ": " << what << "\n";
  os << "// Input: --input=random:" << inputSeed << ":-100:100\n";
  os << "// Expected: obs-run " << name << ".mlir "
     << (program.launch ? "--entry=launch" : "--kernel=fuzz")
     << " --target=ref --input=random:" << inputSeed << ":-100:100\n";
  if (configuration)
    os << "// Failing: obs-opt " << name
       << ".mlir --pass-pipeline='builtin.module(" << configuration->pipeline()
       << ")'\n";
  os << "\n" << printProgram(program);
}

} // namespace

/// obs-fuzz --device: device programs against the oracle. A failure is
/// saved with its lengths and failing pipeline; it is not reduced (a
/// program is at most three device ops).
int fuzzDevices() {
  auto programFor = [&](uint64_t index) {
    std::mt19937_64 rng(seed * 1000003 + index);
    return generateDeviceProgram(rng);
  };
  if (printOnly >= 0) {
    llvm::outs() << printDeviceProgram(programFor(printOnly));
    return 0;
  }
  uint64_t programs = 0, pipelines = 0, runs = 0, resources = 0, mismatches = 0,
           failures = 0, longest = 0;
  std::map<DeviceStep::Kind, uint64_t> steps;
  std::map<DeviceScalar, uint64_t> inputs;
  uint64_t inPlace = 0, merged = 0, called = 0, calledIndirectly = 0,
           broadcasts = 0;
  auto tally = [&](const DeviceProgram &program) {
    ++inputs[program.input];
    for (const DeviceStep &step : program.steps) {
      ++steps[step.kind];
      inPlace += step.inPlace;
      merged += step.merge;
      broadcasts += step.broadcast >= 0;
      called += step.placement != DeviceStep::Inline;
      calledIndirectly += step.placement == DeviceStep::IndirectCall;
    }
    for (uint64_t length : program.lengths)
      longest = std::max(longest, length);
  };
  auto printTally = [&] {
    llvm::outs() << "  " << steps[DeviceStep::Map] << " maps (" << broadcasts
                 << " of a broadcast reduction), " << steps[DeviceStep::Scan]
                 << " scans, " << steps[DeviceStep::SegmentedScan]
                 << " segmented scans, " << steps[DeviceStep::Sort]
                 << " sorts, " << steps[DeviceStep::ArgSort]
                 << " key-value sorts (" << merged << " merged), "
                 << steps[DeviceStep::Reduce] << " reductions (" << inPlace
                 << " ops in place, " << called << " in helpers, "
                 << calledIndirectly << " called indirectly); lengths up to "
                 << longest << "; inputs of";
    for (auto [scalar, count] : inputs)
      llvm::outs() << " " << getName(scalar) << " " << count;
    llvm::outs() << "\n";
  };
  if (countOnly) {
    forEachIndex([&](uint64_t index) { tally(programFor(index)); });
    printTally();
    return 0;
  }
  auto handle = [&](uint64_t index, const Report &report, bool crashed) {
    DeviceProgram program = programFor(index);
    ++programs;
    tally(program);
    pipelines += report.pipelines;
    runs += report.runs;
    resources += report.resources;
    std::string lengths;
    for (uint64_t length : program.lengths)
      lengths += (lengths.empty() ? "" : ", ") + std::to_string(length);
    if (verbose)
      llvm::outs() << "program " << index << " (" << program.steps.size()
                   << " device ops, lengths " << lengths << "): "
                   << (report.outcome == Outcome::Agreed     ? "agreed"
                       : report.outcome == Outcome::Mismatch ? "MISMATCH"
                                                             : "FAILED")
                   << (report.message[0] ? std::string(": ") + report.message
                                         : std::string())
                   << "\n";
    if (report.outcome == Outcome::Agreed)
      return;
    if (report.outcome == Outcome::Mismatch)
      ++mismatches;
    else
      ++failures;
    std::string what = describeFailure(report);
    llvm::outs() << "program " << index << ": " << what << "\n";
    llvm::sys::fs::create_directories(saveDir);
    std::string name =
        "device-" + std::to_string(seed) + "-" + std::to_string(index);
    std::string path = saveDir + "/" + name + ".mlir";
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      llvm::errs() << "obs-fuzz: cannot write '" << path
                   << "': " << ec.message() << "\n";
      return;
    }
    std::vector<DevicePipeline> tried = devicePipelinesFor(index);
    uint64_t inputSeed = inputSeedOf(index);
    os << "// obs-fuzz --device --seed=" << seed << ": " << what << "\n";
    for (auto [k, length] : llvm::enumerate(program.lengths))
      os << "// Run: obs-run " << name
         << ".mlir --entry=entry --length=" << length
         << " --input=random:" << inputSeed + k << ":-100:100\n";
    if (report.failingPipeline >= 0)
      os << "// Failing: obs-opt " << name << ".mlir --pass-pipeline='builtin."
         << "module(" << tried[report.failingPipeline].text << ")'\n";
    os << "\n" << printDeviceProgram(program);
    llvm::outs() << "  saved " << path << "\n";
    llvm::outs().flush();
  };
  checkPrograms(
      [&](uint64_t index) -> std::function<Report()> {
        return [program = programFor(index), index,
                tried = devicePipelinesFor(index)] {
          return checkDeviceProgram(program, inputSeedOf(index), tried);
        };
      },
      handle);
  llvm::outs() << "obs-fuzz --device --seed=" << seed << ": " << programs
               << " programs, " << pipelines << " pass pipelines, " << runs
               << " runs, " << resources
               << " refinements over a compiler limit, " << mismatches
               << " mismatches, " << failures << " failures\n";
  printTally();
  return mismatches + failures ? 1 : 0;
}

namespace {

/// The kernel program at `index` of this run: generated from the seed and
/// the index alone.
Program kernelProgramFor(uint64_t index) {
  std::mt19937_64 rng(seed * 1000003 + index);
  return generateProgram(rng, maxLength);
}

/// What the programs exercised: launches of each kind, and written
/// properties, alone and under a `threads` attribute.
struct KernelTally {
  uint64_t launched = 0, laidOut = 0, inPlace = 0, throughViews = 0,
           written = 0, writtenUnderThreads = 0, dataLoops = 0, scatters = 0,
           combined = 0, globalScatters = 0, longScans = 0, longFolds = 0,
           neighbours = 0, gathers = 0, rawGpu = 0, helperCalls = 0, unsafe = 0;

  /// Counts what `program` exercises.
  void add(const Program &program) {
    if (program.launch) {
      ++launched;
      laidOut += program.launch->layouts;
      inPlace += program.launch->kind == Launch::InPlace;
      throughViews += program.launch->kind == Launch::Views;
    }
    if (hasWrittenProperty(program)) {
      ++written;
      writtenUnderThreads += program.threads.has_value();
    }
    std::string text = printProgram(program);
    if (isLongScan(program)) {
      ++longScans;
      longFolds += llvm::any_of(program.steps, [](const Step &step) {
        return step.kind == Step::Scan && step.difference;
      });
    }
    dataLoops += llvm::StringRef(text).contains("scf.while");
    neighbours += hasStep(program, Step::Neighbour);
    gathers += hasStep(program, Step::Gather);
    rawGpu += hasStep(program, Step::RawGpu);
    helperCalls += program.launch && program.launch->call != Launch::NoCall;
    unsafe += isUnsafe(program);
    scatters += llvm::StringRef(text).contains("obs.scatter");
    combined += llvm::StringRef(text).contains(" combine(");
    globalScatters += llvm::StringRef(text).contains(" global : ");
  }

  /// Prints the counts on one line of standard output.
  void print() const {
    llvm::outs() << "  " << launched << " launched over blocks (" << laidOut
                 << " with layouts, " << inPlace << " in place, "
                 << throughViews << " through views of one allocation), "
                 << written << " with written sync properties ("
                 << writtenUnderThreads << " under a threads attribute), "
                 << dataLoops << " with loops of data-dependent trip count, "
                 << scatters << " with scatters (" << combined
                 << " with a combine, " << globalScatters
                 << " into a launch's output), " << longScans
                 << " scans of arrays no stage may hold (" << longFolds
                 << " of a difference), " << neighbours
                 << " reading neighbours near the ends, " << gathers
                 << " gathering at places from data, " << rawGpu
                 << " with gpu ops in element code, " << helperCalls
                 << " launching through a helper, " << unsafe << " unsafe\n";
  }
};

/// The counts of a kernel run: its programs, pipelines and runs, and how
/// they ended.
struct KernelTotals {
  uint64_t programs = 0, pipelines = 0, runs = 0, rejected = 0,
           unsafePrograms = 0, acceptedUnsafe = 0, resources = 0,
           tooMuchWork = 0, mismatches = 0, failures = 0;
  KernelTally tally;
};

/// Adds the report of kernel program `index` to `totals`, prints it under
/// --verbose, and saves a mismatch or failure with its reduction.
void handleKernelReport(KernelTotals &totals, uint64_t index,
                        const Report &given, bool crashed) {
  Program program = kernelProgramFor(index);
  // A program the generator made unsafe must be rejected, or stopped, on
  // every target.
  Report report = given;
  if (isUnsafe(program) && report.outcome == Outcome::Agreed) {
    report.outcome = Outcome::Failed;
    ++totals.acceptedUnsafe;
    setMessage(report, "an unsafe program (a read outside an array, a "
                       "place a scatter writes twice, a gpu op in element "
                       "code, or a helper passed the global it writes) "
                       "runs on every target");
  }
  uint64_t inputSeed = inputSeedOf(index);
  std::vector<Configuration> configurations = configurationsFor(index);
  ++totals.programs;
  totals.tally.add(program);
  totals.pipelines += report.pipelines;
  totals.runs += report.runs;
  totals.rejected += report.rejected;
  totals.unsafePrograms += report.unsafe;
  totals.resources += report.resources;
  if (verbose)
    llvm::outs() << "program " << index << " (" << program.length
                 << " elements, " << countSteps(program) << " steps): "
                 << (report.outcome == Outcome::Agreed     ? "agreed"
                     : report.outcome == Outcome::Rejected ? "rejected"
                     : report.outcome == Outcome::Unsafe
                         ? "unsafe, rejected or stopped on every target"
                     : report.outcome == Outcome::OverLimit ? "over a limit"
                     : report.outcome == Outcome::Mismatch  ? "MISMATCH"
                                                            : "FAILED")
                 << (report.message[0] ? std::string(": ") + report.message
                                       : std::string())
                 << "\n";
  if (report.outcome != Outcome::Mismatch && report.outcome != Outcome::Failed)
    return;
  if (report.outcome == Outcome::Mismatch)
    ++totals.mismatches;
  else
    ++totals.failures;
  const Configuration *failing = report.failingPipeline >= 0
                                     ? &configurations[report.failingPipeline]
                                     : nullptr;
  std::string what = describeFailure(report);
  llvm::outs() << "program " << index << ": " << what << "\n";
  llvm::sys::fs::create_directories(saveDir);
  std::string name =
      "fuzz-" + std::to_string(seed) + "-" + std::to_string(index);
  save(name, program, inputSeed, failing, what);
  // A timeout is not reduced: each candidate could take the whole timeout.
  Program reduced = program;
  if (failing && StringRef(report.message) != "timed out")
    reduced = reduce(program, inputSeed, *failing, report.outcome, crashed);
  save(name + "-reduced", reduced, inputSeed, failing, what);
  llvm::outs() << "  saved " << saveDir << "/" << name << ".mlir ("
               << countSteps(program) << " steps) and " << name
               << "-reduced.mlir (" << countSteps(reduced) << " steps)\n";
  llvm::outs().flush();
}

/// Prints the summary line of a kernel run and what its programs
/// exercised.
void printKernelSummary(const KernelTotals &totals) {
  llvm::outs() << "obs-fuzz --seed=" << seed << ": " << totals.programs
               << " programs, " << totals.pipelines << " pass pipelines, "
               << totals.runs << " runs, " << totals.rejected
               << " rejected by the verifier, " << totals.unsafePrograms
               << " unsafe (rejected or stopped on every target), "
               << totals.acceptedUnsafe << " unsafe accepted, "
               << totals.resources << " over a compiler limit, "
               << totals.tooMuchWork << " over the work limit, "
               << totals.mismatches << " mismatches, " << totals.failures
               << " failures\n";
  totals.tally.print();
}

/// obs-fuzz without --device: kernel programs on ref and on cpu, through
/// random pipelines; prints one program under --print, counts what the
/// programs exercise under --count, and otherwise checks them all. Returns
/// the exit status.
int fuzzKernels() {
  if (printOnly >= 0) {
    llvm::outs() << printProgram(kernelProgramFor(printOnly));
    return 0;
  }

  KernelTotals totals;
  if (countOnly) {
    forEachIndex(
        [&](uint64_t index) { totals.tally.add(kernelProgramFor(index)); });
    totals.tally.print();
    return 0;
  }

  checkPrograms(
      [&](uint64_t index) -> std::function<Report()> {
        // Exponential recomputation is the program's, not a bug: skip it
        // rather than wait for the timeout.
        Program program = kernelProgramFor(index);
        if (double work = estimateWork(program); work > maxWork) {
          ++totals.programs;
          ++totals.tooMuchWork;
          if (verbose)
            llvm::outs() << "program " << index << ": over the work limit ("
                         << llvm::format("%.3g", work) << " evaluations)\n";
          return nullptr;
        }
        return [text = printProgram(program), index,
                configurations = configurationsFor(index)] {
          return checkProgram(text, inputSeedOf(index), configurations);
        };
      },
      [&](uint64_t index, const Report &report, bool crashed) {
        handleKernelReport(totals, index, report, crashed);
      });
  printKernelSummary(totals);
  return totals.mismatches + totals.failures ? 1 : 0;
}

/// Checks the options that the command line parser cannot; prints an error
/// and returns false if one is out of range.
bool checkOptions() {
  if (maxLength < 1 || maxLength > 1024) {
    llvm::errs() << "obs-fuzz: --max-length must be 1 to 1024\n";
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  obs::registerAllPasses();
  cl::HideUnrelatedOptions(fuzzCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "obs-fuzz: random obs kernels on ref and on cpu, through random "
      "refinement pipelines and thread orders\n");
  if (!checkOptions())
    return 2;

  DialectRegistry registry;
  obs::registerAllDialects(registry);
  // Dialects load on demand, in each child, as in obs-opt: the parser loads
  // what the program uses and each pass what it declares. Loading them all
  // up front hid a pass that built gpu ops without declaring the gpu
  // dialect (obs-assign-work, until 6b6970a).
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  sharedContext = &context;
  if (deviceMode)
    return fuzzDevices();
  return fuzzKernels();
}
