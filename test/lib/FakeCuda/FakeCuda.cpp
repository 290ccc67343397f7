//===- FakeCuda.cpp - a recording test double of libcuda.so.1 -------------===//
//
// A stand-in for the CUDA driver that lets the tests check the host wiring
// of obs's CUDA runtime and obs-run on machines without a GPU: which driver
// calls they make, in which order, with which arguments, and that they
// release everything on every path. It is a test of wiring, never of running on
// a GPU: it executes no kernel, and what a launch "computes" is nothing (device
// memory is host memory, copied in and back unchanged).
//
// It exports the driver's entry points under the names the runtime looks up
// (the versioned ones, `cuMemAlloc_v2` and so on, and nothing under the old
// unversioned names), so that a lookup of the wrong ABI fails. Every call is
// appended as one line to the file that OBS_FAKE_CUDA_LOG names, with its
// arguments: device memory as "allocation N + OFFSET", modules and
// functions by number and name. A module's PTX is read for its `.entry`
// functions and their parameters, and a launch reads exactly those
// parameters from `kernelParams` and names what they point to. When the
// library is unloaded (or the process ends) it writes what is still live.
//
// Environment:
//   OBS_FAKE_CUDA_LOG=FILE        where the calls go (none: not recorded)
//   OBS_FAKE_CUDA_FAIL=NAME[:N]   the N-th call (default 1) of entry point
//                                 NAME returns OBS_FAKE_CUDA_ERROR
//   OBS_FAKE_CUDA_ERROR=CODE      default 2 (CUDA_ERROR_OUT_OF_MEMORY); a
//                                 code the driver does not know gets no name
//                                 or description, as from the real one
//   OBS_FAKE_CUDA_DEVICES=N       devices (default 1)
//   OBS_FAKE_CUDA_CC=MAJOR.MINOR  compute capability (default 9.0)
//   OBS_FAKE_CUDA_NO_DESCRIPTIONS cuGetErrorString succeeds with a null
//                                 string, which a caller must not print
//
//===----------------------------------------------------------------------===//

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;

constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kNotInitialized = 3;
constexpr CUresult kInvalidContext = 201;
constexpr CUresult kInvalidHandle = 400;
constexpr CUresult kNotFound = 500;
constexpr CUresult kInvalidPTX = 218;

struct Allocation {
  unsigned id;
  std::vector<unsigned char> bytes;
};

/// A parameter of an `.entry`: its byte size, and whether PTX declares it a
/// pointer (`.ptr`), which a launch must give a device allocation.
struct Parameter {
  unsigned bytes;
  bool pointer;
};

struct Module {
  unsigned id;
  /// Each `.entry`, with its parameters.
  std::map<std::string, std::vector<Parameter>> entries;
};

struct Function {
  unsigned module;
  std::string name;
  std::vector<Parameter> parameters;
};

/// Everything the double knows, and its log.
class Driver {
public:
  Driver() {
    if (const char *path = std::getenv("OBS_FAKE_CUDA_LOG"))
      log = std::fopen(path, "a");
    if (const char *fail = std::getenv("OBS_FAKE_CUDA_FAIL")) {
      std::string spec(fail);
      size_t colon = spec.find(':');
      failName = spec.substr(0, colon);
      if (colon != std::string::npos)
        failCall = std::strtoul(spec.c_str() + colon + 1, nullptr, 10);
    }
    if (const char *code = std::getenv("OBS_FAKE_CUDA_ERROR"))
      failCode = std::atoi(code);
    if (const char *devices = std::getenv("OBS_FAKE_CUDA_DEVICES"))
      deviceCount = std::atoi(devices);
    if (const char *cc = std::getenv("OBS_FAKE_CUDA_CC"))
      std::sscanf(cc, "%d.%d", &ccMajor, &ccMinor);
    noDescriptions = std::getenv("OBS_FAKE_CUDA_NO_DESCRIPTIONS") != nullptr;
  }

