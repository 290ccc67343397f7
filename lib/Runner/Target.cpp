//===- Target.cpp - the ref and cpu targets, and what targets share -------===//
//
// The pipelines of the three targets, and the executables of the two whose
// arrays stay in host memory: JIT-compiled through MLIR's ExecutionEngine, or
// loaded from the compile cache. The cuda target's executable is in
// CudaTarget.cpp.
//
//===----------------------------------------------------------------------===//

#include "Obs/Runner/Target.h"
#include "Obs/Analysis/SymbolicHazards.h"
#include "Obs/Conversion/Passes.h"
#include "Obs/Runner/CompileCache.h"
#include "Obs/Support/ExecutionOrder.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/Statistics.h"
#include "TargetImpl.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/TargetSelect.h"
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::obs;

SmallVector<void *> Job::getBuffers() {
  SmallVector<void *> pointers;
  for (obs_run::HostArray &array : arrays)
    for (unsigned c = 0; c < array.getWidth(); ++c)
      pointers.push_back(array.getBuffer(c));
  return pointers;
}

SmallVector<size_t> Job::getBufferBytes() const {
  SmallVector<size_t> bytes;
  for (const obs_run::HostArray &array : arrays)
    for (unsigned c = 0; c < array.getWidth(); ++c)
      bytes.push_back(array.getBufferBytes(c));
  return bytes;
}

uint64_t Job::getArrayBytes() const {
  uint64_t total = 0;
  for (size_t bytes : getBufferBytes())
    total += bytes;
  return total;
}

//===----------------------------------------------------------------------===//
// What lowered code calls
//===----------------------------------------------------------------------===//

static std::vector<RecordedLaunch> &recordedLaunches() {
  static std::vector<RecordedLaunch> launches;
  return launches;
}

ArrayRef<RecordedLaunch> mlir::obs::getRecordedLaunches() {
  return recordedLaunches();
}

void mlir::obs::clearRecordedLaunches() { recordedLaunches().clear(); }

static void recordLaunch(int64_t kernel, int64_t grid, int64_t threads,
                         int64_t read, int64_t written) {
  // A launch of no blocks runs nothing (a plan's level not taken).
  if (grid > 0)
    recordedLaunches().push_back({kernel, grid, threads, read, written});
}

/// Host code's allocations (FinalizeMemRefToLLVM's generic functions, which
/// the host pipeline calls instead of malloc and free), tracked so that a
/// memref.dealloc of memory the code did not allocate, or freed already,
/// is one line rather than a crash of the process (a double free) or a
/// hang (free of a caller's buffer).
namespace {
struct HostAllocations {
  std::mutex mutex;
  llvm::DenseSet<void *> live;
  void (*unknownFree)() = nullptr;

  static HostAllocations &get() {
    static HostAllocations allocations;
    return allocations;
  }
  void *track(void *pointer) {
    if (pointer) {
      std::lock_guard<std::mutex> lock(mutex);
      live.insert(pointer);
    }
    return pointer;
  }
};
} // namespace

static void *allocateForHost(uint64_t bytes) {
  return HostAllocations::get().track(std::malloc(bytes ? bytes : 1));
}

static void *allocateAlignedForHost(uint64_t alignment, uint64_t bytes) {
  void *pointer = nullptr;
  if (posix_memalign(&pointer, std::max<uint64_t>(alignment, sizeof(void *)),
                     bytes ? bytes : 1) != 0)
    return nullptr;
  return HostAllocations::get().track(pointer);
}

static void freeForHost(void *pointer) {
  if (!pointer)
    return;
  HostAllocations &allocations = HostAllocations::get();
  void (*report)() = nullptr;
  {
    std::lock_guard<std::mutex> lock(allocations.mutex);
    if (allocations.live.erase(pointer)) {
      std::free(pointer);
      return;
    }
    report = allocations.unknownFree;
  }
  if (report)
    report();
}

