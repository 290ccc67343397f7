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
