//===- IntegerEvaluation.cpp - integer ops on known values ----------------===//

#include "Obs/Support/IntegerEvaluation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::obs;

int64_t mlir::obs::wrapToInteger(Type type, int64_t value) {
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
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

/// The bit width of an integer or index type (index: 64 bits).
static unsigned bitWidth(Type type) {
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}

/// `value` (as wrapToInteger keeps it) read as
/// an unsigned `width`-bit integer.
static uint64_t asUnsigned(int64_t value, unsigned width) {
  return width >= 64 ? static_cast<uint64_t>(value)
                     : static_cast<uint64_t>(value) &
                           ((uint64_t(1) << width) - 1);
}

/// `value` read as a signed `width`-bit integer.
static int64_t asSigned(int64_t value, unsigned width) {
  if (width >= 64)
    return value;
  uint64_t bits = asUnsigned(value, width);
  if ((bits >> (width - 1)) & 1)
    bits |= ~((uint64_t(1) << width) - 1);
  return static_cast<int64_t>(bits);
}

/// What an arith op computes from its operands' `values`, where it is one
/// computed directly (null otherwise: its folder is asked).
static std::optional<int64_t> computeArith(Operation &op,
                                           ArrayRef<int64_t> values) {
  // The ops that addresses and conditions are made of, computed directly:
  // folding builds attributes, which costs more than the rest of the run.
  // Each case means what the op's folder means (the caller wraps the result to
  // its width); where arith's result is poison or undefined (a shift by the
  // width or more, division by zero, INT_MIN / -1) the value is unknown, as
  // the folder leaves it.
  if (values.size() != 2 && !isa<arith::IndexCastOp, arith::IndexCastUIOp,
                                  arith::ExtUIOp, arith::ExtSIOp,
                                  arith::TruncIOp, arith::SelectOp>(op))
    return std::nullopt;
  unsigned width = bitWidth(op.getOperand(0).getType());
  auto u = [&](unsigned i) { return asUnsigned(values[i], width); };
  auto s = [&](unsigned i) { return asSigned(values[i], width); };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(&op)
      .Case([&](arith::AddIOp) { return int64_t(u(0) + u(1)); })
      .Case([&](arith::SubIOp) { return int64_t(u(0) - u(1)); })
      .Case([&](arith::MulIOp) { return int64_t(u(0) * u(1)); })
      .Case([&](arith::AndIOp) { return int64_t(u(0) & u(1)); })
      .Case([&](arith::OrIOp) { return int64_t(u(0) | u(1)); })
      .Case([&](arith::XOrIOp) { return int64_t(u(0) ^ u(1)); })
      .Case([&](arith::ShLIOp) -> std::optional<int64_t> {
        if (u(1) >= width)
          return std::nullopt;
        return int64_t(u(0) << u(1));
      })
      .Case([&](arith::ShRUIOp) -> std::optional<int64_t> {
        if (u(1) >= width)
          return std::nullopt;
        return int64_t(u(0) >> u(1));
      })
      .Case([&](arith::ShRSIOp) -> std::optional<int64_t> {
        if (u(1) >= width)
          return std::nullopt;
        return s(0) >> u(1);
      })
      .Case([&](arith::DivUIOp) -> std::optional<int64_t> {
        if (u(1) == 0)
          return std::nullopt;
        return int64_t(u(0) / u(1));
      })
      .Case([&](arith::RemUIOp) -> std::optional<int64_t> {
        if (u(1) == 0)
          return std::nullopt;
        return int64_t(u(0) % u(1));
      })
      .Case([&](arith::MinUIOp) { return int64_t(std::min(u(0), u(1))); })
      .Case([&](arith::MaxUIOp) { return int64_t(std::max(u(0), u(1))); })
      .Case([&](arith::MinSIOp) { return std::min(s(0), s(1)); })
      .Case([&](arith::MaxSIOp) { return std::max(s(0), s(1)); })
      .Case([&](arith::CmpIOp cmp) -> std::optional<int64_t> {
        switch (cmp.getPredicate()) {
        case arith::CmpIPredicate::eq:
          return u(0) == u(1);
        case arith::CmpIPredicate::ne:
          return u(0) != u(1);
        case arith::CmpIPredicate::slt:
          return s(0) < s(1);
        case arith::CmpIPredicate::sle:
          return s(0) <= s(1);
        case arith::CmpIPredicate::sgt:
          return s(0) > s(1);
        case arith::CmpIPredicate::sge:
          return s(0) >= s(1);
        case arith::CmpIPredicate::ult:
          return u(0) < u(1);
        case arith::CmpIPredicate::ule:
          return u(0) <= u(1);
        case arith::CmpIPredicate::ugt:
          return u(0) > u(1);
        case arith::CmpIPredicate::uge:
          return u(0) >= u(1);
        }
        return std::nullopt;
      })
      .Case([&](arith::SelectOp select) -> std::optional<int64_t> {
        if (values.size() != 3)
          return std::nullopt;
        return values[0] ? values[1] : values[2];
      })
      // Widening: from the operand's width; narrowing wraps in setInt.
      .Case([&](arith::IndexCastOp) { return s(0); })
      .Case([&](arith::ExtSIOp) { return s(0); })
      .Case([&](arith::IndexCastUIOp) { return int64_t(u(0)); })
      .Case([&](arith::ExtUIOp) { return int64_t(u(0)); })
      .Case([&](arith::TruncIOp) { return values[0]; })
      .Default([](Operation *) { return std::nullopt; });
}


std::optional<int64_t> mlir::obs::evaluateIntegerOp(
    Operation &op, ArrayRef<int64_t> values,
    llvm::function_ref<Attribute(Type, int64_t)> makeAttribute) {
  if (op.getNumResults() != 1 || !op.getResult(0).getType().isIntOrIndex() ||
      values.size() != op.getNumOperands())
    return std::nullopt;
  std::optional<int64_t> computed = computeArith(op, values);
  if (!computed) {
    SmallVector<Attribute, 3> operands;
    for (auto [operand, value] : llvm::zip_equal(op.getOperands(), values))
      operands.push_back(makeAttribute
                             ? makeAttribute(operand.getType(), value)
                             : IntegerAttr::get(operand.getType(), value));
    SmallVector<OpFoldResult, 1> folded;
    if (failed(op.fold(operands, folded)) || folded.size() != 1)
      return std::nullopt;
    if (auto attribute = dyn_cast<Attribute>(folded.front())) {
      auto integer = dyn_cast<IntegerAttr>(attribute);
      if (!integer)
        return std::nullopt;
      computed = integer.getType().isInteger(1)
                     ? static_cast<int64_t>(integer.getValue().getZExtValue())
                     : integer.getValue().getSExtValue();
    } else {
      // Folded to one of its operands (a select on a known condition).
      Value same = cast<Value>(folded.front());
      for (auto [operand, value] : llvm::zip_equal(op.getOperands(), values))
        if (operand == same)
          computed = value;
      if (!computed)
        return std::nullopt;
    }
  }
  return wrapToInteger(op.getResult(0).getType(), *computed);
}