std::string mlir::obs::describeLaunchContractBreach(int64_t breach,
                                                    int64_t first,
                                                    int64_t second) {
  std::string text;
  llvm::raw_string_ostream os(text);
  switch (static_cast<LaunchContractBreach>(breach)) {
  case LaunchContractBreach::LaunchOperandOutside:
    os << "memref operand " << first
       << " of a launch (its ins, then its outs) reaches past the allocation "
          "it views";
    break;
  case LaunchContractBreach::LaunchOperandsMeet:
    os << "memref operands " << first << " and " << second
       << " of a launch (its ins, then its outs), views of one allocation "
          "that the launch proof took to be apart, meet";
    break;
  case LaunchContractBreach::CallArgumentOutside:
    os << "memref argument " << first
       << " of a call of a function that launches kernels reaches past the "
          "allocation it views";
    break;
  case LaunchContractBreach::CallArgumentsMeet:
    os << "memref arguments " << first << " and " << second
       << " of a call of a function that launches kernels, views of one "
          "allocation that the launch proof took to be apart, meet";
    break;
  case LaunchContractBreach::GridTooLarge:
    os << "a launch's grid of " << first << " blocks is past "
       << kMostGridBlocks << ", CUDA's limit";
    break;
  case LaunchContractBreach::LaunchOperandLayout:
    os << "memref operand " << first
       << " of a launch (its ins, then its outs) has an offset or strides "
          "other than the static ones its type says (a memref.cast that "
          "claimed them)";
    break;
  case LaunchContractBreach::SortLengthsDiffer:
    os << "memref operand " << first
       << " of an obs.device_sort (its ins, then its outs) holds " << second
       << " elements, and its first input another number: a sort's arrays "
          "hold one number of elements";
    break;
  case LaunchContractBreach::SortTooLong:
    os << "an obs.device_sort's first input holds " << first
       << " elements, past 2147483647, the most a sort takes";
    break;
  case LaunchContractBreach::ChainTooShort:
    os << "memref operand " << first
       << " of a launch (its ins, then its outs), the chain of an obs.carry, "
          "holds "
       << second
       << " words, fewer than a word per element of its carry for each "
          "block of the grid, plus one (the ticket counter)";
    break;
  case LaunchContractBreach::CallArgumentLayout:
    os << "memref argument " << first
       << " of a call of a function that launches kernels has an offset or "
          "strides other than the static ones its type says (a memref.cast "
          "that claimed them)";
    break;
  case LaunchContractBreach::None:
    os << "no breach";
    break;
  }
  if (breach < static_cast<int64_t>(LaunchContractBreach::None) ||
      breach > static_cast<int64_t>(LaunchContractBreach::ChainTooShort))
    os << "an unknown breach " << breach << " of the launch contract";
  return text;
}

/// The report of a broken launch contract where the tool gives none: the
/// run cannot go on, and the library has no better way to say so.
static void reportLaunchContract(int64_t breach, int64_t first,
                                 int64_t second) {
  if (breach == static_cast<int64_t>(LaunchContractBreach::None))
    return;
  llvm::errs() << "obs: " << describeLaunchContractBreach(breach, first, second)
               << "\n";
  std::abort();
}

/// The runner's own report of a failed host check, where the tool gives
/// none.
static void reportHostCheck(const char *message) {
  llvm::errs() << "obs: " << message << "\n";
  std::abort();
}

/// `value` rounded to bfloat16, to nearest even, as APFloat (MLIR's and
/// LLVM's constant folding) and PTX's cvt.rn.bf16 round it: subnormals
/// kept. x86's vcvtneps2bf16 flushes them, so the JIT leaves that
/// instruction out (createEngine) and calls these instead.
template <typename Float> static __bf16 roundToBFloat16(Float value) {
  llvm::APFloat rounded(value);
  bool lost;
  rounded.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven,
                  &lost);
  auto bits = static_cast<uint16_t>(rounded.bitcastToAPInt().getZExtValue());
  __bf16 result;
  std::memcpy(&result, &bits, sizeof(bits));
  return result;
}

