//===- IntegerEvaluation.h - integer ops on known values ---------*- C++ -*-===//
//
// Index arithmetic and conditions evaluated on known integers, without
// building IR: what the block simulation runs for every thread and the
// in-place probe for every element.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_INTEGEREVALUATION_H
#define OBS_SUPPORT_INTEGEREVALUATION_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>

namespace mlir::obs {

/// `value` wrapped to the width of the integer or index type `type` and
/// sign-extended, an i1 as 0 or 1: how evaluated values are kept.
int64_t wrapToInteger(Type type, int64_t value);

/// What the integer (or index, or boolean) op `op` computes from its
/// operands' `values`, wrapped to its result's width, or nothing when it is
/// not known. arith's common ops are computed directly; any other op is
/// asked through its folder, with its operands as attributes made by
/// `makeAttribute` (IntegerAttr::get when null; a caller that folds the same
/// values often caches them). Where arith's result is poison or undefined (a
/// shift by the width or more, division by zero, INT_MIN / -1) the value is
/// not known, as the folders leave it.
std::optional<int64_t> evaluateIntegerOp(
    Operation &op, ArrayRef<int64_t> values,
    llvm::function_ref<Attribute(Type, int64_t)> makeAttribute = nullptr);

} // namespace mlir::obs

#endif // OBS_SUPPORT_INTEGEREVALUATION_H
