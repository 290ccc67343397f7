//===- Target.h - where obs programs run ------------------------*- C++ -*-===//
//
// A target is where an obs program runs, as an object: the pipeline that
// lowers a program for it (Obs/Pipelines/Pipelines.h) and the executable
// that runs the lowered program on a job's arrays.
//  - `ref`: kernels as sequential loops, one buffer per array, the oracle;
//  - `cpu`: each kernel's gpu.func as loops over threads split at barriers,
//    in orders chosen at run time;
//  - `cuda`: PTX on an NVIDIA GPU, the host code through obs's CUDA runtime
//    (Obs/Runtime/CudaRuntime.h), the arrays copied to the device and back.
// The ref and cpu targets keep the code they compile in the compile cache
// (Obs/Runner/CompileCache.h). obs-run and obs-fuzz run programs through
// these objects; a tool that embeds obs does the same.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_RUNNER_TARGET_H
#define OBS_RUNNER_TARGET_H

#include "Obs/Pipelines/Pipelines.h"
#include "Obs/Runner/HostData.h"
#include "Obs/Support/ExecutionOrder.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/Timing.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir::obs {

/// Testing obs: a caller that breaks the contract of a public host function
/// that launches kernels (Obs/Support/RuntimeFunctions.h).
enum class BrokenContract { None, Overlap, Misalign };

/// What runs: the symbol of a kernel or a host function, its arrays in
/// order (the arguments, then a kernel's results), and how many of them are
/// inputs; the rest are written by the run.
struct Job {
  std::string symbol;
  std::vector<obs_run::HostArray> arrays;
  unsigned numInputs = 0;
  BrokenContract brokenContract = BrokenContract::None;

  /// Every array's buffers, a pointer per component, in order.
  SmallVector<void *> getBuffers();
  /// The bytes of each of those buffers, in the same order.
  SmallVector<size_t> getBufferBytes() const;
  /// The bytes of all the arrays: what a run moves when it reads or writes
  /// each once.
  uint64_t getArrayBytes() const;
};

/// What lowered code calls in its runner when it finds, as it runs, what
/// could not be proved before (Obs/Support/RuntimeFunctions.h): each tool
/// decides what a report means (obs-run stops, obs-fuzz records it). A
/// report left null is not linked, and code that calls it fails to load.
struct RuntimeReports {
  void (*scatterCollision)(int64_t block, int64_t place, int64_t line,
                           int64_t column) = nullptr;
  void (*indexOutside)(int64_t block, int64_t index, int64_t length,
                       int64_t line, int64_t column) = nullptr;
  void (*argumentContract)(int64_t first, int64_t second) = nullptr;
  /// The cuda target's first failed driver call, as one line, where host
  /// code next waits for the device (obsCudaSetFailureHandler): host code
  /// that goes on after a failure may wait forever on data that no longer
  /// changes. Null: host code runs to its end, and the run's error says.
  void (*deviceFailure)(const char *message) = nullptr;
  /// A memref.dealloc in code run on the host of memory that code did not
  /// allocate, or has freed already (a function's argument, a second
  /// dealloc): the host allocation functions track what they made. Null:
  /// such a dealloc frees nothing.
  void (*unknownFree)() = nullptr;
  /// A launch's or a launching call's memrefs or grid that break what the
  /// launch proof takes as given (obs-check-launches; `breach` a
  /// LaunchContractBreach, not None). Null: the runner's own report, one
  /// line on stderr, then abort.
  void (*launchContract)(int64_t breach, int64_t first,
                         int64_t second) = nullptr;
  /// A host function's check that failed (obs-check-host-code): a memref
  /// access or view outside its memory, or a cf.assert of its own, with
  /// its message (the op's location, name and what failed). Null: the
  /// runner's own report, the message on stderr, then abort.
  void (*hostCheck)(const char *message) = nullptr;
};

/// What obs_launch_contract's report of `breach` (not None) with `first`
/// and `second` means, as one sentence.
std::string describeLaunchContractBreach(int64_t breach, int64_t first,
                                         int64_t second);

/// One launch as obs-record-launches reports it.
struct RecordedLaunch {
  int64_t kernel, grid, threads, read, written;
};

/// The launches reported by code compiled with `recordLaunches` since the
/// last clearRecordedLaunches(): launches of no blocks are left out.
ArrayRef<RecordedLaunch> getRecordedLaunches();
void clearRecordedLaunches();

/// How a program is compiled for a target.
struct CompileOptions {
  /// Whether obs-optimize refines and proves kernels before the cpu and
  /// cuda targets (off: kernels as written, their syncs still verified).
  bool optimize = true;
  WorkStrategy strategy = WorkStrategy::Cost;
  /// The refinements obs-optimize runs; all when empty.
  SmallVector<RefinementPass> passes;
  /// The cpu target's orders of threads and of blocks, filled into the code
  /// before each run: one compilation serves every order.
  ExecutionOrder threadOrder = ExecutionOrder::Forward;
  uint64_t threadSeed = 1;
  ExecutionOrder blockOrder = ExecutionOrder::Forward;
  uint64_t blockSeed = 1;
  /// The GPU architecture of the cuda target's PTX; empty: the device's.
  std::string chip;
  /// Whether host code reports each launch (getRecordedLaunches).
  bool recordLaunches = false;
  /// LLVM's optimisation level for the host's JIT.
  unsigned jitOptLevel = 2;
  /// Where the ref and cpu targets keep compiled code (CompileCache);
  /// empty: nowhere.
  std::string cacheDirectory;
  /// Where the compilation's time goes, in the caller's timing report
  /// (MLIR's TimingManager): obs-optimize's and the lowering's passes
  /// nested under a scope each. None: untimed.
  TimingScope *timing = nullptr;
  /// Told each step of a compilation as it starts: "obs-optimize:
  /// obs-assign-work on @k" (a pass of the refinement, and the kernel or
  /// function it runs on), "lowering: convert-obs-to-gpu", "LLVM: the host
  /// code". Called on the pass manager's threads too, at once.
  std::function<void(const Twine &)> reportStep;
  /// Testing obs: told "hit on TARGET" or "miss on TARGET" as the cache
  /// is asked for a program's code, and "hit on obs-optimize" or "miss on
  /// obs-optimize" as it is asked for the program refined.
  std::function<void(const Twine &)> reportCache;
};

