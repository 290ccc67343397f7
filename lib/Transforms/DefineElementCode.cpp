//===- DefineElementCode.cpp - element code's meaning before any fold -----===//
//
// obs-define-element-code: the overflow flags, `exact`, fast-math flags and
// `ub.poison` that MLIR's folds may exploit are taken out of element code
// before anything folds (docs/Rationale.md, "Element code has no undefined
// behaviour"). The element emitter defines the rest (divisions, shifts,
// conversions, loops) as it emits each op.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/DefinedArithmetic.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSDEFINEELEMENTCODE
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsDefineElementCodePass
    : mlir::obs::impl::ObsDefineElementCodeBase<ObsDefineElementCodePass> {
  void runOnOperation() override {
    // Element code is what obs ops hold: a kernel's body and every region
    // of an obs op in host code (a device op's combine, function or order).
    SmallVector<Operation *> elementCode;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op->getNumRegions() == 0 || !isa<ObsDialect>(op->getDialect()))
        return WalkResult::advance();
      for (Region &region : op->getRegions())
        region.walk([&](Operation *inner) { elementCode.push_back(inner); });
      return WalkResult::skip();
    });
    for (Operation *op : elementCode)
      if (takePoisonOut(op))
        addToStatistic(*this, numPoison, "poison-replaced");
  }
};
} // namespace
