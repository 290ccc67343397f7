//===- RuntimeReports.h - obs-run's reports of a run gone wrong -*- C++ -*-===//
//
// What lowered code reports as it runs (Obs/Support/RuntimeFunctions.h) and
// obs-run turns into one line on stderr and exit status 1.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_TOOLS_OBS_RUN_RUNTIMEREPORTS_H
#define OBS_TOOLS_OBS_RUN_RUNTIMEREPORTS_H

#include "Obs/Runner/Target.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

namespace obs_run {

/// Prints `obs-run: MESSAGE` (after clearing the progress line) and exits
/// with status 1.
[[noreturn]] void fail(const llvm::Twine &message);

/// Names `file` as the program whose ops the reports of a run name.
void setReportedFile(llvm::StringRef file);

/// obs-run's reports: each stops the run with one line.
const mlir::obs::RuntimeReports &getRunReports();

} // namespace obs_run

#endif // OBS_TOOLS_OBS_RUN_RUNTIMEREPORTS_H
