//===- ObsInterfaces.h - pull arrays and work assignment --------*- C++ -*-===//

#ifndef OBS_DIALECT_OBS_OBSINTERFACES_H
#define OBS_DIALECT_OBS_OBSINTERFACES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include <optional>

namespace mlir::obs {
class ElementEmitter;
} // namespace mlir::obs

#include "Obs/Dialect/Obs/ObsAttrInterfaces.h.inc"
#include "Obs/Dialect/Obs/ObsOpInterfaces.h.inc"

#endif // OBS_DIALECT_OBS_OBSINTERFACES_H
