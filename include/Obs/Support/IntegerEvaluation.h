//===- IntegerEvaluation.h - integer ops on known values ---------*- C++
//-*-===//
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
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <optional>

namespace mlir::obs {

/// The bit width of an integer or index type (an index has 64 bits).
unsigned getIntegerWidth(Type type);

/// Whether values of `type` are evaluated: integers of at most 64 bits and
/// index. Evaluated values are kept in an int64_t, so a wider integer is
/// unknown to every evaluation (the block simulation, the in-place probe,
/// the register lowering's per-thread values), as data is: computed modulo
/// 2^64, i * 2^64 >> 64 was taken to be 0 where it is i.
inline bool isEvaluatedIntegerType(Type type) {
  return type.isIntOrIndex() && getIntegerWidth(type) <= 64;
}

/// `value` wrapped to `width` bits and sign-extended, an i1 as 0 or 1: how
/// evaluated values are kept.
inline int64_t wrapToWidth(unsigned width, int64_t value) {
  if (width >= 64)
    return value;
  // Two's complement wrap, sign-extended like APInt::getSExtValue.
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t bits = static_cast<uint64_t>(value) & mask;
  if (width > 1 && (bits >> (width - 1)) & 1)
    bits |= ~mask;
  return width == 1 ? static_cast<int64_t>(bits & 1)
                    : static_cast<int64_t>(bits);
}

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

namespace detail {
/// `value` (as wrapToWidth keeps it) read as an unsigned `width`-bit
/// integer.
inline uint64_t asUnsigned(int64_t value, unsigned width) {
  return width >= 64
             ? static_cast<uint64_t>(value)
             : static_cast<uint64_t>(value) & ((uint64_t(1) << width) - 1);
}

/// `value` read as a signed `width`-bit integer.
inline int64_t asSigned(int64_t value, unsigned width) {
  if (width >= 64)
    return value;
  uint64_t bits = asUnsigned(value, width);
  if ((bits >> (width - 1)) & 1)
    bits |= ~((uint64_t(1) << width) - 1);
  return static_cast<int64_t>(bits);
}
} // namespace detail

/// What `code` computes from `values` whose type is `operandWidth` bits wide
/// (select: of its second and third operands), before the result is wrapped
/// to its own width; nothing where arith's result is poison or undefined (a
/// shift by the width or more, division by zero), as the folders leave it.
/// `code` is not Fold.
inline std::optional<int64_t> computeIntegerOpcode(IntegerOpcode code,
                                                   unsigned width,
                                                   ArrayRef<int64_t> values) {
  // Each case means what the op's folder means.
  auto u = [&](unsigned i) { return detail::asUnsigned(values[i], width); };
  auto s = [&](unsigned i) { return detail::asSigned(values[i], width); };
  using Code = IntegerOpcode;
  switch (code) {
  case Code::Fold:
    return std::nullopt;
  case Code::AddI:
    return int64_t(u(0) + u(1));
  case Code::SubI:
    return int64_t(u(0) - u(1));
  case Code::MulI:
    return int64_t(u(0) * u(1));
  case Code::AndI:
    return int64_t(u(0) & u(1));
  case Code::OrI:
    return int64_t(u(0) | u(1));
  case Code::XOrI:
    return int64_t(u(0) ^ u(1));
  case Code::ShLI:
    if (u(1) >= width)
      return std::nullopt;
    return int64_t(u(0) << u(1));
  case Code::ShRUI:
    if (u(1) >= width)
      return std::nullopt;
    return int64_t(u(0) >> u(1));
  case Code::ShRSI:
    if (u(1) >= width)
      return std::nullopt;
    return s(0) >> u(1);
  // Index maps divide by powers of two far more than by anything else
  // (floordiv and mod by a tile or a warp): a shift and a mask there,
  // where a 64-bit division takes tens of cycles.
  case Code::DivUI:
    if (u(1) == 0)
      return std::nullopt;
    if (llvm::isPowerOf2_64(u(1)))
      return int64_t(u(0) >> llvm::countr_zero(u(1)));
    return int64_t(u(0) / u(1));
  case Code::RemUI:
    if (u(1) == 0)
      return std::nullopt;
    if (llvm::isPowerOf2_64(u(1)))
      return int64_t(u(0) & (u(1) - 1));
    return int64_t(u(0) % u(1));
  case Code::MinUI:
    return int64_t(std::min(u(0), u(1)));
  case Code::MaxUI:
    return int64_t(std::max(u(0), u(1)));
  case Code::MinSI:
    return std::min(s(0), s(1));
  case Code::MaxSI:
    return std::max(s(0), s(1));
  case Code::CmpEq:
    return u(0) == u(1);
  case Code::CmpNe:
    return u(0) != u(1);
  case Code::CmpSlt:
    return s(0) < s(1);
  case Code::CmpSle:
    return s(0) <= s(1);
  case Code::CmpSgt:
    return s(0) > s(1);
  case Code::CmpSge:
    return s(0) >= s(1);
  case Code::CmpUlt:
    return u(0) < u(1);
  case Code::CmpUle:
    return u(0) <= u(1);
  case Code::CmpUgt:
    return u(0) > u(1);
  case Code::CmpUge:
    return u(0) >= u(1);
  case Code::Select:
    return values[0] ? values[1] : values[2];
  // Widening is from the operand's width; narrowing wraps at the result.
  case Code::ExtendSigned:
    return s(0);
  case Code::ExtendUnsigned:
    return int64_t(u(0));
  case Code::Truncate:
    return values[0];
  }
  return std::nullopt;
}

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
