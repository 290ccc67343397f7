//===- ObsAttributes.h - the properties of a sync ---------------*- C++ -*-===//

#ifndef OBS_DIALECT_OBS_OBSATTRIBUTES_H
#define OBS_DIALECT_OBS_OBSATTRIBUTES_H

#include "Obs/Dialect/Obs/ObsInterfaces.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "Obs/Dialect/Obs/ObsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Obs/Dialect/Obs/ObsAttributes.h.inc"

namespace mlir {
class AsmParser;
class AsmPrinter;
} // namespace mlir

namespace mlir::obs {
/// Parses sync properties as a sync writes them (`block`, `warp`, `fresh`,
/// `inplace`, `strided<T>`, `blocked<k>`, `compact<T>`): as many as follow,
/// in any order, each kind at most once.
ParseResult parseSyncPropertyList(AsmParser &parser, SyncScopeAttr &scope,
                                  PlacementAttr &placement, Attribute &how);
/// Prints the properties given, separated by spaces.
void printSyncPropertyList(AsmPrinter &printer, SyncScopeAttr scope,
                           PlacementAttr placement, Attribute how);
} // namespace mlir::obs

#endif // OBS_DIALECT_OBS_OBSATTRIBUTES_H