  ~Driver() {
    size_t events = 0;
    for (auto &[id, live] : liveEvents)
      events += live;
    record("at exit: %zu allocations, %zu modules, %zu contexts, %zu events, "
           "%zu streams live",
           allocations.size(), modules.size(), size_t(primaryRetains > 0),
           events, streams.size());
    if (log)
      std::fclose(log);
  }

  /// Whether the call `name` is the one to fail; counts every call.
  bool injected(const char *name) {
    if (failName != name)
      return false;
    return ++failSeen == failCall;
  }

  void record(const char *format, ...) {
    if (!log)
      return;
    va_list arguments;
    va_start(arguments, format);
    std::vfprintf(log, format, arguments);
    va_end(arguments);
    std::fputc('\n', log);
    std::fflush(log);
  }

  /// Ends a call: records it with its result and returns the result.
  CUresult done(const std::string &call, CUresult result) {
    record("%s = %d", call.c_str(), result);
    return result;
  }

  /// "stream N", or "stream 0" for the null stream.
  std::string streamName(void *stream) {
    if (!stream)
      return "stream 0";
    auto it = streams.find(stream);
    return it == streams.end() ? "unknown stream"
                               : "stream " + std::to_string(it->second);
  }

  /// "allocation N + OFFSET" for a device pointer, or where it is not one.
  std::string describe(CUdeviceptr pointer, size_t bytes, bool &inside) {
    for (auto &[base, allocation] : allocations) {
      CUdeviceptr begin = base, end = base + allocation.bytes.size();
      if (pointer < begin || pointer >= std::max(end, begin + 1))
        continue;
      inside = pointer + bytes <= std::max(end, begin + 1);
      return "allocation " + std::to_string(allocation.id) + " + " +
             std::to_string(pointer - begin);
    }
    inside = false;
    char text[40];
    std::snprintf(text, sizeof(text), "unknown pointer 0x%llx", pointer);
    return text;
  }

  bool initialized = false;
  int deviceCount = 1, ccMajor = 9, ccMinor = 0;
  /// Each kind of handle is numbered from 1, in the order made.
  unsigned nextAllocation = 1, nextModule = 1, nextEvent = 1;
  std::map<CUdeviceptr, Allocation> allocations;
  std::map<void *, Module> modules;
  std::map<void *, Function> functions;
  std::map<unsigned, bool> liveEvents;
  /// Streams made and not destroyed, by handle, with their numbers.
  std::map<void *, unsigned> streams;
  unsigned nextStream = 1;
  /// How many times the primary context is retained.
  unsigned primaryRetains = 0;
  CUresult failCode = 2;
  /// cuGetErrorString succeeds but leaves a null string, as drivers may.
  bool noDescriptions = false;

private:
  FILE *log = nullptr;
  std::string failName;
  unsigned long failCall = 1, failSeen = 0;
};

Driver &driver() {
  static Driver instance;
  return instance;
}

/// The byte size of a PTX parameter type (`.u64`, `.b32`, `.f16`, ...).
unsigned parameterBytes(const std::string &type) {
  size_t digits = type.find_first_of("0123456789");
  if (digits == std::string::npos)
    return 0;
  return std::atoi(type.c_str() + digits) / 8;
}

/// The `.entry` functions of a PTX text and their parameters.
std::map<std::string, std::vector<Parameter>> readEntries(const char *ptx) {
  std::map<std::string, std::vector<Parameter>> entries;
  std::string text(ptx);
  size_t at = 0;
  while ((at = text.find(".entry ", at)) != std::string::npos) {
    at += 7;
    size_t open = text.find('(', at);
    if (open == std::string::npos)
      break;
    std::string name = text.substr(at, open - at);
    while (!name.empty() && name.back() == ' ')
      name.pop_back();
    size_t close = text.find(')', open);
    std::string list = text.substr(open + 1, close - open - 1);
    std::vector<Parameter> parameters;
    size_t param = 0;
    while ((param = list.find(".param", param)) != std::string::npos) {
      param += 6;
      size_t type = list.find('.', param);
      size_t end = list.find_first_of(" \t\n", type);
      size_t next = list.find(".param", end);
      std::string rest = list.substr(
          end, next == std::string::npos ? std::string::npos : next - end);
      parameters.push_back({parameterBytes(list.substr(type, end - type)),
                            rest.find(".ptr") != std::string::npos});
    }
    entries[name] = parameters;
    at = close;
  }
  return entries;
}

