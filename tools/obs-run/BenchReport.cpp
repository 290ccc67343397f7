//===- BenchReport.cpp - obs-run's lines of timings for --bench -----------===//

#include "BenchReport.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

void obs_run::printBench(const obs::Job &job, llvm::StringRef target,
                         obs::BenchResult result) {
  std::vector<float> &times = result.milliseconds;
  llvm::sort(times);
  float median = times[times.size() / 2];
  auto gbPerSecond = [](uint64_t bytes, float milliseconds) {
    return milliseconds > 0 ? bytes / (milliseconds * 1e6) : 0.0;
  };
  llvm::errs() << "bench: @" << job.symbol << " on " << target << ": fastest "
               << llvm::format("%.3f", times.front()) << " ms, median "
               << llvm::format("%.3f", median) << " ms over " << times.size()
               << " runs, "
               << llvm::format("%.2f", gbPerSecond(result.bytes, median))
               << " GB/s of " << result.bytes << " bytes\n";
  for (const obs::BenchResult::Kernel &kernel : result.kernels)
    llvm::errs() << "bench:   launch " << kernel.name << ": "
                 << kernel.launchesPerRun << " per run, "
                 << llvm::format("%.3f", kernel.millisecondsPerRun) << " ms, "
                 << llvm::format("%.2f", gbPerSecond(kernel.bytesPerRun,
                                                     kernel.millisecondsPerRun))
                 << " GB/s of " << kernel.bytesPerRun << " bytes\n";
}
