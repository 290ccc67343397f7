//===- OpVerifiers.h - what the obs ops' verifiers share -------*- C++ -*-===//
//
// Internal to lib/Dialect/Obs: the helpers ObsOps.cpp, ObsLaunchOps.cpp and
// ObsShapeOps.cpp verify ops with.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_DIALECT_OBS_OPVERIFIERS_H
#define OBS_LIB_DIALECT_OBS_OPVERIFIERS_H

#include "Obs/Dialect/Obs/ObsTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeRange.h"
#include <string>

namespace mlir::obs::detail {

/// Prints types as `(t1, t2)` for messages; one type is a range of one.
std::string formatTypes(TypeRange types);

/// Checks the signature of a single-block region: its arguments and what its
/// `obs.yield` yields. `what` says in the user's terms what the region is.
LogicalResult verifyRegionSignature(Operation *op, Region &region,
                                    TypeRange expectedArgs,
                                    TypeRange expectedYields, StringRef what);

/// Checks that `type` has an even length, which `op` needs to `why`.
LogicalResult requireEvenLength(Operation *op, ArrType type, StringRef why);

} // namespace mlir::obs::detail

#endif // OBS_LIB_DIALECT_OBS_OPVERIFIERS_H
