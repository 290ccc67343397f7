//===- BenchReport.h - obs-run's lines of timings for --bench ---*- C++ -*-===//

#ifndef OBS_TOOLS_OBS_RUN_BENCHREPORT_H
#define OBS_TOOLS_OBS_RUN_BENCHREPORT_H

#include "Obs/Runner/Target.h"
#include "llvm/ADT/StringRef.h"

namespace obs_run {

/// Prints `bench: @symbol on TARGET: fastest F ms, median M ms over N runs,
/// G GB/s` to stderr, then, on cuda, a line per kernel.
void printBench(const mlir::obs::Job &job, llvm::StringRef target,
                mlir::obs::BenchResult result);

} // namespace obs_run

#endif // OBS_TOOLS_OBS_RUN_BENCHREPORT_H