llvm::orc::SymbolMap
mlir::obs::runner::getRuntimeSymbols(const RuntimeReports &reports,
                                     llvm::orc::MangleAndInterner mangle) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](StringRef name, auto *function) {
    if (function)
      symbols[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                               llvm::JITSymbolFlags::Exported};
  };
  add(kRecordLaunchFunction, &recordLaunch);
  // A memref.copy between strided views calls MLIR's C runner utilities.
  add("memrefCopy", &memrefCopy);
  HostAllocations::get().unknownFree = reports.unknownFree;
  add("_mlir_memref_to_llvm_alloc", &allocateForHost);
  add("_mlir_memref_to_llvm_aligned_alloc", &allocateAlignedForHost);
  add("_mlir_memref_to_llvm_free", &freeForHost);
  add(kScatterCollisionFunction, reports.scatterCollision);
  add(kChainPublishFunction, &runner::publishChainState);
  add(kChainObserveFunction, &runner::observeChainState);
  add(kIndexOutsideFunction, reports.indexOutside);
  add(kArgumentContractFunction, reports.argumentContract);
  add(kLaunchContractFunction,
      reports.launchContract ? reports.launchContract : &reportLaunchContract);
  add(kHostCheckFunction,
      reports.hostCheck ? reports.hostCheck : &reportHostCheck);
  // LLVM's libcalls for float to bfloat16 where no instruction is used.
  add("__truncsfbf2", &roundToBFloat16<float>);
  add("__truncdfbf2", &roundToBFloat16<double>);
  return symbols;
}

//===----------------------------------------------------------------------===//
// Executables in host memory
//===----------------------------------------------------------------------===//

Executable::~Executable() = default;

namespace {

/// A program JIT-compiled, or loaded, into this process: its functions take
/// the arrays' host buffers.
class HostExecutable : public Executable {
public:
  using Function = void (*)(void **);

  /// Code the ExecutionEngine compiles; `compiled`, when given, is called
  /// once the code exists (after the first lookup), to keep it.
  HostExecutable(std::unique_ptr<ExecutionEngine> engine,
                 std::function<void(ExecutionEngine &)> compiled)
      : engine(std::move(engine)), compiled(std::move(compiled)) {}
  /// Object code loaded by an LLJIT (the compile cache's).
  explicit HostExecutable(std::unique_ptr<llvm::orc::LLJIT> jit)
      : jit(std::move(jit)) {}

  llvm::Error prepare(const Job &job) override {
    return lookup(job.symbol).takeError();
  }

  llvm::Error run(Job &job) override {
    llvm::Expected<Function> function = lookup(job.symbol);
    if (!function)
      return function.takeError();
    obs_run::PackedMemRefs arguments = packArguments(job);
    (*function)(arguments.get().data());
    return llvm::Error::success();
  }

  llvm::Expected<BenchResult> bench(Job &job, unsigned runs) override {
    llvm::Expected<Function> function = lookup(job.symbol);
    if (!function)
      return function.takeError();
    // The timed runs start from the inputs as given, as the warm-up does,
    // on a copy: the warm-up's results are the job's. (An entry that
    // accumulates into its outputs printed the last run's sums.)
    Job timed = job;
    obs_run::PackedMemRefs arguments = packArguments(job);
    obs_run::PackedMemRefs timedArguments = packArguments(timed);
    SmallVector<void *> given = timed.getBuffers();
    std::vector<std::vector<char>> inputs;
    for (auto [buffer, size] : llvm::zip_equal(given, timed.getBufferBytes()))
      inputs.emplace_back(static_cast<char *>(buffer),
                          static_cast<char *>(buffer) + size);
    (*function)(arguments.get().data());
    BenchResult result;
    result.bytes = job.getArrayBytes();
    for (unsigned run = 0; run < runs; ++run) {
      for (auto [buffer, input] : llvm::zip_equal(given, inputs))
        std::memcpy(buffer, input.data(), input.size());
      auto start = std::chrono::steady_clock::now();
      (*function)(timedArguments.get().data());
      std::chrono::duration<float, std::milli> elapsed =
          std::chrono::steady_clock::now() - start;
      result.milliseconds.push_back(elapsed.count());
    }
    return result;
  }

private:
  /// `job`'s buffers as the packed interface takes them, broken as the test
  /// asks.
  static obs_run::PackedMemRefs packArguments(Job &job) {
    SmallVector<void *> buffers = job.getBuffers();
    if (job.brokenContract == BrokenContract::Overlap && buffers.size() > 1)
      buffers[1] = buffers[0];
    if (job.brokenContract == BrokenContract::Misalign && !buffers.empty())
      buffers[0] = static_cast<char *>(buffers[0]) + 4;
    obs_run::PackedMemRefs arguments;
    arguments.add(job.arrays, buffers);
    return arguments;
  }

