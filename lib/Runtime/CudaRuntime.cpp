//===- CudaRuntime.cpp - obs's CUDA runtime, over the dlopened driver -----===//
//
// The functions of Obs/Runtime/CudaRuntime.h. The state is one process-wide
// runtime: the driver's entry points, the device, its primary context, and
// everything made through it that is still live, so that a failure at any
// point can be followed by releasing all of it. It depends on nothing but
// the C++ library and dlopen, so that a program that embeds obs can link it
// alone.
//
//===----------------------------------------------------------------------===//

#include "Obs/Runtime/CudaRuntime.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

// The driver's types and constants that the runtime uses, as cuda.h
// defines them (the toolkit is optional: its headers are not needed).
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
using CUdeviceptr = unsigned long long;
constexpr int kAttributeComputeCapabilityMajor = 75;
constexpr int kAttributeComputeCapabilityMinor = 76;
constexpr int kAttributeMaxSharedPerBlockOptin = 97;
constexpr int kFuncAttributeMaxDynamicShared = 8; // CU_FUNC_ATTRIBUTE_...
constexpr int kJitErrorLogBuffer = 5;             // CU_JIT_ERROR_LOG_BUFFER
constexpr int kJitErrorLogBufferBytes = 6;
constexpr int kJitOptimizationLevel = 7;    // CU_JIT_OPTIMIZATION_LEVEL
constexpr unsigned kMemAttachGlobal = 1;    // CU_MEM_ATTACH_GLOBAL
constexpr unsigned kEventDisableTiming = 2; // CU_EVENT_DISABLE_TIMING
/// Shared memory a kernel may use without opting in.
constexpr int32_t kSharedBytesWithoutOptIn = 48 * 1024;
/// The largest grid a GPU runs (CUDA's gridDim limits).
constexpr intptr_t kMostGridX = 2147483647, kMostGridYZ = 65535;

/// The driver's entry points, looked up by their versioned names.
struct Api {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
};

/// The context current in this thread, as far as the runtime made it so.
thread_local CUcontext currentContext = nullptr;

/// A launch timed while profiling.
struct TimedLaunch {
  std::string kernel;
  CUevent start, stop;
};

class Runtime {
public:
  static Runtime &get() {
    static Runtime runtime;
    return runtime;
  }

  std::mutex mutex;
  Api api = {};
  int deviceOrdinal = 0;

  /// Whether the runtime can make calls: the driver, device and context are
  /// there and nothing has failed. Opens them on first use.
  bool ready();
  /// Whether `result` is success; otherwise keeps "CUDA `what` failed: NAME
  /// (description)" as the failure, unless one is kept already.
  bool check(CUresult result, const char *what);
  /// Keeps `message` as the failure, unless one is kept already.
  void fail(std::string message) {
    if (error.empty())
      error = std::move(message);
  }
  const char *getError() const {
    return error.empty() ? nullptr : error.c_str();
  }
  int release();

  CUdevice device = 0;
  /// Everything made and not yet released, by kind.
  std::set<CUmodule> modules;
  std::set<CUstream> streams;
  std::set<CUevent> events;
  std::set<CUdeviceptr> allocations;
  /// Functions by module and name, and their names, for the profile.
  std::map<std::pair<CUmodule, std::string>, CUfunction> functions;
  std::map<CUfunction, std::string> functionNames;
  bool profiling = false;
  std::vector<TimedLaunch> timed;

  /// "NAME (description)" of a driver result, or "error N".
  std::string describe(CUresult result);

private:
  bool open();

  void *library = nullptr;
  bool opened = false;
  CUcontext context = nullptr;
  std::string error;
};

std::string Runtime::describe(CUresult result) {
  // The driver describes only the codes it knows; either lookup may fail,
  // or succeed and leave its string null.
  const char *name = nullptr, *description = nullptr;
  if (api.cuGetErrorName && api.cuGetErrorName(result, &name) != 0)
    name = nullptr;
  if (api.cuGetErrorString && api.cuGetErrorString(result, &description) != 0)
    description = nullptr;
  std::string text = name ? name : "error " + std::to_string(result);
  if (description)
    text += std::string(" (") + description + ")";
  return text;
}

