//===- JobArrays.h - the arrays of an obs-run job --------------*- C++ -*-===//

#ifndef OBS_RUN_JOBARRAYS_H
#define OBS_RUN_JOBARRAYS_H

#include "Obs/Dialect/Obs/ObsTypes.h"
#include "Obs/Runner/Target.h"
#include "mlir/IR/BuiltinTypes.h"

namespace obs_run {

/// Fails, saying so, where an array of `type` added to `job` would need
/// more memory than this machine has, or than this process may take.
void checkArrayFits(const mlir::obs::Job &job, mlir::obs::ArrType type);

/// Adds an array of `type` to `job`, once checkArrayFits allows it: refused
/// before anything is allocated.
void addArray(mlir::obs::Job &job, mlir::obs::ArrType type);

/// A host function's memref as an array of obs-run's model, with `length`
/// for a dynamic outermost dimension.
mlir::obs::ArrType arrayOfMemRef(mlir::MemRefType memref, uint64_t length = 0);

} // namespace obs_run

#endif // OBS_RUN_JOBARRAYS_H
