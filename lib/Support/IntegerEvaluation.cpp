//===- IntegerEvaluation.cpp - integer ops on known values ----------------===//

#include "Obs/Support/IntegerEvaluation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::obs;

unsigned mlir::obs::getIntegerWidth(Type type) {
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}

int64_t mlir::obs::wrapToWidth(unsigned width, int64_t value) {
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

/// `value` (as wrapToWidth keeps it) read as an unsigned `width`-bit
/// integer.
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

static IntegerOpcode classifyComparison(arith::CmpIPredicate predicate) {
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return IntegerOpcode::CmpEq;
  case arith::CmpIPredicate::ne:
    return IntegerOpcode::CmpNe;
  case arith::CmpIPredicate::slt:
    return IntegerOpcode::CmpSlt;
  case arith::CmpIPredicate::sle:
    return IntegerOpcode::CmpSle;
  case arith::CmpIPredicate::sgt:
    return IntegerOpcode::CmpSgt;
  case arith::CmpIPredicate::sge:
    return IntegerOpcode::CmpSge;
  case arith::CmpIPredicate::ult:
    return IntegerOpcode::CmpUlt;
  case arith::CmpIPredicate::ule:
    return IntegerOpcode::CmpUle;
  case arith::CmpIPredicate::ugt:
    return IntegerOpcode::CmpUgt;
  case arith::CmpIPredicate::uge:
    return IntegerOpcode::CmpUge;
  }
  return IntegerOpcode::Fold;
}

IntegerOpcode mlir::obs::classifyIntegerOp(Operation &op) {
  // The ops that addresses and conditions are made of, computed directly:
  // folding builds attributes, which costs more than the rest of the run.
  using Code = IntegerOpcode;
  return llvm::TypeSwitch<Operation *, Code>(&op)
      .Case([](arith::AddIOp) { return Code::AddI; })
      .Case([](arith::SubIOp) { return Code::SubI; })
      .Case([](arith::MulIOp) { return Code::MulI; })
      .Case([](arith::AndIOp) { return Code::AndI; })
      .Case([](arith::OrIOp) { return Code::OrI; })
      .Case([](arith::XOrIOp) { return Code::XOrI; })
      .Case([](arith::ShLIOp) { return Code::ShLI; })
      .Case([](arith::ShRUIOp) { return Code::ShRUI; })
      .Case([](arith::ShRSIOp) { return Code::ShRSI; })
      .Case([](arith::DivUIOp) { return Code::DivUI; })
      .Case([](arith::RemUIOp) { return Code::RemUI; })
      .Case([](arith::MinUIOp) { return Code::MinUI; })
      .Case([](arith::MaxUIOp) { return Code::MaxUI; })
      .Case([](arith::MinSIOp) { return Code::MinSI; })
      .Case([](arith::MaxSIOp) { return Code::MaxSI; })
      .Case([](arith::CmpIOp cmp) {
        return classifyComparison(cmp.getPredicate());
      })
      .Case([](arith::SelectOp) { return Code::Select; })
      .Case<arith::IndexCastOp, arith::ExtSIOp>(
          [](Operation *) { return Code::ExtendSigned; })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
          [](Operation *) { return Code::ExtendUnsigned; })
      .Case([](arith::TruncIOp) { return Code::Truncate; })
      .Default([](Operation *) { return Code::Fold; });
}

std::optional<int64_t>
mlir::obs::computeIntegerOpcode(IntegerOpcode code, unsigned width,
                                ArrayRef<int64_t> values) {
  // Each case means what the op's folder means.
  auto u = [&](unsigned i) { return asUnsigned(values[i], width); };
  auto s = [&](unsigned i) { return asSigned(values[i], width); };
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
  case Code::DivUI:
    if (u(1) == 0)
      return std::nullopt;
    return int64_t(u(0) / u(1));
  case Code::RemUI:
    if (u(1) == 0)
      return std::nullopt;
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

std::optional<int64_t> mlir::obs::foldIntegerOp(
    Operation &op, ArrayRef<int64_t> values,
    llvm::function_ref<Attribute(Type, int64_t)> makeAttribute) {
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
    return integer.getType().isInteger(1)
               ? static_cast<int64_t>(integer.getValue().getZExtValue())
               : integer.getValue().getSExtValue();
  }
  // Folded to one of its operands (a select on a known condition).
  Value same = cast<Value>(folded.front());
  for (auto [operand, value] : llvm::zip_equal(op.getOperands(), values))
    if (operand == same)
      return value;
  return std::nullopt;
}

std::optional<int64_t> mlir::obs::evaluateIntegerOp(
    Operation &op, ArrayRef<int64_t> values,
    llvm::function_ref<Attribute(Type, int64_t)> makeAttribute) {
  if (op.getNumResults() != 1 || !op.getResult(0).getType().isIntOrIndex() ||
      values.size() != op.getNumOperands())
    return std::nullopt;
  IntegerOpcode code = classifyIntegerOp(op);
  std::optional<int64_t> computed;
  if (code == IntegerOpcode::Fold) {
    computed = foldIntegerOp(op, values, makeAttribute);
  } else {
    // The width the direct cases read their operands at: a select's are
    // its second and third.
    Type operandType =
        op.getOperand(code == IntegerOpcode::Select ? 1 : 0).getType();
    if (!operandType.isIntOrIndex())
      return std::nullopt;
    computed = computeIntegerOpcode(code, getIntegerWidth(operandType), values);
  }
  if (!computed)
    return std::nullopt;
  return wrapToInteger(op.getResult(0).getType(), *computed);
}
