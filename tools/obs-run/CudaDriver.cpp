//===- CudaDriver.cpp - the CUDA driver API, resolved at run time ---------===//

#include "CudaDriver.h"
#include "HostData.h"
#include "llvm/ADT/Twine.h"
#include <dlfcn.h>

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
} // namespace

/// The driver entry points, looked up by name in libcuda.so.1.
struct CudaDriver::Api {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
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
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
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
  RESOLVE(cuGetErrorString, "cuGetErrorString")
#undef RESOLVE
  if (api.cuInit(0) != 0)
    return makeError("no CUDA device: the driver did not initialise");
  int count = 0;
  if (api.cuDeviceGetCount(&count) != 0 || count == 0)
    return makeError("no CUDA device: the driver sees none");
  CUdevice device;
  if (llvm::Error error = driver->check(api.cuDeviceGet(&device, 0),
                                        "cuDeviceGet"))
    return std::move(error);
  if (llvm::Error error = driver->check(
          api.cuCtxCreate(&driver->context, 0, device), "cuCtxCreate"))
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

llvm::Error CudaDriver::check(int result, llvm::StringRef what) {
  if (result == 0)
    return llvm::Error::success();
  const char *message = "unknown error";
  api->cuGetErrorString(result, &message);
  return makeError("CUDA " + what + " failed: " + message);
}

llvm::Error CudaDriver::load(llvm::StringRef image, llvm::StringRef kernel) {
  std::string terminated = image.str();
  if (llvm::Error error = check(
          api->cuModuleLoadData(&module, terminated.c_str()),
          "cuModuleLoadData"))
    return error;
  return check(api->cuModuleGetFunction(&function, module,
                                        kernel.str().c_str()),
               "cuModuleGetFunction");
}

llvm::Expected<std::vector<float>>
CudaDriver::run(llvm::ArrayRef<void *> hostBuffers,
                llvm::ArrayRef<size_t> bytes, unsigned grid, unsigned threads,
                unsigned repetitions) {
  std::vector<CUdeviceptr> device(hostBuffers.size());
  auto release = [&] {
    for (CUdeviceptr pointer : device)
      if (pointer)
        api->cuMemFree(pointer);
  };
  for (size_t i = 0; i < hostBuffers.size(); ++i) {
    if (llvm::Error error = check(
            api->cuMemAlloc(&device[i], std::max<size_t>(bytes[i], 1)),
            "cuMemAlloc")) {
      release();
      return std::move(error);
    }
    if (llvm::Error error = check(
            api->cuMemcpyHtoD(device[i], hostBuffers[i], bytes[i]),
            "cuMemcpyHtoD")) {
      release();
      return std::move(error);
    }
  }
  std::vector<void *> parameters;
  for (CUdeviceptr &pointer : device)
    parameters.push_back(&pointer);
  std::vector<float> times;
  CUevent start, stop;
  api->cuEventCreate(&start, 0);
  api->cuEventCreate(&stop, 0);
  for (unsigned i = 0; i < std::max(1u, repetitions); ++i) {
    api->cuEventRecord(start, nullptr);
    if (llvm::Error error = check(
            api->cuLaunchKernel(function, grid, 1, 1, threads, 1, 1, 0,
                                nullptr, parameters.data(), nullptr),
            "cuLaunchKernel")) {
      release();
      return std::move(error);
    }
    api->cuEventRecord(stop, nullptr);
    api->cuEventSynchronize(stop);
    float milliseconds = 0;
    api->cuEventElapsedTime(&milliseconds, start, stop);
    times.push_back(milliseconds);
  }
  api->cuEventDestroy(start);
  api->cuEventDestroy(stop);
  if (llvm::Error error = check(api->cuCtxSynchronize(), "the kernel")) {
    release();
    return std::move(error);
  }
  for (size_t i = 0; i < hostBuffers.size(); ++i)
    if (llvm::Error error = check(
            api->cuMemcpyDtoH(hostBuffers[i], device[i], bytes[i]),
            "cuMemcpyDtoH")) {
      release();
      return std::move(error);
    }
  release();
  return times;
}
