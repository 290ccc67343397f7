//===- ObsAttributes.h - the properties of a sync ---------------*- C++ -*-===//

#ifndef OBS_DIALECT_OBS_OBSATTRIBUTES_H
#define OBS_DIALECT_OBS_OBSATTRIBUTES_H

#include "Obs/Dialect/Obs/ObsInterfaces.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "Obs/Dialect/Obs/ObsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Obs/Dialect/Obs/ObsAttributes.h.inc"

#endif // OBS_DIALECT_OBS_OBSATTRIBUTES_H
