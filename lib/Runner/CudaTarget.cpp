//===- CudaTarget.cpp - the cuda target -----------------------------------===//
//
// The cuda target: PTX for the device's architecture, and host code JIT-run
// with its launches, streams and memory through obs's CUDA runtime, as a
// compiler that embeds obs would run it. A job's arrays are copied to the
// device before each run and its results back after it.
//
//===----------------------------------------------------------------------===//

#include "Obs/Conversion/Passes.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Runner/Target.h"
#include "Obs/Runtime/CudaRuntime.h"
#include "TargetImpl.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "llvm/ADT/StringMap.h"
#include <cstdlib>

using namespace mlir;
using namespace mlir::obs;

/// What the JIT gives the host code for its runtime calls: obs's CUDA
/// runtime, linked into the runner.
static llvm::orc::SymbolMap
getCudaRuntimeSymbols(llvm::orc::MangleAndInterner mangle) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](StringRef name, auto *function) {
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

/// The runtime's failure since it was opened, or success.
static llvm::Error getRuntimeError() {
  if (const char *message = obsCudaError())
    return llvm::createStringError(message);
  return llvm::Error::success();
}

/// A tool that exits on an error once the runtime is open releases what it
/// made on the way out.
static void releaseCudaAtExit() { obsCudaRelease(); }

namespace {

/// A job's arrays on the device, for as long as it lives.
class DeviceArrays {
public:
  DeviceArrays(Job &job, bool hostShared) : job(job) {
    host = job.getBuffers();
    bytes = job.getBufferBytes();
    for (auto [pointer, size] : llvm::zip_equal(host, bytes)) {
      device.push_back(mgpuMemAlloc(size, nullptr, hostShared));
      mgpuMemcpy(device.back(), pointer, size, nullptr);
    }
    obsCudaSynchronize();
    arguments.add(job.arrays, device);
  }
  /// After a failure the arrays are left to the runtime's release, which
  /// frees everything it made.
  ~DeviceArrays() {
    if (!obsCudaError())
      llvm::consumeError(free());
  }

  /// Frees the arrays on the device.
  llvm::Error free() {
    for (void *pointer : device)
      mgpuMemFree(pointer, nullptr);
    device.clear();
    return getRuntimeError();
  }

  SmallVector<void *> &getPacked() { return arguments.get(); }

  /// Copies the results back; the inputs are the host's already.
  void copyResultsBack() {
    unsigned firstResult = 0;
    for (unsigned a = 0; a < job.numInputs; ++a)
      firstResult += job.arrays[a].getWidth();
    for (unsigned i = firstResult; i < host.size(); ++i)
      mgpuMemcpy(host[i], device[i], bytes[i], nullptr);
    obsCudaSynchronize();
  }

private:
  Job &job;
  SmallVector<void *> host, device;
  SmallVector<size_t> bytes;
  obs_run::PackedMemRefs arguments;
};

class CudaExecutable : public Executable {
public:
  CudaExecutable(std::unique_ptr<ExecutionEngine> engine, bool hostShared)
      : engine(std::move(engine)), hostShared(hostShared) {}
  ~CudaExecutable() override { llvm::consumeError(release()); }

  llvm::Error release() override {
    if (!engine)
      return llvm::Error::success();
    // The JIT's destructors unload the kernels' module; the release then
    // frees whatever is left, and says what failed on the way.
    engine.reset();
    llvm::Error unloaded = getRuntimeError();
    if (obsCudaRelease() != 0 && !unloaded)
      return getRuntimeError();
    return unloaded;
  }

  llvm::Error prepare(const Job &job) override {
    return engine->lookupPacked(getHostSymbolName(job.symbol)).takeError();
  }

  llvm::Error run(Job &job) override {
    DeviceArrays arrays(job, hostShared);
    if (llvm::Error error = getRuntimeError())
      return error;
    if (llvm::Error error = invoke(job, arrays))
      return error;
    arrays.copyResultsBack();
    if (llvm::Error error = getRuntimeError())
      return error;
    return arrays.free();
  }

  llvm::Expected<BenchResult> bench(Job &job, unsigned runs) override {
    DeviceArrays arrays(job, hostShared);
    // The warm-up, whose results are the job's.
    if (llvm::Error error = invoke(job, arrays))
      return std::move(error);
    arrays.copyResultsBack();
    if (llvm::Error error = getRuntimeError())
      return std::move(error);
    BenchResult result;
    // The whole entry is timed by events around it, then each launch, in
    // as many more runs.
    void *start = obsCudaTimerCreate(), *stop = obsCudaTimerCreate();
    if (llvm::Error error = getRuntimeError())
      return std::move(error);
    for (unsigned run = 0; run < runs; ++run) {
      mgpuEventRecord(start, nullptr);
      if (llvm::Error error = invoke(job, arrays))
        return std::move(error);
      mgpuEventRecord(stop, nullptr);
      float milliseconds = 0;
      if (obsCudaTimerElapsed(start, stop, &milliseconds) != 0)
        return getRuntimeError();
      result.milliseconds.push_back(milliseconds);
    }
    mgpuEventDestroy(start);
    mgpuEventDestroy(stop);
    if (llvm::Error error = profileLaunches(job, arrays, runs, result))
      return std::move(error);
    if (llvm::Error error = arrays.free())
      return std::move(error);
    return result;
  }

private:
  /// Runs the job's symbol on the device arrays, to its end.
  llvm::Error invoke(Job &job, DeviceArrays &arrays) {
    if (llvm::Error error = engine->invokePacked(getHostSymbolName(job.symbol),
                                                 arrays.getPacked()))
      return obsCudaError()
                 ? (llvm::consumeError(std::move(error)), getRuntimeError())
                 : std::move(error);
    obsCudaSynchronize();
    return getRuntimeError();
  }

  /// Runs the job `runs` times with every launch timed, and adds each
  /// kernel's launches per run, milliseconds and bytes to `result`: the
  /// bytes the host code reported for each launch (each memref a launch is
  /// given, once), or, for a kernel run on its own, its arrays'.
  llvm::Error profileLaunches(Job &job, DeviceArrays &arrays, unsigned runs,
                              BenchResult &result) {
    uint64_t aloneBytes = job.getArrayBytes();
    clearRecordedLaunches();
    obsCudaProfileLaunches(1);
    for (unsigned run = 0; run < runs; ++run)
      if (llvm::Error error = invoke(job, arrays))
        return error;
    ArrayRef<RecordedLaunch> made = getRecordedLaunches();
    size_t count = obsCudaProfiledLaunchCount();
    // Host code reports each launch it makes (a kernel run on its own
    // reports none); the driver must have profiled the same ones.
    if (!made.empty() && made.size() != count)
      return llvm::createStringError(
          "the host code reported " + std::to_string(made.size()) +
          " launches, but " + std::to_string(count) +
          " were profiled: cannot tell what each moved");
    llvm::StringMap<BenchResult::Kernel> byName;
    SmallVector<std::string> order;
    for (size_t i = 0; i < count; ++i) {
      float milliseconds = 0;
      const char *name = obsCudaProfiledLaunch(i, &milliseconds);
      if (!name)
        return getRuntimeError();
      auto [entry, added] = byName.try_emplace(name);
      if (added)
        order.push_back(name);
      BenchResult::Kernel &kernel = entry->second;
      ++kernel.launchesPerRun;
      kernel.millisecondsPerRun += milliseconds;
      kernel.bytesPerRun +=
          made.empty() ? aloneBytes : made[i].read + made[i].written;
    }
    obsCudaProfileLaunches(0);
    for (const std::string &name : order) {
      BenchResult::Kernel kernel = byName[name];
      kernel.name = name;
      kernel.launchesPerRun /= runs;
      kernel.millisecondsPerRun /= runs;
      kernel.bytesPerRun /= runs;
      result.bytes += kernel.bytesPerRun;
      result.kernels.push_back(kernel);
    }
    return llvm::Error::success();
  }

  std::unique_ptr<ExecutionEngine> engine;
  bool hostShared;
};

/// `cuda`: PTX on an NVIDIA GPU through obs's CUDA runtime.
class CUDATarget : public Target {
public:
  CUDATarget() : Target("cuda") {}

  llvm::Expected<std::unique_ptr<Executable>>
  compile(ModuleOp module, const CompileOptions &options,
          const RuntimeReports &reports) const override {
    if (obsCudaInit() != 0) {
      llvm::Error error = getRuntimeError();
      obsCudaRelease();
      return std::move(error);
    }
    static bool releasesAtExit = (std::atexit(releaseCudaAtExit), true);
    (void)releasesAtExit;
    obsCudaSetFailureHandler(reports.deviceFailure);
    // Whatever fails from here on releases the runtime with the engine.
    auto fail = [](llvm::Error error) {
      obsCudaRelease();
      return error;
    };
    CompileOptions forDevice = options;
    if (forDevice.chip.empty()) {
      int major = 0, minor = 0;
      if (obsCudaComputeCapability(&major, &minor) != 0)
        return fail(getRuntimeError());
      forDevice.chip = "sm_" + std::to_string(major) + std::to_string(minor);
      // The chip is the device's, not one the user gave: said as such.
      if (llvm::Error error = checkChip(forDevice.chip))
        return fail(llvm::createStringError(
            "device 0 has compute capability " + std::to_string(major) + "." +
            std::to_string(minor) + ", for which obs cannot compile (" +
            llvm::toString(std::move(error)) + "); give --chip=sm_XX"));
    } else if (llvm::Error error = checkChip(forDevice.chip)) {
      return fail(std::move(error));
    }
    FailureOr<OwningOpRef<ModuleOp>> lowered = lower(module, forDevice);
    if (failed(lowered))
      return fail(runner::makeLoweringError(*this));
    // Host code that reads or writes memory itself runs on memory the host
    // and the device share, the entry's arguments' included.
    bool hostShared =
        ObsDialect::HostMemorySharedAttrHelper(module.getContext())
            .isAttrPresent(**lowered);
    llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
        runner::createEngine(**lowered, options,
                             /*keepObject=*/false);
    if (!engine)
      return fail(engine.takeError());
    (*engine)->registerSymbols(getCudaRuntimeSymbols);
    (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner mangle) {
      return runner::getRuntimeSymbols(reports, mangle);
    });
    return std::make_unique<CudaExecutable>(std::move(*engine), hostShared);
  }

protected:
  void buildLowering(OpPassManager &pm, const CompileOptions &options,
                     bool stopAtLLVM) const override {
    PTXPipelineOptions ptx;
    if (!options.chip.empty())
      ptx.chip = options.chip;
    ptx.recordLaunches = options.recordLaunches;
    ptx.serialize = !stopAtLLVM;
    buildPTXPipeline(pm, ptx);
  }
};

} // namespace

std::unique_ptr<Target> mlir::obs::runner::createCUDATarget() {
  return std::make_unique<CUDATarget>();
}
