//===- Results.h - what obs-run prints after a run -------------*- C++ -*-===//
//
// The arrays a run prints (or writes to --output), and --check's
// comparison of them with the reference target's.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_TOOLS_OBS_RUN_RESULTS_H
#define OBS_TOOLS_OBS_RUN_RESULTS_H

#include "Obs/Runner/Target.h"
#include "llvm/ADT/StringRef.h"

namespace obs_run {

/// The first array of `job` printed after the run: the first after the
/// inputs, or the first of all for an entry that takes only inputs, which
/// works in place (and printed nothing, its --output left unwritten).
unsigned firstPrinted(const mlir::obs::Job &job);

/// Fails, naming the first difference, unless `job` (run on `targetName`)
/// and `reference` hold the same printed arrays.
void compareWithReference(mlir::obs::Job &job, mlir::obs::Job &reference,
                          llvm::StringRef targetName);

/// Prints `job`'s printed arrays, or writes them to `outputFile` (numbered
/// where there are several) when it is not empty.
void writeResults(mlir::obs::Job &job, llvm::StringRef outputFile);

/// `code`, or 1 where the standard output could not be written (a full
/// disk): said in one line, where the stream's destructor would stop with
/// an LLVM ERROR.
int finishOutput(int code);

} // namespace obs_run

#endif // OBS_TOOLS_OBS_RUN_RESULTS_H
