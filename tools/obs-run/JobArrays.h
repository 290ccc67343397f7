//===- JobArrays.h - the arrays of an obs-run job --------------*- C++ -*-===//

#ifndef OBS_RUN_JOBARRAYS_H
#define OBS_RUN_JOBARRAYS_H

#include "Obs/Dialect/Obs/ObsTypes.h"
#include "Obs/Runner/Target.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace obs_run {

/// Adds an array of `type` to `job`, unless the job's arrays would need
/// more memory than this machine has, or than this process may take:
/// refused before anything is allocated. `checkBeforeAllocating`, where
/// given, runs after those checks and before the array is made, to refuse
/// what the caller does not accept of it (it does not return then).
void addArray(mlir::obs::Job &job, mlir::obs::ArrType type,
              llvm::function_ref<void()> checkBeforeAllocating = {});

/// A host function's memref as an array of obs-run's model, with `length`
/// for a dynamic outermost dimension.
mlir::obs::ArrType arrayOfMemRef(mlir::MemRefType memref, uint64_t length = 0);

} // namespace obs_run

#endif // OBS_RUN_JOBARRAYS_H
