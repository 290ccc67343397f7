//===- CudaDriver.h - the CUDA driver API, resolved at run time -*- C++ -*-===//
//
// obs-run builds and starts on machines without CUDA: libcuda.so.1 is opened
// with dlopen and every entry point looked up by name (as IREE's
// dynamic_symbols does). Without a driver or a device, the error says so in
// one line. Every driver result is checked and reported with the driver's
// name and description of the error; whatever was created before a failure
// is released when the driver object goes.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_TOOLS_OBSRUN_CUDADRIVER_H
#define OBS_TOOLS_OBSRUN_CUDADRIVER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace obs_run {

/// A loaded kernel, launched on one device.
class CudaDriver {
public:
  /// Opens the driver and the first device, or says why not.
  static llvm::Expected<std::unique_ptr<CudaDriver>> open();
  ~CudaDriver();

  /// The device's architecture, `sm_XY` from its compute capability.
  llvm::Expected<std::string> getChip();

  /// Loads PTX (or a cubin) and finds `kernel` in it.
  llvm::Error load(llvm::StringRef image, llvm::StringRef kernel);

  /// Copies each host buffer to the device, launches the kernel on `grid`
  /// blocks of `threads` threads `repetitions` times, copies the buffers
  /// back, and returns the time of each launch in milliseconds.
  llvm::Expected<std::vector<float>> run(llvm::ArrayRef<void *> hostBuffers,
                                         llvm::ArrayRef<size_t> bytes,
                                         unsigned grid, unsigned threads,
                                         unsigned repetitions);

  /// Unloads the module and destroys the context, checking both (the
  /// destructor releases what is left, after an error, unchecked).
  llvm::Error close();

  struct Api;

private:
  CudaDriver() = default;
  /// Success for CUDA_SUCCESS; otherwise "CUDA `what` failed: NAME
  /// (description)", or the bare code where the driver describes none.
  llvm::Error check(int result, llvm::StringRef what);

  void *library = nullptr;
  std::unique_ptr<Api> api;
  int device = 0;
  void *context = nullptr;
  void *module = nullptr;
  void *function = nullptr;
};

} // namespace obs_run

#endif // OBS_TOOLS_OBSRUN_CUDADRIVER_H