  llvm::Expected<Function> lookup(StringRef symbol) {
    llvm::Expected<Function> function = lookupPacked(symbol);
    if (!function)
      return llvm::createStringError("cannot JIT-compile @" + symbol + ": " +
                                     llvm::toString(function.takeError()));
    if (compiled) {
      compiled(*engine);
      compiled = nullptr;
    }
    return function;
  }

  llvm::Expected<Function> lookupPacked(StringRef symbol) {
    std::string lowered = getHostSymbolName(symbol);
    if (!jit)
      return engine->lookupPacked(lowered);
    llvm::Expected<llvm::orc::ExecutorAddr> address =
        jit->lookup("_mlir_" + lowered);
    if (!address)
      return address.takeError();
    return address->toPtr<Function>();
  }

  std::unique_ptr<ExecutionEngine> engine;
  std::function<void(ExecutionEngine &)> compiled;
  std::unique_ptr<llvm::orc::LLJIT> jit;
};

} // namespace

/// The host's target, for the JITs.
static void initializeNativeTarget() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
}

llvm::Expected<std::unique_ptr<ExecutionEngine>>
mlir::obs::runner::createEngine(ModuleOp lowered,
                                const CompileOptions &compileOptions,
                                bool keepObject) {
  if (compileOptions.reportStep)
    compileOptions.reportStep("LLVM: the host code");
  unsigned optLevel = compileOptions.jitOptLevel;
  initializeNativeTarget();
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                               /*targetMachine=*/nullptr);
  options.transformer = transformer;
  if (optLevel == 0)
    options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::None;
  options.enableObjectDump = keepObject;
  // MLIR turns on LLVM's perf listener by default, which writes a jitdump
  // of every run under /tmp/.debug: 1.2 GB of them were left on this
  // machine by the test suite, and a run under a file size limit stopped
  // at its write.
  options.enablePerfNotificationListener = false;
  // This machine's code, but for the conversions to bfloat16 that flush
  // subnormals to zero (AVX512-BF16's and AVX-NE-CONVERT's): a bf16 result
  // of 2^-133 was 0 on ref and cpu, where folding and PTX keep it (found by
  // an adversarial run). LLVM calls __truncsfbf2 instead
  // (getRuntimeSymbols).
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> machine =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machine)
    return machine.takeError();
  machine->getFeatures().AddFeature("avx512bf16", false);
  machine->getFeatures().AddFeature("avxneconvert", false);
  if (options.jitCodeGenOptLevel)
    machine->setCodeGenOptLevel(*options.jitCodeGenOptLevel);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> targetMachine =
      machine->createTargetMachine();
  if (!targetMachine)
    return targetMachine.takeError();
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(lowered, options, std::move(*targetMachine));
  if (!engine)
    return llvm::createStringError("cannot JIT-compile: " +
                                   llvm::toString(engine.takeError()));
  return engine;
}

llvm::Expected<std::unique_ptr<Executable>>
mlir::obs::compileForHost(ModuleOp lowered, const CompileOptions &options,
                          const RuntimeReports &reports) {
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      runner::createEngine(lowered, options, /*keepObject=*/false);
  if (!engine)
    return engine.takeError();
  (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner mangle) {
    return runner::getRuntimeSymbols(reports, mangle);
  });
  return std::make_unique<HostExecutable>(std::move(*engine), nullptr);
}

