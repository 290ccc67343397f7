//===- RuntimeReports.cpp - obs-run's reports of a run gone wrong ---------===//

#include "RuntimeReports.h"
#include "Obs/Support/RuntimeFunctions.h"

using namespace mlir;
using namespace obs_run;

namespace {

/// The program the reports' lines and columns are of.
std::string reportedFile;

/// `FILE:LINE:COLUMN: error: `, as the compiler's errors begin, or
/// `error: ` for an op without a place.
std::string errorAt(int64_t line, int64_t column) {
  if (line <= 0)
    return "error: ";
  return (reportedFile + ":" + llvm::Twine(line) + ":" + llvm::Twine(column) +
          ": error: ")
      .str();
}

/// What lowered code reports as it runs (Obs/Support/RuntimeFunctions.h):
/// the run is wrong from there on, so it stops.
void reportScatterCollision(int64_t block, int64_t place, int64_t line,
                            int64_t column) {
  fail(errorAt(line, column) + "an obs.scatter without a combine writes " +
       "place " + llvm::Twine(place) + " of its result twice, in block " +
       llvm::Twine(block) +
       ": without a combine each place is written at most once");
}

void reportIndexOutside(int64_t block, int64_t index, int64_t length,
                        int64_t line, int64_t column) {
  std::string where =
      block < 0 ? std::string() : (" in block " + llvm::Twine(block)).str();
  fail(errorAt(line, column) + "an obs.index reads index " +
       llvm::Twine(index) + " of an array of " + llvm::Twine(length) +
       " elements" + where + ": the index is outside the array");
}

void reportArgumentContract(int64_t first, int64_t second) {
  if (first < 0)
    return;
  if (second < 0)
    fail("error: memref argument " + llvm::Twine(first) +
         " of a host function that launches kernels is not aligned to 16 "
         "bytes: its kernels may load and store vectors");
  fail("error: memref arguments " + llvm::Twine(first) + " and " +
       llvm::Twine(second) +
       " of a host function that launches kernels overlap: its kernels "
       "assume distinct allocations");
}

void reportUnknownFree() {
  fail("error: a memref.dealloc frees memory its code did not allocate, or "
       "freed already (a function's argument, or a second dealloc)");
}

void reportLaunchContract(int64_t breach, int64_t first, int64_t second) {
  if (breach == static_cast<int64_t>(obs::LaunchContractBreach::None))
    return;
  fail("error: " + obs::describeLaunchContractBreach(breach, first, second));
}

void reportHostCheck(const char *message) {
  fail("error: " + llvm::Twine(message));
}

} // namespace

void obs_run::setReportedFile(llvm::StringRef file) { reportedFile = file; }

const obs::RuntimeReports &obs_run::getRunReports() {
  static const obs::RuntimeReports reports = {reportScatterCollision,
                                              reportIndexOutside,
                                              reportArgumentContract,
                                              [](const char *deviceFailure) { fail(deviceFailure); },
                                              reportUnknownFree,
                                              reportLaunchContract,
                                              reportHostCheck};
  return reports;
}
