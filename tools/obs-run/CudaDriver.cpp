//===- CudaDriver.cpp - the CUDA driver API, resolved at run time ---------===//

#include "CudaDriver.h"
#include "HostData.h"
#include "llvm/ADT/Twine.h"
#include <dlfcn.h>
#include <utility>

using namespace obs_run;

namespace {
// The few driver types obs-run uses, as the driver API defines them.
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
using CUdeviceptr = unsigned long long;
constexpr int kComputeCapabilityMajor = 75; // CU_DEVICE_ATTRIBUTE_...
constexpr int kComputeCapabilityMinor = 76;
} // namespace

/// The driver entry points, looked up by name in libcuda.so.1.
struct CudaDriver::Api {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuCtxCreate)(CUcontext *, unsigned, CUdevice);
  CUresult (*cuCtxDestroy)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
};

llvm::Expected<std::unique_ptr<CudaDriver>> CudaDriver::open() {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return makeError("no CUDA driver: libcuda.so.1 not found");
  std::unique_ptr<CudaDriver> driver(new CudaDriver());
  driver->library = library;
  driver->api = std::make_unique<Api>();
  Api &api = *driver->api;
  auto resolve = [&](auto &entry, const char *name) -> llvm::Error {
    void *symbol = dlsym(library, name);
    if (!symbol)
      return makeError(llvm::Twine("the CUDA driver has no ") + name);
    entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(symbol);
    return llvm::Error::success();
  };
#define RESOLVE(field, name)                                                   \
  if (llvm::Error error = resolve(api.field, name))                            \
    return std::move(error);
  RESOLVE(cuInit, "cuInit")
  RESOLVE(cuDeviceGetCount, "cuDeviceGetCount")
  RESOLVE(cuDeviceGet, "cuDeviceGet")
  RESOLVE(cuDeviceGetAttribute, "cuDeviceGetAttribute")
  RESOLVE(cuCtxCreate, "cuCtxCreate_v2")
  RESOLVE(cuCtxDestroy, "cuCtxDestroy_v2")
  RESOLVE(cuCtxSynchronize, "cuCtxSynchronize")
  RESOLVE(cuModuleLoadData, "cuModuleLoadData")
  RESOLVE(cuModuleUnload, "cuModuleUnload")
  RESOLVE(cuModuleGetFunction, "cuModuleGetFunction")
  RESOLVE(cuMemAlloc, "cuMemAlloc_v2")
  RESOLVE(cuMemFree, "cuMemFree_v2")
  RESOLVE(cuMemcpyHtoD, "cuMemcpyHtoD_v2")
  RESOLVE(cuMemcpyDtoH, "cuMemcpyDtoH_v2")
  RESOLVE(cuLaunchKernel, "cuLaunchKernel")
  RESOLVE(cuEventCreate, "cuEventCreate")
  RESOLVE(cuEventRecord, "cuEventRecord")
  RESOLVE(cuEventSynchronize, "cuEventSynchronize")
  RESOLVE(cuEventElapsedTime, "cuEventElapsedTime")
  RESOLVE(cuEventDestroy, "cuEventDestroy_v2")
  RESOLVE(cuGetErrorName, "cuGetErrorName")
  RESOLVE(cuGetErrorString, "cuGetErrorString")
#undef RESOLVE
  if (llvm::Error error = driver->check(api.cuInit(0), "cuInit"))
    return makeError("no CUDA device: " + llvm::toString(std::move(error)));
  int count = 0;
  if (llvm::Error error =
          driver->check(api.cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return makeError("no CUDA device: " + llvm::toString(std::move(error)));
  if (count == 0)
    return makeError("no CUDA device: the driver sees none");
  if (llvm::Error error =
          driver->check(api.cuDeviceGet(&driver->device, 0), "cuDeviceGet"))
    return std::move(error);
  if (llvm::Error error = driver->check(
          api.cuCtxCreate(&driver->context, 0, driver->device), "cuCtxCreate"))
    return std::move(error);
  return driver;
}

CudaDriver::~CudaDriver() {
  if (api && module)
    api->cuModuleUnload(module);
  if (api && context)
    api->cuCtxDestroy(context);
  if (library)
    dlclose(library);
}

llvm::Error CudaDriver::close() {
  void *loaded = std::exchange(module, nullptr);
  if (loaded)
    if (llvm::Error error =
            check(api->cuModuleUnload(loaded), "cuModuleUnload"))
      return error;
  void *current = std::exchange(context, nullptr);
  if (current)
    return check(api->cuCtxDestroy(current), "cuCtxDestroy");
  return llvm::Error::success();
}

llvm::Error CudaDriver::check(int result, llvm::StringRef what) {
  if (result == 0)
    return llvm::Error::success();
  // The driver describes only the codes it knows; either lookup may fail
  // and leave its string null.
  const char *name = nullptr, *description = nullptr;
  if (api->cuGetErrorName(result, &name) != 0)
    name = nullptr;
  if (api->cuGetErrorString(result, &description) != 0)
    description = nullptr;
  std::string message = ("CUDA " + what + " failed: ").str();
  message += name ? std::string(name) : "error " + std::to_string(result);
  if (description)
    message += std::string(" (") + description + ")";
  return makeError(message);
}

llvm::Expected<std::string> CudaDriver::getChip() {
  int major = 0, minor = 0;
  if (llvm::Error error = check(
          api->cuDeviceGetAttribute(&major, kComputeCapabilityMajor, device),
          "cuDeviceGetAttribute"))
    return std::move(error);
  if (llvm::Error error = check(
          api->cuDeviceGetAttribute(&minor, kComputeCapabilityMinor, device),
          "cuDeviceGetAttribute"))
    return std::move(error);
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

llvm::Error CudaDriver::load(llvm::StringRef image, llvm::StringRef kernel) {
  std::string terminated = image.str();
  if (llvm::Error error =
          check(api->cuModuleLoadData(&module, terminated.c_str()),
                "cuModuleLoadData"))
    return error;
  return check(
      api->cuModuleGetFunction(&function, module, kernel.str().c_str()),
      "cuModuleGetFunction");
}

llvm::Expected<std::vector<float>>
CudaDriver::run(llvm::ArrayRef<void *> hostBuffers,
                llvm::ArrayRef<size_t> bytes, unsigned grid, unsigned threads,
                unsigned repetitions) {
  // What is made here goes on every path out: released unchecked after an
  // error (that error is the one to report), checked after a run that
  // succeeded.
  std::vector<CUdeviceptr> device(hostBuffers.size());
  CUevent start = nullptr, stop = nullptr;
  auto release = [&]() -> llvm::Error {
    llvm::Error first = llvm::Error::success();
    auto note = [&](int result, llvm::StringRef what) {
      llvm::Error error = check(result, what);
      if (error && !first)
        first = std::move(error);
      else
        llvm::consumeError(std::move(error));
    };
    for (CUdeviceptr &pointer : device)
      if (CUdeviceptr allocated = std::exchange(pointer, 0))
        note(api->cuMemFree(allocated), "cuMemFree");
    for (CUevent *event : {&start, &stop})
      if (CUevent made = std::exchange(*event, nullptr))
        note(api->cuEventDestroy(made), "cuEventDestroy");
    return first;
  };
  auto fail = [&](llvm::Error error) -> llvm::Error {
    llvm::consumeError(release());
    return error;
  };
  for (size_t i = 0; i < hostBuffers.size(); ++i) {
    if (llvm::Error error =
            check(api->cuMemAlloc(&device[i], std::max<size_t>(bytes[i], 1)),
                  "cuMemAlloc"))
      return fail(std::move(error));
    if (llvm::Error error =
            check(api->cuMemcpyHtoD(device[i], hostBuffers[i], bytes[i]),
                  "cuMemcpyHtoD"))
      return fail(std::move(error));
  }
  std::vector<void *> parameters;
  for (CUdeviceptr &pointer : device)
    parameters.push_back(&pointer);
  if (llvm::Error error = check(api->cuEventCreate(&start, 0), "cuEventCreate"))
    return fail(std::move(error));
  if (llvm::Error error = check(api->cuEventCreate(&stop, 0), "cuEventCreate"))
    return fail(std::move(error));
  std::vector<float> times;
  for (unsigned i = 0; i < std::max(1u, repetitions); ++i) {
    if (llvm::Error error =
            check(api->cuEventRecord(start, nullptr), "cuEventRecord"))
      return fail(std::move(error));
    if (llvm::Error error =
            check(api->cuLaunchKernel(function, grid, 1, 1, threads, 1, 1, 0,
                                      nullptr, parameters.data(), nullptr),
                  "cuLaunchKernel"))
      return fail(std::move(error));
    if (llvm::Error error =
            check(api->cuEventRecord(stop, nullptr), "cuEventRecord"))
      return fail(std::move(error));
    if (llvm::Error error =
            check(api->cuEventSynchronize(stop), "cuEventSynchronize"))
      return fail(std::move(error));
    float milliseconds = 0;
    if (llvm::Error error =
            check(api->cuEventElapsedTime(&milliseconds, start, stop),
                  "cuEventElapsedTime"))
      return fail(std::move(error));
    times.push_back(milliseconds);
  }
  if (llvm::Error error =
          check(api->cuCtxSynchronize(), "cuCtxSynchronize (the kernel's run)"))
    return fail(std::move(error));
  for (size_t i = 0; i < hostBuffers.size(); ++i)
    if (llvm::Error error =
            check(api->cuMemcpyDtoH(hostBuffers[i], device[i], bytes[i]),
                  "cuMemcpyDtoH"))
      return fail(std::move(error));
  if (llvm::Error error = release())
    return std::move(error);
  return times;
}