//===----------------------------------------------------------------------===//
// The compile cache's code
//===----------------------------------------------------------------------===//

/// The object code `engine` compiled (made with `enableObjectDump`), or
/// none where it cannot be had. ExecutionEngine writes it only to a file,
/// and stops the process where that write fails (a full disk under the
/// cache, found by a defect hunt; a file size limit): it is written into a
/// pipe instead, whose writes fail for neither, and read from it here; the
/// cache then writes it with its errors checked.
static std::optional<std::string> readObjectCode(ExecutionEngine &engine) {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC))
    return std::nullopt;
  // The dump opens the pipe by its name under /proc, which a process
  // without /proc does not have: nothing is kept then, without the dump's
  // message of a file it cannot open (found by the review).
  // Nor where it cannot open one more file (a descriptor limit).
  std::string path = "/proc/self/fd/" + std::to_string(ends[1]);
  int probe = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (probe < 0) {
    ::close(ends[0]);
    ::close(ends[1]);
    return std::nullopt;
  }
  ::close(probe);
  // Read as it is written, a pipe holding only so much, by a thread made
  // here with its failure checked (std::thread throws, and obs is built
  // without exceptions: a limit on threads aborted obs-run).
  struct Reader {
    int from;
    std::string object;
    static void *run(void *self) {
      auto *reader = static_cast<Reader *>(self);
      char chunk[1 << 16];
      while (true) {
        ssize_t read = ::read(reader->from, chunk, sizeof(chunk));
        if (read > 0)
          reader->object.append(chunk, read);
        else if (read == 0 || errno != EINTR)
          return nullptr;
      }
    }
  } reader{ends[0], {}};
  pthread_t thread;
  if (pthread_create(&thread, nullptr, &Reader::run, &reader)) {
    ::close(ends[0]);
    ::close(ends[1]);
    return std::nullopt;
  }
  engine.dumpToObjectFile(path);
  // The dump closed its own descriptor of the pipe; this is the last
  // writer's, after which the reader meets the end.
  ::close(ends[1]);
  pthread_join(thread, nullptr);
  ::close(ends[0]);
  if (reader.object.empty())
    return std::nullopt;
  return std::move(reader.object);
}

/// The names of the order tables the cpu target's `object` holds.
static SmallVector<std::string> getOrderTables(llvm::MemoryBufferRef object) {
  SmallVector<std::string> names;
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> file =
      llvm::object::ObjectFile::createObjectFile(object);
  if (!file) {
    llvm::consumeError(file.takeError());
    return names;
  }
  for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
    llvm::Expected<StringRef> name = symbol.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (parseExecutionOrderSymbol(*name))
      names.push_back(name->str());
  }
  return names;
}

/// Fills the order tables `names` of `jit` with the orders of `options`:
/// the code compiled for one order runs in any.
static llvm::Error fillOrderTables(llvm::orc::LLJIT &jit,
                                   ArrayRef<std::string> names,
                                   const CompileOptions &options) {
  for (const std::string &name : names) {
    auto [block, count] = *parseExecutionOrderSymbol(name);
    llvm::Expected<llvm::orc::ExecutorAddr> address = jit.lookup(name);
    if (!address)
      return address.takeError();
    ExecutionOrder kind = block ? options.blockOrder : options.threadOrder;
    uint64_t seed = block ? options.blockSeed : options.threadSeed;
    if (count) {
      fillExecutionOrder(
          kind, seed,
          llvm::MutableArrayRef(address->toPtr<int32_t *>(), *count));
    } else {
      std::array<int64_t, 2> affine = getAffineExecutionOrder(kind, seed);
      std::copy(affine.begin(), affine.end(), address->toPtr<int64_t *>());
    }
  }
  return llvm::Error::success();
}