#define INJECT(name, call)                                                     \
  if (d.injected(name))                                                        \
    return d.done(call, d.failCode);

} // namespace

/// cuMemsetD32Async and cuMemsetD16Async: `count` copies of `value`.
template <typename Value>
static CUresult memsetAsync(const char *name, CUdeviceptr destination,
                            Value value, size_t count, void *stream) {
  Driver &d = driver();
  bool inside = false;
  std::string call = std::string(name) + "(" +
                     d.describe(destination, sizeof(Value) * count, inside) +
                     ", " + std::to_string(value) + ", " +
                     std::to_string(count) + ", " + d.streamName(stream) + ")";
  INJECT(name, call)
  if (!inside)
    return d.done(call, kInvalidValue);
  for (size_t i = 0; i < count; ++i)
    std::memcpy(reinterpret_cast<char *>(destination) + sizeof(Value) * i,
                &value, sizeof(Value));
  return d.done(call, kSuccess);
}

extern "C" {

CUresult cuInit(unsigned flags) {
  Driver &d = driver();
  std::string call = "cuInit(" + std::to_string(flags) + ")";
  INJECT("cuInit", call)
  d.initialized = true;
  return d.done(call, kSuccess);
}

CUresult cuDeviceGetCount(int *count) {
  Driver &d = driver();
  std::string call = "cuDeviceGetCount()";
  INJECT("cuDeviceGetCount", call)
  if (!d.initialized)
    return d.done(call, kNotInitialized);
  *count = d.deviceCount;
  return d.done(call + " -> " + std::to_string(*count), kSuccess);
}

CUresult cuDeviceGet(int *device, int ordinal) {
  Driver &d = driver();
  std::string call = "cuDeviceGet(" + std::to_string(ordinal) + ")";
  INJECT("cuDeviceGet", call)
  if (ordinal < 0 || ordinal >= d.deviceCount)
    return d.done(call, kInvalidValue);
  *device = ordinal;
  return d.done(call + " -> device " + std::to_string(ordinal), kSuccess);
}

CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  Driver &d = driver();
  std::string call = "cuDeviceGetAttribute(" + std::to_string(attribute) +
                     ", device " + std::to_string(device) + ")";
  INJECT("cuDeviceGetAttribute", call)
  if (attribute == 75)
    *value = d.ccMajor;
  else if (attribute == 76)
    *value = d.ccMinor;
  else if (attribute == 97) // Shared memory a block may opt in to: 227 KiB.
    *value = 232448;
  else
    return d.done(call, kInvalidValue);
  return d.done(call + " -> " + std::to_string(*value), kSuccess);
}

CUresult cuCtxSynchronize() {
  Driver &d = driver();
  INJECT("cuCtxSynchronize", "cuCtxSynchronize()")
  return d.done("cuCtxSynchronize()",
                d.primaryRetains ? kSuccess : kInvalidContext);
}

CUresult cuModuleUnload(void *module) {
  Driver &d = driver();
  auto it = d.modules.find(module);
  std::string call =
      "cuModuleUnload(" +
      (it == d.modules.end() ? std::string("unknown module")
                             : "module " + std::to_string(it->second.id)) +
      ")";
  INJECT("cuModuleUnload", call)
  if (it == d.modules.end())
    return d.done(call, kInvalidHandle);
  d.modules.erase(it);
  return d.done(call, kSuccess);
}

CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  Driver &d = driver();
  auto it = d.modules.find(module);
  std::string call =
      "cuModuleGetFunction(" +
      (it == d.modules.end() ? std::string("unknown module")
                             : "module " + std::to_string(it->second.id)) +
      ", \"" + name + "\")";
  INJECT("cuModuleGetFunction", call)
  if (it == d.modules.end())
    return d.done(call, kInvalidHandle);
  auto entry = it->second.entries.find(name);
  if (entry == it->second.entries.end())
    return d.done(call, kNotFound);
  void *handle =
      reinterpret_cast<void *>(uintptr_t(0x3000 + d.functions.size() + 1));
  d.functions[handle] = {it->second.id, name, entry->second};
  *function = handle;
  return d.done(call + " -> function " + name, kSuccess);
}

/// Both allocations' work once the call is logged: host memory of `bytes`
/// stands for the device's (the driver refuses zero bytes).
static CUresult allocate(Driver &d, CUdeviceptr *pointer, size_t bytes,
                         const std::string &call) {
  if (bytes == 0)
    return d.done(call, kInvalidValue);
  Allocation allocation{d.nextAllocation++, std::vector<unsigned char>(bytes)};
  CUdeviceptr base = reinterpret_cast<uintptr_t>(allocation.bytes.data());
  unsigned id = allocation.id;
  d.allocations[base] = std::move(allocation);
  *pointer = base;
  return d.done(call + " -> allocation " + std::to_string(id), kSuccess);
}

CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  Driver &d = driver();
  std::string call = "cuMemAlloc_v2(" + std::to_string(bytes) + ")";
  INJECT("cuMemAlloc_v2", call)
  return allocate(d, pointer, bytes, call);
}

CUresult cuMemFree_v2(CUdeviceptr pointer) {
  Driver &d = driver();
  auto it = d.allocations.find(pointer);
  std::string call = "cuMemFree_v2(" +
                     (it == d.allocations.end()
                          ? std::string("unknown pointer")
                          : "allocation " + std::to_string(it->second.id)) +
                     ")";
  INJECT("cuMemFree_v2", call)
  if (it == d.allocations.end())
    return d.done(call, kInvalidValue);
  d.allocations.erase(it);
  return d.done(call, kSuccess);
}

CUresult cuLaunchKernel(void *function, unsigned gridX, unsigned gridY,
                        unsigned gridZ, unsigned blockX, unsigned blockY,
                        unsigned blockZ, unsigned sharedBytes, void *stream,
                        void **kernelParams, void **extra) {
  Driver &d = driver();
  auto it = d.functions.find(function);
  std::string call = "cuLaunchKernel(";
  call += it == d.functions.end() ? "unknown function" : it->second.name;
  call += ", grid " + std::to_string(gridX) + "x" + std::to_string(gridY) +
          "x" + std::to_string(gridZ) + ", block " + std::to_string(blockX) +
          "x" + std::to_string(blockY) + "x" + std::to_string(blockZ) +
          ", shared " + std::to_string(sharedBytes) + ", " +
          d.streamName(stream) + ", params [";
  bool valid = it != d.functions.end() && !extra &&
               (kernelParams || it->second.parameters.empty());
  if (it != d.functions.end() && kernelParams) {
    // Exactly the parameters the .entry declares, each of its size.
    for (size_t i = 0; i < it->second.parameters.size(); ++i) {
      auto [size, isPointer] = it->second.parameters[i];
      call += i ? ", " : "";
      if (size == 8 && !isPointer) {
        int64_t value;
        std::memcpy(&value, kernelParams[i], sizeof(value));
        call += "i64 " + std::to_string(value);
        continue;
      }
      if (size != 8) {
        call += std::to_string(size) + "-byte value";
        continue;
      }
      CUdeviceptr pointer;
      std::memcpy(&pointer, kernelParams[i], sizeof(pointer));
      bool inside = false;
      call += d.describe(pointer, 1, inside);
      valid &= inside;
    }
  }
  call += "])";
  INJECT("cuLaunchKernel", call)
  return d.done(call, valid ? kSuccess : kInvalidValue);
}

