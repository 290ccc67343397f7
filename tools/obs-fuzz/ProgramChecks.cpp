//===- ProgramChecks.cpp - checking one obs-fuzz program in a child -------===//
//
// What a child process of obs-fuzz runs: one kernel program on ref and on
// the cpu target under each configuration (ProgramChecks.h), compared with
// ref, or one device program under each pipeline, compared with the oracle;
// with the compiling, running and diagnostics they share. Kept apart from
// the driver (obs-fuzz.cpp), which draws the programs, runs the children,
// and reports, saves and reduces what fails.
//
//===----------------------------------------------------------------------===//

#include "ProgramChecks.h"
#include "DeviceGenerator.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Runner/HostData.h"
#include "Obs/Runner/Target.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>

using namespace mlir;
using namespace obs_fuzz;

namespace {

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

/// Whether `configuration`'s work assignment alone (by position where it
/// assigns none), with no other refinement, makes the verifier reject
/// `module`: the properties the user wrote do not hold for the threads it
/// assigns.
bool rejectedForWrittenProperties(ModuleOp module,
                                  const Configuration &configuration) {
  auto assign =
      llvm::find_if(configuration.passes, [](const std::string &pass) {
        return StringRef(pass).starts_with("obs-assign-work");
      });
  // Without one, the work is dealt out by position, as in the kernel as
  // written.
  Configuration alone = configuration;
  alone.passes.clear();
  if (assign != configuration.passes.end())
    alone.passes = {*assign};
  StepError error;
  return failed(transform(module, alone.refinement(), error)) && error.rejected;
}

/// Whether the GPU targets' default refinement (obs-optimize) accepts
/// `module`: ref accepts a kernel whose written claims hold under the work
/// assignment obs-optimize chooses (obs-verify-reference's second proof),
/// though the kernel as written, dealt out by position, refutes them.
bool acceptedAsRefinedByDefault(ModuleOp module) {
  StepError error;
  return succeeded(transform(module, "obs-optimize", error));
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

void obsFuzzScatterCollision(int64_t block, int64_t place, int64_t, int64_t) {
  if (!scatterCollision)
    scatterCollision = {block, place};
}

/// The first read outside its array by an obs.index in the current run, as
/// index and length (Obs/Support/RuntimeFunctions.h).
std::optional<std::pair<int64_t, int64_t>> indexOutside;

void obsFuzzIndexOutside(int64_t, int64_t index, int64_t length, int64_t,
                         int64_t) {
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

/// The run-time check of what the launch proof takes as given about a
/// launch's memrefs and grid (obs-check-launches). The fuzzer's programs
/// launch over whole, distinct buffers at grids it sizes, so a report is a
/// bug: the child stops, and its crash is the finding.
void obsFuzzLaunchContract(int64_t breach, int64_t first, int64_t second) {
  if (breach == static_cast<int64_t>(obs::LaunchContractBreach::None))
    return;
  llvm::errs() << "obs-fuzz: "
               << obs::describeLaunchContractBreach(breach, first, second)
               << "\n";
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
  reports.launchContract = obsFuzzLaunchContract;
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

/// A number as reports print it.
std::string printNumber(const obs_run::Number &number) {
  return number.isFloat ? std::to_string(number.real)
                        : std::to_string(number.integer);
}

} // namespace

/// The context every child parses into: made once, before the first fork,
/// with every dialect registered and none loaded.
MLIRContext *obs_fuzz::sharedContext = nullptr;

/// In a child: where it says which configuration it is running.
int *obs_fuzz::childProgress = nullptr;

void obs_fuzz::setMessage(Report &report, const std::string &text) {
  std::strncpy(report.message, text.c_str(), sizeof(report.message) - 1);
}

namespace {

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
  // target and for every plan. Except a written claim that only the work
  // obs-optimize deals out makes true, which ref accepts as the GPU
  // targets refine the kernel, and the kernel dealt out by position
  // refutes (program 4607 of seed 20000: an in-place sync after a bitonic
  // network, safe for pairs a thread).
  if (asWritten && error.rejected && !error.unsafe && !error.readOutside &&
      acceptedAsRefinedByDefault(module)) {
    ++report.rejected;
    return true;
  }
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

} // namespace

/// Checks one program under `configurations` (all of them, or the one a
/// reduction replays); runs in a child process.
Report
obs_fuzz::checkProgram(const std::string &text, uint64_t inputSeed,
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

namespace {

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

} // namespace

/// Checks device program `program` on each of its lengths, under
/// `pipelines`, against the oracle; runs in a child process.
Report
obs_fuzz::checkDeviceProgram(const DeviceProgram &program, uint64_t inputSeed,
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
