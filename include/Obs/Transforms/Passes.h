//===- Passes.h - obs transformation passes ---------------------*- C++ -*-===//

#ifndef OBS_TRANSFORMS_PASSES_H
#define OBS_TRANSFORMS_PASSES_H

#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith {
class ArithDialect;
} // namespace arith
namespace gpu {
class GPUDialect;
} // namespace gpu
namespace memref {
class MemRefDialect;
} // namespace memref
namespace NVVM {
class NVVMDialect;
} // namespace NVVM
namespace scf {
class SCFDialect;
} // namespace scf
namespace ub {
class UBDialect;
} // namespace ub
} // namespace mlir

namespace mlir::obs {

#define GEN_PASS_DECL
#include "Obs/Transforms/Passes.h.inc"

/// The reference target's proof (it holds a pipeline, so it is built here).
std::unique_ptr<Pass> createObsVerifyReference();

#define GEN_PASS_REGISTRATION
#include "Obs/Transforms/Passes.h.inc"

/// Lifts every two, ilv and one holding syncs (see --obs-flatten).
LogicalResult flattenKernel(KernelOp kernel,
                            function_ref<void()> countLifted = [] {},
                            function_ref<void()> countMergedSync = [] {});

/// Whether no two, ilv or one of `kernel` holds a sync.
bool isFlat(KernelOp kernel);

/// Whether `sync` only hands its array to the kernel's results: its stage
/// writes global memory and ends in no barrier.
bool isOutputOnly(SyncOp sync);

/// A kernel's shared-memory plan, as obs-plan-shared leaves it: the arena's
/// size and each buffer owner's offsets.
struct SharedPlan {
  Attribute bytes;
  SmallVector<std::pair<Operation *, Attribute>> offsets;
  /// Puts the plan back on the kernel it was taken from.
  void restore(KernelOp kernel) const;
};

/// Removes the shared-memory plan of `kernel`, so that the lowering
/// allocates each buffer alone again, and returns it (empty when it had
/// none).
SharedPlan takeSharedPlan(KernelOp kernel);

} // namespace mlir::obs

#endif // OBS_TRANSFORMS_PASSES_H