CUresult cuEventCreate(void **event, unsigned flags) {
  Driver &d = driver();
  std::string call = "cuEventCreate(flags " + std::to_string(flags) + ")";
  INJECT("cuEventCreate", call)
  unsigned id = d.nextEvent++;
  d.liveEvents[id] = true;
  *event = reinterpret_cast<void *>(uintptr_t(id));
  return d.done(call + " -> event " + std::to_string(id), kSuccess);
}

static std::string eventName(void *event) {
  return "event " + std::to_string(reinterpret_cast<uintptr_t>(event));
}

CUresult cuEventRecord(void *event, void *stream) {
  Driver &d = driver();
  std::string call =
      "cuEventRecord(" + eventName(event) + ", " + d.streamName(stream) + ")";
  INJECT("cuEventRecord", call)
  return d.done(call, kSuccess);
}

CUresult cuEventSynchronize(void *event) {
  Driver &d = driver();
  std::string call = "cuEventSynchronize(" + eventName(event) + ")";
  INJECT("cuEventSynchronize", call)
  return d.done(call, kSuccess);
}

CUresult cuEventElapsedTime(float *milliseconds, void *start, void *stop) {
  Driver &d = driver();
  std::string call =
      "cuEventElapsedTime(" + eventName(start) + ", " + eventName(stop) + ")";
  INJECT("cuEventElapsedTime", call)
  *milliseconds = 0;
  return d.done(call, kSuccess);
}

CUresult cuEventDestroy_v2(void *event) {
  Driver &d = driver();
  std::string call = "cuEventDestroy_v2(" + eventName(event) + ")";
  INJECT("cuEventDestroy_v2", call)
  auto it = d.liveEvents.find(reinterpret_cast<uintptr_t>(event));
  if (it == d.liveEvents.end() || !it->second)
    return d.done(call, kInvalidHandle);
  it->second = false;
  return d.done(call, kSuccess);
}

CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  Driver &d = driver();
  std::string call =
      "cuDevicePrimaryCtxRetain(device " + std::to_string(device) + ")";
  INJECT("cuDevicePrimaryCtxRetain", call)
  if (!d.initialized || device < 0 || device >= d.deviceCount)
    return d.done(call, kInvalidValue);
  ++d.primaryRetains;
  *context = reinterpret_cast<void *>(uintptr_t(0x1000));
  return d.done(call + " -> primary context", kSuccess);
}

CUresult cuDevicePrimaryCtxRelease_v2(int device) {
  Driver &d = driver();
  std::string call =
      "cuDevicePrimaryCtxRelease_v2(device " + std::to_string(device) + ")";
  INJECT("cuDevicePrimaryCtxRelease_v2", call)
  if (d.primaryRetains == 0)
    return d.done(call, kInvalidContext);
  --d.primaryRetains;
  return d.done(call, kSuccess);
}

CUresult cuCtxSetCurrent(void *context) {
  Driver &d = driver();
  std::string call = std::string("cuCtxSetCurrent(") +
                     (context == reinterpret_cast<void *>(uintptr_t(0x1000))
                          ? "primary context"
                          : "another context") +
                     ")";
  INJECT("cuCtxSetCurrent", call)
  return d.done(call, context ? kSuccess : kInvalidContext);
}

