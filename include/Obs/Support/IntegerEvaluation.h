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

/// The bit width of an integer or index type (an index has 64 bits).
unsigned getIntegerWidth(Type type);

/// `value` wrapped to `width` bits and sign-extended, an i1 as 0 or 1: how
/// evaluated values are kept.
int64_t wrapToWidth(unsigned width, int64_t value);

/// `value` wrapped to the width of the integer or index type `type`.
inline int64_t wrapToInteger(Type type, int64_t value) {
  return wrapToWidth(getIntegerWidth(type), value);
}

/// The integer ops computed directly rather than through their folders:
/// those that addresses and conditions are made of. `Fold` is any other op.
enum class IntegerOpcode : uint8_t {
  Fold,
  AddI,
  SubI,
  MulI,
  AndI,
  OrI,
  XOrI,
  ShLI,
  ShRUI,
  ShRSI,
  DivUI,
  RemUI,
  MinUI,
  MaxUI,
  MinSI,
  MaxSI,
  CmpEq,
  CmpNe,
  CmpSlt,
  CmpSle,
  CmpSgt,
  CmpSge,
  CmpUlt,
  CmpUle,
  CmpUgt,
  CmpUge,
  Select,
  ExtendSigned,   // index_cast, extsi: from the operand's width.
  ExtendUnsigned, // index_castui, extui.
  Truncate,       // trunci: the caller wraps to the result's width.
};

/// How `op`, an op with one integer (or index, or i1) result, is computed.
IntegerOpcode classifyIntegerOp(Operation &op);

/// What `code` computes from `values` whose type is `operandWidth` bits wide
/// (select: of its second and third operands), before the result is wrapped
/// to its own width; nothing where arith's result is poison or undefined (a
/// shift by the width or more, division by zero), as the folders leave it.
/// `code` is not Fold.
std::optional<int64_t> computeIntegerOpcode(IntegerOpcode code,
                                            unsigned operandWidth,
                                            ArrayRef<int64_t> values);

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

/// What the folder of `op` computes from its operands' `values`, unwrapped:
/// evaluateIntegerOp for the ops it does not compute directly.
std::optional<int64_t> foldIntegerOp(
    Operation &op, ArrayRef<int64_t> values,
    llvm::function_ref<Attribute(Type, int64_t)> makeAttribute = nullptr);

} // namespace mlir::obs

#endif // OBS_SUPPORT_INTEGEREVALUATION_H
