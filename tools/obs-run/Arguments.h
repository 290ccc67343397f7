//===- Arguments.h - obs-run's arguments before LLVM's parser ---*- C++ -*-===//
//
// What obs-run takes out of its arguments before llvm::cl parses the rest.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_TOOLS_OBS_RUN_ARGUMENTS_H
#define OBS_TOOLS_OBS_RUN_ARGUMENTS_H

#include <optional>
#include <string>

namespace obs_run {

/// Removes `--threads=N` (or `--threads N`, with one or two dashes) from
/// the arguments and returns N's text, none when absent: libLLVM owns a
/// global `-threads` option (ThinLTO's), which llvm::cl would take.
std::optional<std::string> takeThreadsArgument(int &argc, char **argv);

} // namespace obs_run

#endif // OBS_TOOLS_OBS_RUN_ARGUMENTS_H
