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
/// The properties of a sync, as written on it or chosen in its plan.
struct SyncProperties {
  SyncScopeAttr scope;
  PlacementAttr placement;
  /// A WorkAssignmentAttrInterface.
  Attribute how;
  StorageAttr storage;

  bool empty() const { return !scope && !placement && !how && !storage; }
};

/// The properties `plan` chooses (none for a null plan).
SyncProperties getPlannedProperties(SyncPlanAttr plan);
/// The plan that chooses `properties`: null when they are empty.
SyncPlanAttr getSyncPlan(MLIRContext *context,
                         const SyncProperties &properties);

/// Parses sync properties as a sync writes them (`block`, `warp`, `fresh`,
/// `inplace`, `strided<T>`, `blocked<k>`, `compact<T>`, `shared`,
/// `registers`): as many as follow, in any order, each kind at most once.
ParseResult parseSyncPropertyList(AsmParser &parser,
                                  SyncProperties &properties);
/// Prints the properties given, separated by spaces.
void printSyncPropertyList(AsmPrinter &printer,
                           const SyncProperties &properties);
} // namespace mlir::obs

#endif // OBS_DIALECT_OBS_OBSATTRIBUTES_H
