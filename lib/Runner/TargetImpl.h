//===- TargetImpl.h - what the targets' files share ---------------*- C++
//-*-===//
//
// Internal to lib/Runner: the pieces of Target.cpp that the cuda target's
// executable (CudaTarget.cpp) uses too.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_RUNNER_TARGETIMPL_H
#define OBS_LIB_RUNNER_TARGETIMPL_H

#include "Obs/Runner/Target.h"

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::obs::runner {

/// The runner's functions that lowered code calls: obs-record-launches'
/// recorder and the tool's `reports`.
llvm::orc::SymbolMap getRuntimeSymbols(const RuntimeReports &reports,
                                       llvm::orc::MangleAndInterner mangle);

/// An ExecutionEngine for `lowered`, optimised at `options`' jitOptLevel,
/// the step reported to its reportStep; with `keepObject`, its object code
/// can be dumped (the compile cache's).
llvm::Expected<std::unique_ptr<ExecutionEngine>>
createEngine(ModuleOp lowered, const CompileOptions &options, bool keepObject);

/// "cannot lower the program for the NAME target", after the pipeline's
/// own diagnostics.
llvm::Error makeLoweringError(const Target &target);

std::unique_ptr<Target> createCUDATarget();

/// The cpu target's obs_chain_publish and obs_chain_observe
/// (Obs/Support/RuntimeFunctions.h), in ChainStates.cpp.
int64_t publishChainState(int64_t address, int64_t state);
int64_t observeChainState(int64_t address);
/// Forgets every word's history, and draws the answers of the next run's
/// look-backs from `seed`.
void resetChainStates(uint64_t seed);

} // namespace mlir::obs::runner

#endif // OBS_LIB_RUNNER_TARGETIMPL_H