bool Runtime::check(CUresult result, const char *what) {
  if (result == 0)
    return true;
  fail(std::string("CUDA ") + what + " failed: " + describe(result));
  return false;
}

bool Runtime::open() {
  opened = true;
  library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    fail("no CUDA driver: libcuda.so.1 not found");
    return false;
  }
  bool found = true;
  auto resolve = [&](auto &entry, const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol && found) {
      fail(std::string("the CUDA driver has no ") + name);
      found = false;
    }
    entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(symbol);
  };
  resolve(api.cuGetErrorName, "cuGetErrorName");
  resolve(api.cuGetErrorString, "cuGetErrorString");
  resolve(api.cuInit, "cuInit");
  resolve(api.cuDeviceGetCount, "cuDeviceGetCount");
  resolve(api.cuDeviceGet, "cuDeviceGet");
  resolve(api.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  resolve(api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  resolve(api.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  resolve(api.cuCtxSetCurrent, "cuCtxSetCurrent");
  resolve(api.cuCtxSynchronize, "cuCtxSynchronize");
  resolve(api.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  resolve(api.cuModuleUnload, "cuModuleUnload");
  resolve(api.cuModuleGetFunction, "cuModuleGetFunction");
  resolve(api.cuFuncSetAttribute, "cuFuncSetAttribute");
  resolve(api.cuLaunchKernel, "cuLaunchKernel");
  resolve(api.cuStreamCreate, "cuStreamCreate");
  resolve(api.cuStreamDestroy, "cuStreamDestroy_v2");
  resolve(api.cuStreamSynchronize, "cuStreamSynchronize");
  resolve(api.cuStreamWaitEvent, "cuStreamWaitEvent");
  resolve(api.cuEventCreate, "cuEventCreate");
  resolve(api.cuEventDestroy, "cuEventDestroy_v2");
  resolve(api.cuEventRecord, "cuEventRecord");
  resolve(api.cuEventSynchronize, "cuEventSynchronize");
  resolve(api.cuEventElapsedTime, "cuEventElapsedTime");
  resolve(api.cuMemAlloc, "cuMemAlloc_v2");
  resolve(api.cuMemAllocManaged, "cuMemAllocManaged");
  resolve(api.cuMemFree, "cuMemFree_v2");
  resolve(api.cuMemcpyAsync, "cuMemcpyAsync");
  resolve(api.cuMemsetD32Async, "cuMemsetD32Async");
  resolve(api.cuMemsetD16Async, "cuMemsetD16Async");
  if (!found)
    return false;
  if (!check(api.cuInit(0), "cuInit")) {
    error = "no CUDA device: " + error;
    return false;
  }
  int count = 0;
  if (!check(api.cuDeviceGetCount(&count), "cuDeviceGetCount")) {
    error = "no CUDA device: " + error;
    return false;
  }
  if (count <= deviceOrdinal) {
    fail(count == 0 ? std::string("no CUDA device: the driver sees none")
                    : "no CUDA device " + std::to_string(deviceOrdinal) +
                          ": the driver sees " + std::to_string(count));
    return false;
  }
  if (!check(api.cuDeviceGet(&device, deviceOrdinal), "cuDeviceGet") ||
      !check(api.cuDevicePrimaryCtxRetain(&context, device),
             "cuDevicePrimaryCtxRetain"))
    return false;
  if (!check(api.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return false;
  currentContext = context;
  return true;
}

bool Runtime::ready() {
  if (!error.empty())
    return false;
  if (!opened)
    return open();
  // Calls come from the thread that opened the runtime, or from others,
  // whose current context is their own business: make it the primary one.
  if (context && currentContext != context) {
    if (!check(api.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
      return false;
    currentContext = context;
  }
  return context != nullptr;
}

int Runtime::release() {
  // Every release is tried, even after a failure: the first failure to
  // release becomes the error, which the caller reports before forgetting.
  std::string first;
  auto note = [&](CUresult result, const char *what) {
    if (result != 0 && first.empty())
      first = std::string("CUDA ") + what + " failed: " + describe(result);
  };
  if (context) {
    note(api.cuCtxSetCurrent(context), "cuCtxSetCurrent");
    for (const TimedLaunch &launch : timed) {
      note(api.cuEventDestroy(launch.start), "cuEventDestroy");
      note(api.cuEventDestroy(launch.stop), "cuEventDestroy");
    }
    for (CUdeviceptr allocation : allocations)
      note(api.cuMemFree(allocation), "cuMemFree");
    for (CUevent event : events)
      note(api.cuEventDestroy(event), "cuEventDestroy");
    for (CUstream stream : streams)
      note(api.cuStreamDestroy(stream), "cuStreamDestroy");
    for (CUmodule module : modules)
      note(api.cuModuleUnload(module), "cuModuleUnload");
    note(api.cuDevicePrimaryCtxRelease(device), "cuDevicePrimaryCtxRelease");
  }
  timed.clear();
  allocations.clear();
  events.clear();
  streams.clear();
  modules.clear();
  functions.clear();
  functionNames.clear();
  profiling = false;
  context = nullptr;
  currentContext = nullptr;
  opened = false;
  if (library)
    dlclose(library);
  library = nullptr;
  api = {};
  error = first;
  return first.empty() ? 0 : 1;
}

/// `pointer` as the driver's device pointer.
CUdeviceptr devicePointer(void *pointer) {
  return reinterpret_cast<CUdeviceptr>(pointer);
}

} // namespace

/// Loads `image` (a cubin, or NUL-terminated PTX that the driver compiles,
/// at `optLevel` unless negative), reporting the JIT's error log in the
/// failure.
static void *loadModule(Runtime &runtime, const char *image, int optLevel) {
  if (!runtime.ready())
    return nullptr;
  char log[8192] = {};
  int options[3] = {kJitErrorLogBuffer, kJitErrorLogBufferBytes,
                    kJitOptimizationLevel};
  void *values[3] = {log, reinterpret_cast<void *>(sizeof(log) - 1),
                     reinterpret_cast<void *>(intptr_t(optLevel))};
  unsigned count = optLevel < 0 ? 2 : 3;
  CUmodule module = nullptr;
  CUresult result =
      runtime.api.cuModuleLoadDataEx(&module, image, count, options, values);
  if (result != 0) {
    // The JIT's log, which says what in the PTX it refused, on the same
    // line.
    std::string message =
        "CUDA cuModuleLoadDataEx failed: " + runtime.describe(result);
    std::string text(log);
    std::replace(text.begin(), text.end(), '\n', ' ');
    while (!text.empty() && text.back() == ' ')
      text.pop_back();
    if (!text.empty())
      message += ": " + text;
    runtime.fail(message);
    return nullptr;
  }
  runtime.modules.insert(module);
  return module;
}

#define OBS_RUNTIME_LOCKED(runtime)                                            \
  Runtime &runtime = Runtime::get();                                           \
  std::lock_guard<std::mutex> lock(runtime.mutex)

extern "C" {

void *mgpuModuleLoad(void *data, uint64_t bytes) {
  OBS_RUNTIME_LOCKED(runtime);
  // PTX must end in a NUL; a cubin does not mind one more byte.
  std::string image(static_cast<const char *>(data), bytes);
  return loadModule(runtime, image.c_str(), /*optLevel=*/-1);
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  OBS_RUNTIME_LOCKED(runtime);
  return loadModule(runtime, static_cast<const char *>(data), optLevel);
}

void mgpuModuleUnload(void *module) {
  OBS_RUNTIME_LOCKED(runtime);
  if (!runtime.ready() || !runtime.modules.count(module))
    return;
  runtime.modules.erase(module);
  for (auto it = runtime.functions.begin(); it != runtime.functions.end();)
    it =
        it->first.first == module ? runtime.functions.erase(it) : std::next(it);
  runtime.check(runtime.api.cuModuleUnload(module), "cuModuleUnload");
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  OBS_RUNTIME_LOCKED(runtime);
  if (!runtime.ready())
    return nullptr;
  // Looked up once per module: the lowering asks at every launch.
  auto key = std::make_pair(module, std::string(name));
  auto it = runtime.functions.find(key);
  if (it != runtime.functions.end())
    return it->second;
  CUfunction function = nullptr;
  if (!runtime.check(runtime.api.cuModuleGetFunction(&function, module, name),
                     "cuModuleGetFunction"))
    return nullptr;
  runtime.functions[key] = function;
  runtime.functionNames[function] = name;
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedBytes, void *stream,
                      void **params, void **extra, size_t paramCount) {
  // A grid of no blocks runs nothing, as obs.launch says (CUDA would refuse
  // it): host code launches a plan's untaken branches so.
  if (gridX <= 0 || gridY <= 0 || gridZ <= 0)
    return;
  OBS_RUNTIME_LOCKED(runtime);
  if (!runtime.ready() || !function)
    return;
  const std::string &name = runtime.functionNames[function];
  // The driver takes unsigned sizes: a grid of 2^32 + 1 blocks passed as
  // is ran one. A GPU's grid is at most 2^31 - 1 blocks across and 65,535
  // down and deep.
  if (gridX > kMostGridX || gridY > kMostGridYZ || gridZ > kMostGridYZ) {
    runtime.fail("kernel " + name + " is launched on a grid of " +
                 std::to_string(gridX) + " x " + std::to_string(gridY) + " x " +
                 std::to_string(gridZ) +
                 " blocks, more than a GPU's 2147483647 x 65535 x 65535");
    return;
  }
  // More than 48 KiB of dynamic shared memory needs the kernel to opt in,
  // up to what the device allows.
  if (sharedBytes > kSharedBytesWithoutOptIn) {
    int most = 0;
    if (!runtime.check(
            runtime.api.cuDeviceGetAttribute(
                &most, kAttributeMaxSharedPerBlockOptin, runtime.device),
            "cuDeviceGetAttribute"))
      return;
    if (sharedBytes > most) {
      runtime.fail("kernel " + name + " needs " + std::to_string(sharedBytes) +
                   " bytes of dynamic shared memory, more than the " +
                   std::to_string(most) + " the device allows a block");
      return;
    }
    if (!runtime.check(
            runtime.api.cuFuncSetAttribute(
                function, kFuncAttributeMaxDynamicShared, sharedBytes),
            "cuFuncSetAttribute"))
      return;
  }
  TimedLaunch timed{name, nullptr, nullptr};
  if (runtime.profiling) {
    if (!runtime.check(runtime.api.cuEventCreate(&timed.start, 0),
                       "cuEventCreate"))
      return;
    if (!runtime.check(runtime.api.cuEventCreate(&timed.stop, 0),
                       "cuEventCreate")) {
      runtime.api.cuEventDestroy(timed.start);
      return;
    }
    runtime.timed.push_back(timed);
    if (!runtime.check(runtime.api.cuEventRecord(timed.start, stream),
                       "cuEventRecord"))
      return;
  }
  (void)paramCount; // The driver reads what the kernel's .entry declares.
  if (!runtime.check(runtime.api.cuLaunchKernel(
                         function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                         sharedBytes, stream, params, extra),
                     "cuLaunchKernel"))
    return;
  if (runtime.profiling)
    runtime.check(runtime.api.cuEventRecord(timed.stop, stream),
                  "cuEventRecord");
}

void *mgpuStreamCreate(void) {
  OBS_RUNTIME_LOCKED(runtime);
  CUstream stream = nullptr;
  // A blocking stream: it orders with the null stream, on which obs-run
  // records the events that time a whole entry.
  if (!runtime.ready() ||
      !runtime.check(runtime.api.cuStreamCreate(&stream, 0), "cuStreamCreate"))
    return nullptr;
  runtime.streams.insert(stream);
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  OBS_RUNTIME_LOCKED(runtime);
  if (!runtime.ready() || !runtime.streams.erase(stream))
    return;
  runtime.check(runtime.api.cuStreamDestroy(stream), "cuStreamDestroy");
}

/// Host code's failure handler (obsCudaSetFailureHandler).
static std::atomic<void (*)(const char *)> failureHandler{nullptr};

void mgpuStreamSynchronize(void *stream) {
  std::string failure;
  {
    OBS_RUNTIME_LOCKED(runtime);
    if (runtime.ready())
      runtime.check(runtime.api.cuStreamSynchronize(stream),
                    "cuStreamSynchronize");
    if (const char *error = runtime.getError())
      failure = error;
  }
  // Outside the lock: the handler may exit, and release at exit locks.
  if (auto *handler = failureHandler.load(); handler && !failure.empty())
    handler(failure.c_str());
}

void obsCudaSetFailureHandler(void (*handler)(const char *message)) {
  failureHandler.store(handler);
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  OBS_RUNTIME_LOCKED(runtime);
  if (runtime.ready())
    runtime.check(runtime.api.cuStreamWaitEvent(stream, event, 0),
                  "cuStreamWaitEvent");
}

void *mgpuEventCreate(void) {
  OBS_RUNTIME_LOCKED(runtime);
  CUevent event = nullptr;
  if (!runtime.ready() ||
      !runtime.check(runtime.api.cuEventCreate(&event, kEventDisableTiming),
                     "cuEventCreate"))
    return nullptr;
  runtime.events.insert(event);
  return event;
}

void mgpuEventDestroy(void *event) {
  OBS_RUNTIME_LOCKED(runtime);
  if (!runtime.ready() || !runtime.events.erase(event))
    return;
  runtime.check(runtime.api.cuEventDestroy(event), "cuEventDestroy");
}

void mgpuEventSynchronize(void *event) {
  OBS_RUNTIME_LOCKED(runtime);
  if (runtime.ready())
    runtime.check(runtime.api.cuEventSynchronize(event), "cuEventSynchronize");
}

void mgpuEventRecord(void *event, void *stream) {
  OBS_RUNTIME_LOCKED(runtime);
  if (runtime.ready())
    runtime.check(runtime.api.cuEventRecord(event, stream), "cuEventRecord");
}

void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared) {
  OBS_RUNTIME_LOCKED(runtime);
  (void)stream; // Allocation is not ordered on a stream.
  if (!runtime.ready())
    return nullptr;
  // The driver refuses zero bytes; an empty array still gets a place.
  size_t size = std::max<uint64_t>(bytes, 1);
  CUdeviceptr pointer = 0;
  bool made =
      hostShared
          ? runtime.check(
                runtime.api.cuMemAllocManaged(&pointer, size, kMemAttachGlobal),
                "cuMemAllocManaged")
          : runtime.check(runtime.api.cuMemAlloc(&pointer, size), "cuMemAlloc");
  if (!made)
    return nullptr;
  runtime.allocations.insert(pointer);
  return reinterpret_cast<void *>(pointer);
}

void mgpuMemFree(void *pointer, void *stream) {
  OBS_RUNTIME_LOCKED(runtime);
  if (!runtime.ready())
    return;
  // Work on the stream may still read it.
  if (stream && !runtime.check(runtime.api.cuStreamSynchronize(stream),
                               "cuStreamSynchronize"))
    return;
  if (!runtime.allocations.erase(devicePointer(pointer)))
    return runtime.fail("mgpuMemFree of memory the runtime did not allocate");
  runtime.check(runtime.api.cuMemFree(devicePointer(pointer)), "cuMemFree");
}

void mgpuMemcpy(void *destination, void *source, size_t bytes, void *stream) {
  OBS_RUNTIME_LOCKED(runtime);
  if (runtime.ready())
    runtime.check(runtime.api.cuMemcpyAsync(devicePointer(destination),
                                            devicePointer(source), bytes,
                                            stream),
                  "cuMemcpyAsync");
}

void mgpuMemset32(void *destination, unsigned value, size_t count,
                  void *stream) {
  OBS_RUNTIME_LOCKED(runtime);
  if (runtime.ready())
    runtime.check(runtime.api.cuMemsetD32Async(devicePointer(destination),
                                               value, count, stream),
                  "cuMemsetD32Async");
}

void mgpuMemset16(void *destination, unsigned short value, size_t count,
                  void *stream) {
  OBS_RUNTIME_LOCKED(runtime);
  if (runtime.ready())
    runtime.check(runtime.api.cuMemsetD16Async(devicePointer(destination),
                                               value, count, stream),
                  "cuMemsetD16Async");
}

void mgpuSetDefaultDevice(int32_t device) {
  OBS_RUNTIME_LOCKED(runtime);
  runtime.deviceOrdinal = device;
}

int obsCudaInit(void) {
  OBS_RUNTIME_LOCKED(runtime);
  return runtime.ready() ? 0 : 1;
}

const char *obsCudaError(void) {
  OBS_RUNTIME_LOCKED(runtime);
  return runtime.getError();
}

int obsCudaComputeCapability(int *major, int *minor) {
  OBS_RUNTIME_LOCKED(runtime);
  if (!runtime.ready() ||
      !runtime.check(
          runtime.api.cuDeviceGetAttribute(
              major, kAttributeComputeCapabilityMajor, runtime.device),
          "cuDeviceGetAttribute") ||
      !runtime.check(
          runtime.api.cuDeviceGetAttribute(
              minor, kAttributeComputeCapabilityMinor, runtime.device),
          "cuDeviceGetAttribute"))
    return 1;
  return 0;
}

int obsCudaSynchronize(void) {
  OBS_RUNTIME_LOCKED(runtime);
  return runtime.ready() && runtime.check(runtime.api.cuCtxSynchronize(),
                                          "cuCtxSynchronize")
             ? 0
             : 1;
}

void *obsCudaTimerCreate(void) {
  OBS_RUNTIME_LOCKED(runtime);
  CUevent event = nullptr;
  if (!runtime.ready() ||
      !runtime.check(runtime.api.cuEventCreate(&event, 0), "cuEventCreate"))
    return nullptr;
  runtime.events.insert(event);
  return event;
}

int obsCudaTimerElapsed(void *start, void *stop, float *milliseconds) {
  OBS_RUNTIME_LOCKED(runtime);
  return runtime.ready() &&
                 runtime.check(runtime.api.cuEventSynchronize(stop),
                               "cuEventSynchronize") &&
                 runtime.check(
                     runtime.api.cuEventElapsedTime(milliseconds, start, stop),
                     "cuEventElapsedTime")
             ? 0
             : 1;
}

void obsCudaProfileLaunches(int on) {
  OBS_RUNTIME_LOCKED(runtime);
  if (!runtime.ready())
    return;
  for (const TimedLaunch &launch : runtime.timed) {
    runtime.check(runtime.api.cuEventDestroy(launch.start), "cuEventDestroy");
    runtime.check(runtime.api.cuEventDestroy(launch.stop), "cuEventDestroy");
  }
  runtime.timed.clear();
  runtime.profiling = on != 0;
}

size_t obsCudaProfiledLaunchCount(void) {
  OBS_RUNTIME_LOCKED(runtime);
  return runtime.timed.size();
}

const char *obsCudaProfiledLaunch(size_t index, float *milliseconds) {
  OBS_RUNTIME_LOCKED(runtime);
  if (!runtime.ready() || index >= runtime.timed.size())
    return nullptr;
  const TimedLaunch &launch = runtime.timed[index];
  if (!runtime.check(runtime.api.cuEventSynchronize(launch.stop),
                     "cuEventSynchronize") ||
      !runtime.check(runtime.api.cuEventElapsedTime(milliseconds, launch.start,
                                                    launch.stop),
                     "cuEventElapsedTime"))
    return nullptr;
  return launch.kernel.c_str();
}

int obsCudaRelease(void) {
  OBS_RUNTIME_LOCKED(runtime);
  return runtime.release();
}

} // extern "C"