/// The times of a job's runs, after one warm-up.
struct BenchResult {
  /// Milliseconds of each run.
  std::vector<float> milliseconds;
  /// The bytes of global memory a run moves.
  uint64_t bytes = 0;
  /// Each kernel's share, in the order first launched (cuda only).
  struct Kernel {
    std::string name;
    unsigned launchesPerRun = 0;
    float millisecondsPerRun = 0;
    uint64_t bytesPerRun = 0;
  };
  std::vector<Kernel> kernels;
};

/// A program compiled for a target, ready to run jobs on its symbols.
class Executable {
public:
  virtual ~Executable();
  /// Compiles what running `job.symbol` calls (the JIT compiles the host
  /// code as it is first looked up), so that run() then only runs; run()
  /// compiles it too where this was not called.
  virtual llvm::Error prepare(const Job &job) = 0;
  /// Runs `job.symbol` on `job.arrays`, writing the arrays after the
  /// inputs.
  virtual llvm::Error run(Job &job) = 0;
  /// Runs `job` once, then `runs` times more, timed.
  virtual llvm::Expected<BenchResult> bench(Job &job, unsigned runs) = 0;
  /// Releases what the executable holds on its device, saying what failed;
  /// the destructor releases it too, quietly.
  virtual llvm::Error release() { return llvm::Error::success(); }
};

class Target {
public:
  virtual ~Target();

  /// The target named `name` (ref, cpu or cuda), or null.
  static std::unique_ptr<Target> get(StringRef name);
  /// The targets' names, for messages: "ref, cpu or cuda".
  static constexpr StringLiteral kNames = "ref, cpu or cuda";

  StringRef getName() const { return name; }

  /// Adds to `pm` the passes that lower an obs program for this target,
  /// up to `stage`: "obs" (the refined program), "gpu" (gpu.module and
  /// host code), "llvm" (the LLVM dialect, before a gpu.module becomes
  /// PTX); empty, all the way.
  void buildPipeline(OpPassManager &pm, const CompileOptions &options,
                     StringRef stage = {}) const;

  /// A copy of `module` lowered by buildPipeline; failure after the
  /// pipeline's diagnostics. Where `options` name a compile cache, the
  /// refined program is taken from it when kept there, and kept there when
  /// made (CompileCache::Entry::RefinedProgram).
  FailureOr<OwningOpRef<ModuleOp>> lower(ModuleOp module,
                                         const CompileOptions &options,
                                         StringRef stage = {}) const;

  /// `module` compiled for this target.
  virtual llvm::Expected<std::unique_ptr<Executable>>
  compile(ModuleOp module, const CompileOptions &options,
          const RuntimeReports &reports) const;

protected:
  explicit Target(StringRef name) : name(name) {}

  /// Whether kernels are refined by obs-optimize before the lowering (the
  /// ref target runs them as written).
  virtual bool refinesKernels() const { return true; }
  /// Adds the passes that lower a refined program all the way, or, with
  /// `stopAtLLVM`, up to the LLVM dialect (the cuda target's gpu.module in
  /// NVVM, before it becomes PTX; the others end there anyway).
  virtual void buildLowering(OpPassManager &pm, const CompileOptions &options,
                             bool stopAtLLVM) const = 0;
  /// Text naming everything but the program that decides the code compiled
  /// (the compile cache's key).
  virtual std::string getPipelineKey(const CompileOptions &options) const;

private:
  /// The passes of buildPipeline after obs-optimize, up to `stage`.
  void buildAfterRefinement(OpPassManager &pm, const CompileOptions &options,
                            StringRef stage) const;
  /// A copy of `module` refined by obs-optimize, or the compile cache's.
  FailureOr<OwningOpRef<ModuleOp>> refine(ModuleOp module,
                                          const CompileOptions &options) const;

  std::string name;
};

/// JIT-compiles `lowered`, a module in the LLVM dialect whose arrays are in
/// host memory (the ref and cpu targets' code, or any pipeline's that ends
/// there), its runtime calls linked to `reports`, optimised at `options`'
/// jitOptLevel. The code runs in the orders its pipeline compiled in: the
/// order tables are filled only for code loaded from the compile cache.
llvm::Expected<std::unique_ptr<Executable>>
compileForHost(ModuleOp lowered, const CompileOptions &options,
               const RuntimeReports &reports);

} // namespace mlir::obs

#endif // OBS_RUNNER_TARGET_H