/// The cache's code for `key`, ready to run, or null on a miss (an entry
/// that cannot be loaded is one).
static std::unique_ptr<Executable> loadCached(const CompileCache &cache,
                                              StringRef key,
                                              const CompileOptions &options,
                                              const RuntimeReports &reports) {
  std::unique_ptr<llvm::MemoryBuffer> object = cache.load(key);
  if (!object)
    return nullptr;
  SmallVector<std::string> orderTables =
      getOrderTables(object->getMemBufferRef());
  initializeNativeTarget();
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit = loadCompiledObject(
      std::move(object), [&](llvm::orc::MangleAndInterner mangle) {
        return runner::getRuntimeSymbols(reports, mangle);
      });
  if (!jit) {
    llvm::consumeError(jit.takeError());
    return nullptr;
  }
  if (llvm::Error error = fillOrderTables(**jit, orderTables, options)) {
    llvm::consumeError(std::move(error));
    return nullptr;
  }
  return std::make_unique<HostExecutable>(std::move(*jit));
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

Target::~Target() = default;

namespace {
/// Tells CompileOptions::reportStep each pass as it starts, with the
/// symbol of the op it runs on.
class StepReporter : public PassInstrumentation {
public:
  StepReporter(StringRef stage, std::function<void(const Twine &)> report)
      : stage(stage.str()), report(std::move(report)) {}

  void runBeforePass(Pass *pass, Operation *op) override {
    // A pass manager's adaptors, which run the passes nested in them, have
    // no argument: the passes they run are reported themselves.
    if (pass->getArgument().empty())
      return;
    StringAttr symbol =
        op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (symbol)
      report(stage + ": " + pass->getArgument() + " on @" + symbol.getValue());
    else
      report(stage + ": " + pass->getArgument());
  }

private:
  std::string stage;
  std::function<void(const Twine &)> report;
};
} // namespace

/// A pass manager on `context` with the step reports `options` ask for,
/// its steps named `stage`, and its passes timed in `timing` (the stage's
/// scope of the caller's report, which must outlive the pass manager's
/// run) where the caller times the compilation.
static std::unique_ptr<PassManager>
makePassManager(MLIRContext *context, const CompileOptions &options,
                StringRef stage, TimingScope &timing) {
  auto pm = std::make_unique<PassManager>(context);
  // Timing last: an instrumentation added after it would be timed as part
  // of each pass.
  if (options.reportStep)
    pm->addInstrumentation(
        std::make_unique<StepReporter>(stage, options.reportStep));
  if (options.timing)
    pm->enableTiming(timing);
  return pm;
}

/// The scope of `stage` in the compilation's timing report, or an inert one.
static TimingScope nestTiming(const CompileOptions &options, StringRef stage) {
  return options.timing ? options.timing->nest(stage) : TimingScope();
}

/// Adds obs-optimize as `options` ask for it: the refinement every target
/// but ref starts from.
static void buildRefinementPipeline(OpPassManager &pm,
                                    const CompileOptions &options) {
  OptimizePipelineOptions optimize;
  optimize.strategy = options.strategy;
  if (!options.optimize)
    optimize.passes = {RefinementPass::None};
  else if (!options.passes.empty())
    optimize.passes = options.passes;
  buildOptimizePipeline(pm, optimize);
}

/// Text naming every option that decides the program obs-optimize makes
/// (the compile cache's key of a refined program): not the target, whose
/// lowering comes after.
static std::string getRefinementKey(const CompileOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "obs-optimize strategy=" << static_cast<int>(options.strategy)
     << " no-optimize=" << !options.optimize << " passes=";
  for (RefinementPass pass : options.passes)
    os << static_cast<int>(pass) << ",";
  return text;
}

void Target::buildPipeline(OpPassManager &pm, const CompileOptions &options,
                           StringRef stage) const {
  if (refinesKernels())
    buildRefinementPipeline(pm, options);
  if (stage == "obs")
    return;
  buildAfterRefinement(pm, options, stage);
}

void Target::buildAfterRefinement(OpPassManager &pm,
                                  const CompileOptions &options,
                                  StringRef stage) const {
  if (stage == "gpu")
    return buildKernelsToGPUPipeline(pm);
  assert((stage.empty() || stage == "llvm") &&
         "a stage is obs, gpu, llvm or empty");
  buildLowering(pm, options, /*stopAtLLVM=*/stage == "llvm");
}

/// The refined program kept under `key`, parsed into `context`; null where
/// there is none or it cannot be read (then it is written again).
static OwningOpRef<ModuleOp> loadRefined(const CompileCache &cache,
                                         StringRef key, MLIRContext *context) {
  std::unique_ptr<llvm::MemoryBuffer> kept =
      cache.load(key, CompileCache::Entry::RefinedProgram);
  if (!kept)
    return nullptr;
  // An entry that does not parse is a miss, not the user's error.
  ScopedDiagnosticHandler quiet(context,
                                [](Diagnostic &) { return success(); });
  return parseSourceString<ModuleOp>(kept->getBuffer(), ParserConfig(context));
}

/// Where `options` keep compiled code: nowhere where the compilation is
/// asked for more than its code, pass statistics or the two proofs checked
/// against each other (--obs-cross-check-proofs), which a hit would skip
/// without a word.
static CompileCache getCache(const CompileOptions &options) {
  if (statisticsRequested() || isCrossCheckingProofs())
    return CompileCache("");
  return CompileCache(options.cacheDirectory);
}

FailureOr<OwningOpRef<ModuleOp>>
Target::refine(ModuleOp module, const CompileOptions &options) const {
  CompileCache cache = getCache(options);
  std::string key = cache.getKey(module, getRefinementKey(options));
  if (OwningOpRef<ModuleOp> kept =
          loadRefined(cache, key, module.getContext())) {
    if (options.reportCache)
      options.reportCache("hit on obs-optimize");
    return kept;
  }
  if (options.reportCache)
    options.reportCache("miss on obs-optimize");
  OwningOpRef<ModuleOp> copy(module.clone());
  TimingScope timing = nestTiming(options, "obs-optimize");
  std::unique_ptr<PassManager> pm =
      makePassManager(module.getContext(), options, "obs-optimize", timing);
  buildRefinementPipeline(*pm, options);
  if (failed(pm->run(*copy)))
    return failure();
  // Kept only when written whole.
  std::string bytecode;
  llvm::raw_string_ostream os(bytecode);
  if (cache.isEnabled() && succeeded(writeBytecodeToFile(*copy, os)))
    cache.store(key, bytecode, CompileCache::Entry::RefinedProgram);
  return copy;
}

FailureOr<OwningOpRef<ModuleOp>> Target::lower(ModuleOp module,
                                               const CompileOptions &options,
                                               StringRef stage) const {
  OwningOpRef<ModuleOp> copy;
  if (refinesKernels()) {
    FailureOr<OwningOpRef<ModuleOp>> refined = refine(module, options);
    if (failed(refined))
      return failure();
    copy = std::move(*refined);
  } else {
    copy = module.clone();
  }
  if (stage == "obs")
    return copy;
  TimingScope timing = nestTiming(options, "lowering");
  std::unique_ptr<PassManager> pm =
      makePassManager(module.getContext(), options, "lowering", timing);
  buildAfterRefinement(*pm, options, stage);
  if (failed(pm->run(*copy)))
    return failure();
  return copy;
}

std::string Target::getPipelineKey(const CompileOptions &options) const {
  std::string text = ("target=" + getName()).str();
  if (!refinesKernels())
    return text;
  // Not the thread and block orders: the code reads them as data
  // (Obs/Support/ExecutionOrder.h), filled before each run.
  return text + " " + getRefinementKey(options) +
         " record-launches=" + std::to_string(options.recordLaunches) +
         " opt-level=" + std::to_string(options.jitOptLevel);
}

/// Refuses, at the op, a symbol of `module` whose name begins as the cpu
/// target's order tables' do (Obs/Support/ExecutionOrder.h): the runner
/// fills every such symbol of a kept program's object before it runs. A
/// program's own `@obs_thread_order_1024` of one i32 was overwritten with
/// 1,024 of them on a cache hit, into the global after it, and a function
/// of that name had its code overwritten (found by a defect hunt). The
/// whole prefix is the runner's, since the lowering renames a symbol it
/// moves by a suffix: a kernel's `@obs_thread_order` became
/// `@obs_thread_order_2`, filled on a hit too (found by the review).
static LogicalResult refuseOrderTableNames(ModuleOp module) {
  bool refused = false;
  module.walk(
      [&](SymbolOpInterface symbol) {
        StringRef name = symbol.getName();
        if (symbol == module || !isExecutionOrderPrefixed(name))
          return;
        symbol->emitOpError()
            << "is named as the cpu target's order tables ('" << name
            << "'), which obs-run fills before a run: give it a name that does "
               "not begin with obs_thread_order or obs_block_order";
        refused = true;
      });
  return failure(refused);
}

llvm::Expected<std::unique_ptr<Executable>>
Target::compile(ModuleOp module, const CompileOptions &options,
                const RuntimeReports &reports) const {
  if (failed(refuseOrderTableNames(module)))
    return runner::makeLoweringError(*this);
  // The look-back's answers are drawn from the block seed, compiled or
  // kept: a kept program's run once drew from it and a compiled one's
  // from the seed the last run left (found by a defect hunt).
  runner::resetChainStates(options.blockSeed);
  CompileCache cache = getCache(options);
  std::string key = cache.getKey(module, getPipelineKey(options));
  if (std::unique_ptr<Executable> cached =
          loadCached(cache, key, options, reports)) {
    if (options.reportCache)
      options.reportCache("hit on " + getName());
    return std::move(cached);
  }
  if (options.reportCache)
    options.reportCache("miss on " + getName());
  FailureOr<OwningOpRef<ModuleOp>> lowered = lower(module, options);
  if (failed(lowered))
    return runner::makeLoweringError(*this);
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      runner::createEngine(**lowered, options, cache.isEnabled());
  if (!engine)
    return engine.takeError();
  (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner mangle) {
    return runner::getRuntimeSymbols(reports, mangle);
  });
  std::function<void(ExecutionEngine &)> keep;
  if (cache.isEnabled())
    keep = [cache, key](ExecutionEngine &engine) {
      if (std::optional<std::string> object = readObjectCode(engine))
        cache.store(key, *object);
    };
  return std::make_unique<HostExecutable>(std::move(*engine), std::move(keep));
}