CUresult cuModuleLoadDataEx(void **module, const void *image,
                            unsigned numOptions, int *options,
                            void **optionValues) {
  Driver &d = driver();
  const char *ptx = static_cast<const char *>(image);
  std::map<std::string, std::vector<Parameter>> entries = readEntries(ptx);
  std::string target = "none";
  if (const char *at = std::strstr(ptx, "\n.target ")) {
    at += 9;
    target.assign(at, std::strcspn(at, "\n"));
  }
  // The error log the caller offers (CU_JIT_ERROR_LOG_BUFFER and its size).
  char *log = nullptr;
  size_t logBytes = 0;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == 5)
      log = static_cast<char *>(optionValues[i]);
    else if (options[i] == 6)
      logBytes = reinterpret_cast<uintptr_t>(optionValues[i]);
  }
  std::string call = "cuModuleLoadDataEx(" + std::to_string(std::strlen(ptx)) +
                     " bytes, target " + target + ", entries";
  for (auto &[name, parameters] : entries) {
    call += " " + name + "(";
    for (size_t i = 0; i < parameters.size(); ++i)
      call += (i ? ", " : "") +
              (parameters[i].pointer
                   ? std::string("pointer")
                   : std::to_string(parameters[i].bytes) + " bytes");
    call += ")";
  }
  call += ", error log " + std::to_string(logBytes) + " bytes)";
  // A failure writes what a JIT would: where in the PTX and why.
  auto writeLog = [&] {
    if (log && logBytes)
      std::snprintf(log, logBytes,
                    "ptxas application ptx input, line 1; fatal   : fake "
                    "failure\nptxas fatal   : Ptx assembly aborted\n");
  };
  if (d.injected("cuModuleLoadDataEx")) {
    writeLog();
    return d.done(call, d.failCode);
  }
  if (std::strncmp(ptx, "//", 2) != 0 &&
      std::strstr(ptx, ".version") == nullptr) {
    writeLog();
    return d.done(call, kInvalidPTX);
  }
  unsigned id = d.nextModule++;
  void *handle = reinterpret_cast<void *>(uintptr_t(0x2000 + id));
  d.modules[handle] = {id, entries};
  *module = handle;
  return d.done(call + " -> module " + std::to_string(id), kSuccess);
}

CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  Driver &d = driver();
  auto it = d.functions.find(function);
  std::string call = "cuFuncSetAttribute(" +
                     (it == d.functions.end() ? std::string("unknown function")
                                              : it->second.name) +
                     ", " + std::to_string(attribute) + ", " +
                     std::to_string(value) + ")";
  INJECT("cuFuncSetAttribute", call)
  return d.done(call, it == d.functions.end() ? kInvalidHandle : kSuccess);
}

CUresult cuStreamCreate(void **stream, unsigned flags) {
  Driver &d = driver();
  std::string call = "cuStreamCreate(flags " + std::to_string(flags) + ")";
  INJECT("cuStreamCreate", call)
  unsigned id = d.nextStream++;
  *stream = reinterpret_cast<void *>(uintptr_t(0x4000 + id));
  d.streams[*stream] = id;
  return d.done(call + " -> stream " + std::to_string(id), kSuccess);
}

CUresult cuStreamDestroy_v2(void *stream) {
  Driver &d = driver();
  std::string call = "cuStreamDestroy_v2(" + d.streamName(stream) + ")";
  INJECT("cuStreamDestroy_v2", call)
  if (!d.streams.erase(stream))
    return d.done(call, kInvalidHandle);
  return d.done(call, kSuccess);
}

CUresult cuStreamSynchronize(void *stream) {
  Driver &d = driver();
  std::string call = "cuStreamSynchronize(" + d.streamName(stream) + ")";
  INJECT("cuStreamSynchronize", call)
  return d.done(call,
                stream && !d.streams.count(stream) ? kInvalidHandle : kSuccess);
}

CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
  Driver &d = driver();
  std::string call = "cuStreamWaitEvent(" + d.streamName(stream) + ", " +
                     eventName(event) + ")";
  INJECT("cuStreamWaitEvent", call)
  return d.done(call, kSuccess);
}

CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes, unsigned flags) {
  Driver &d = driver();
  std::string call = "cuMemAllocManaged(" + std::to_string(bytes) + ", flags " +
                     std::to_string(flags) + ")";
  INJECT("cuMemAllocManaged", call)
  return allocate(d, pointer, bytes, call);
}

CUresult cuMemcpyAsync(CUdeviceptr destination, CUdeviceptr source,
                       size_t bytes, void *stream) {
  Driver &d = driver();
  // With unified addressing either side may be host memory.
  bool destinationInside = false, sourceInside = false;
  std::string to = d.describe(destination, bytes, destinationInside);
  std::string from = d.describe(source, bytes, sourceInside);
  bool destinationOnDevice = to.rfind("allocation", 0) == 0;
  bool sourceOnDevice = from.rfind("allocation", 0) == 0;
  std::string call = "cuMemcpyAsync(" + (destinationOnDevice ? to : "host") +
                     " <- " + (sourceOnDevice ? from : "host") + ", " +
                     std::to_string(bytes) + " bytes, " + d.streamName(stream) +
                     ")";
  INJECT("cuMemcpyAsync", call)
  if ((destinationOnDevice && !destinationInside) ||
      (sourceOnDevice && !sourceInside))
    return d.done(call, kInvalidValue);
  std::memmove(reinterpret_cast<void *>(destination),
               reinterpret_cast<void *>(source), bytes);
  return d.done(call, kSuccess);
}

CUresult cuMemsetD32Async(CUdeviceptr destination, unsigned value, size_t count,
                          void *stream) {
  return memsetAsync("cuMemsetD32Async", destination, value, count, stream);
}

CUresult cuMemsetD16Async(CUdeviceptr destination, unsigned short value,
                          size_t count, void *stream) {
  return memsetAsync("cuMemsetD16Async", destination, value, count, stream);
}

// The codes the double describes; any other gets no name or description
// (a null string and CUDA_ERROR_INVALID_VALUE, as the real driver does).
static const char *errorName(CUresult code, bool description) {
  switch (code) {
  case 0:
    return description ? "no error" : "CUDA_SUCCESS";
  case 1:
    return description ? "invalid argument" : "CUDA_ERROR_INVALID_VALUE";
  case 2:
    return description ? "out of memory" : "CUDA_ERROR_OUT_OF_MEMORY";
  case 3:
    return description ? "initialization error" : "CUDA_ERROR_NOT_INITIALIZED";
  case 100:
    return description ? "no CUDA-capable device is detected"
                       : "CUDA_ERROR_NO_DEVICE";
  case 201:
    return description ? "invalid device context"
                       : "CUDA_ERROR_INVALID_CONTEXT";
  case 218:
    return description ? "a PTX JIT compilation failed"
                       : "CUDA_ERROR_INVALID_PTX";
  case 400:
    return description ? "invalid resource handle"
                       : "CUDA_ERROR_INVALID_HANDLE";
  case 500:
    return description ? "named symbol not found" : "CUDA_ERROR_NOT_FOUND";
  case 700:
    return description ? "an illegal memory access was encountered"
                       : "CUDA_ERROR_ILLEGAL_ADDRESS";
  default:
    return nullptr;
  }
}

CUresult cuGetErrorName(CUresult code, const char **name) {
  Driver &d = driver();
  *name = errorName(code, /*description=*/false);
  return d.done("cuGetErrorName(" + std::to_string(code) + ")",
                *name ? kSuccess : kInvalidValue);
}

CUresult cuGetErrorString(CUresult code, const char **string) {
  Driver &d = driver();
  *string = d.noDescriptions ? nullptr : errorName(code, /*description=*/true);
  if (d.noDescriptions)
    return d.done("cuGetErrorString(" + std::to_string(code) + ")", kSuccess);
  return d.done("cuGetErrorString(" + std::to_string(code) + ")",
                *string ? kSuccess : kInvalidValue);
}

} // extern "C"
