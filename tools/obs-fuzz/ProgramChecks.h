//===- ProgramChecks.h - checking one obs-fuzz program ----------*- C++ -*-===//
//
// What obs-fuzz's driver (obs-fuzz.cpp) and its checks (ProgramChecks.cpp)
// share: the ways a program is run on the cpu target, the device programs'
// pipelines, the report a child sends back, and the checks a child runs on
// one kernel program or one device program.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_TOOLS_OBSFUZZ_PROGRAMCHECKS_H
#define OBS_TOOLS_OBSFUZZ_PROGRAMCHECKS_H

#include "DeviceGenerator.h"
#include "llvm/Support/CommandLine.h"
#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace obs_fuzz {

/// One way of running a program on the cpu target.
struct Configuration {
  /// The refinement passes, in order, as pass-pipeline text (empty: the
  /// kernel as written).
  std::vector<std::string> passes;
  /// The order of threads and warps, and of a launch's blocks.
  std::string order = "forward";
  uint64_t orderSeed = 1;
  std::string blockOrder = "forward";
  uint64_t blockSeed = 1;

  /// The passes on the module, as parsePassPipeline takes them into a
  /// module's pass manager (obs-opt's --pass-pipeline wraps them in
  /// builtin.module(...)).
  std::string pipeline() const { return refinement() + "," + lowering(); }
  /// The refinement part, which the thread orders share.
  std::string refinement() const {
    // Like obs-optimize, the refinement passes learn first which global
    // places a launch shares within a block, so that they keep the barriers
    // that order them.
    std::string text = passes.empty() ? "" : "obs-collect-launch-overlaps,";
    text += "obs.kernel(obs-expand-networks,obs-flatten,canonicalize";
    for (const std::string &pass : passes)
      text += "," + pass;
    return text + ",obs-verify-sync)";
  }
  std::string lowering() const {
    return "obs-to-cpu{order=" + order + " seed=" + std::to_string(orderSeed) +
           " block-order=" + blockOrder +
           " block-seed=" + std::to_string(blockSeed) + "}";
  }
};

enum class Outcome : int {
  Agreed = 0,
  Rejected,  // the verifier rejects the kernel as written
  Unsafe,    // the kernel reads outside an array: rejected, or stopped
  OverLimit, // the kernel as written is over one of the compiler's limits
  Mismatch,  // cpu and ref differ
  Failed,    // a pipeline failed where it should not
};

/// What a child reports about one program, through a pipe: plain data.
struct Report {
  Outcome outcome = Outcome::Agreed;
  unsigned pipelines = 0, runs = 0, rejected = 0, unsafe = 0, resources = 0;
  int failingPipeline = -1; // index into the configurations tried
  char message[2048] = {};
};

/// A pipeline a device program is compiled by, and its name in reports.
struct DevicePipeline {
  std::string name, text;
  /// Whether the plan's kernels may be over a compiler limit: only
  /// obs-optimize is bound to fit them, not a random refinement.
  bool mayExceedLimits = false;
};

/// --test-miscompile-op (obs-fuzz.cpp): the op whose users the cpu target
/// pretends to miscompile, or empty.
extern llvm::cl::opt<std::string> testMiscompileOp;

/// The context every child parses into: made once, before the first fork,
/// with every dialect registered and none loaded.
extern mlir::MLIRContext *sharedContext;

/// In a child: where it says which configuration it is running.
extern int *childProgress;

/// Sets `report`'s message to `text`, cut to fit.
void setMessage(Report &report, const std::string &text);

/// Checks one program under `configurations` (all of them, or the one a
/// reduction replays); runs in a child process.
Report checkProgram(const std::string &text, uint64_t inputSeed,
                    const std::vector<Configuration> &configurations);

/// Checks device program `program` on each of its lengths, under
/// `pipelines`, against the oracle; runs in a child process.
Report checkDeviceProgram(const DeviceProgram &program, uint64_t inputSeed,
                          const std::vector<DevicePipeline> &pipelines);

} // namespace obs_fuzz

#endif // OBS_TOOLS_OBSFUZZ_PROGRAMCHECKS_H