llvm::Error mlir::obs::runner::makeLoweringError(const Target &target) {
  return llvm::createStringError("cannot lower the program for the " +
                                 target.getName() + " target");
}

namespace {

/// `ref`: kernels as sequential loops, as written.
class ReferenceTarget : public Target {
public:
  ReferenceTarget() : Target("ref") {}

protected:
  bool refinesKernels() const override { return false; }
  void buildLowering(OpPassManager &pm, const CompileOptions &,
                     bool) const override {
    buildReferencePipeline(pm);
  }
};

/// `cpu`: each kernel's gpu.func as loops over threads split at barriers.
class CPUTarget : public Target {
public:
  CPUTarget() : Target("cpu") {}

protected:
  void buildLowering(OpPassManager &pm, const CompileOptions &options,
                     bool) const override {
    CPUPipelineOptions cpu;
    cpu.order = options.threadOrder;
    cpu.seed = options.threadSeed;
    cpu.blockOrder = options.blockOrder;
    cpu.blockSeed = options.blockSeed;
    cpu.recordLaunches = options.recordLaunches;
    // One compiled program serves every order (the compile cache's key
    // leaves them out): they are filled before each run.
    cpu.runTimeOrders = true;
    buildCPUPipeline(pm, cpu);
  }
};

} // namespace

std::unique_ptr<Target> Target::get(StringRef name) {
  if (name == "ref")
    return std::make_unique<ReferenceTarget>();
  if (name == "cpu")
    return std::make_unique<CPUTarget>();
  if (name == "cuda")
    return runner::createCUDATarget();
  return nullptr;
}
