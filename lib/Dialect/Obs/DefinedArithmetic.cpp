//===- DefinedArithmetic.cpp - element code without undefined behaviour --===//

#include "Obs/Dialect/Obs/DefinedArithmetic.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/MemoryBytes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::obs;

namespace {

/// The width `type` computes in: an integer's, or index's 64 bits (the
/// width every target's code starts from; obs-gpu-index-width narrows
/// only what it proves fits).
unsigned getComputeWidth(Type type) {
  return ConstantIntRanges::getStorageBitwidth(type);
}

Value constantOf(OpBuilder &b, Location loc, Type type, const APInt &value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

Value constantOf(OpBuilder &b, Location loc, Type type, uint64_t value) {
  return constantOf(b, loc, type, APInt(getComputeWidth(type), value));
}

/// Replaces the uses of `result` by what `guard` makes of it, but the
/// guard's own, and returns that.
Value guardResult(OpBuilder &b, Value result,
                  llvm::function_ref<Value(Value)> guard) {
  OpBuilder::InsertionGuard insertion(b);
  b.setInsertionPointAfterValue(result);
  Value guarded = guard(result);
  result.replaceAllUsesExcept(guarded, guarded.getDefiningOp());
  return guarded;
}

/// x / 0 is 0 and x % 0 is x; MIN / -1 wraps to MIN and MIN % -1 is 0: the
/// op divides by 1 in both cases, and the quotient by
/// zero is replaced. Returns what stands for the result.
Value defineDivision(Operation *op) {
  Value dividend = op->getOperand(0), divisor = op->getOperand(1);
  Type type = divisor.getType();
  if (!type.isIntOrIndex())
    return op->getResult(0);
  bool isSigned = isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
                      arith::FloorDivSIOp>(op);
  APInt constant;
  bool known = matchPattern(divisor, m_ConstantInt(&constant));
  if (known && !constant.isZero() && !(isSigned && constant.isAllOnes()))
    return op->getResult(0);
  OpBuilder b(op);
  Location loc = op->getLoc();
  unsigned width = getComputeWidth(type);
  Value zero = constantOf(b, loc, type, 0);
  Value one = constantOf(b, loc, type, 1);
  Value byZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, divisor, zero);
  Value divideByOne = byZero;
  if (isSigned) {
    // Only MIN is its own negation among the values other than 0.
    Value minusOne = constantOf(b, loc, type, APInt::getAllOnes(width));
    Value negated = arith::SubIOp::create(b, loc, zero, dividend);
    Value isMin = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, negated,
                              dividend),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, dividend,
                              zero));
    Value overflows = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, divisor,
                              minusOne),
        isMin);
    divideByOne = arith::OrIOp::create(b, loc, byZero, overflows);
  }
  op->setOperand(1, arith::SelectOp::create(b, loc, divideByOne, one, divisor));
  bool isRemainder = isa<arith::RemSIOp, arith::RemUIOp>(op);
  return guardResult(b, op->getResult(0), [&](Value quotient) -> Value {
    return arith::SelectOp::create(b, loc, byZero,
                                   isRemainder ? dividend : zero, quotient);
  });
}

/// A shift by the width or more gives 0, or the sign for `shrsi`: the op
/// shifts by an amount in range, and a left or logical shift's result is
/// replaced. Returns what stands for the result.
Value defineShift(Operation *op) {
  Value amount = op->getOperand(1);
  Type type = amount.getType();
  if (!type.isIntOrIndex())
    return op->getResult(0);
  unsigned width = getComputeWidth(type);
  APInt constant;
  if (matchPattern(amount, m_ConstantInt(&constant)) && constant.ult(width))
    return op->getResult(0);
  OpBuilder b(op);
  Location loc = op->getLoc();
  // The amount clamped to width - 1 (an arithmetic shift's meaning past it)
  // rather than chosen by the result's compare: NVPTX folded that choice
  // into PTX's own clamping of shift amounts, but truncated a 64-bit amount
  // to 32 bits first, so that a shift by 2^32 shifted by 0 (found by
  // reading the PTX, in an adversarial run).
  op->setOperand(1, arith::MinUIOp::create(
                        b, loc, amount, constantOf(b, loc, type, width - 1)));
  if (isa<arith::ShRSIOp>(op))
    return op->getResult(0);
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, amount,
                            constantOf(b, loc, type, width));
  return guardResult(b, op->getResult(0), [&](Value shifted) -> Value {
    return arith::SelectOp::create(b, loc, inRange, shifted,
                                   constantOf(b, loc, type, 0));
  });
}

/// A float converts saturated, NaN to 0: the op converts the operand
/// clamped to the floats inside the integer type's range, and a float at or
/// past the type's bound gives the largest integer (at or below the
/// negative one, the least).
Value defineFloatToInteger(Operation *op) {
  Value input = op->getOperand(0);
  auto floatType = dyn_cast<FloatType>(input.getType());
  auto integerType = dyn_cast<IntegerType>(op->getResult(0).getType());
  if (!floatType || !integerType)
    return op->getResult(0);
  bool isSigned = isa<arith::FPToSIOp>(op);
  unsigned width = integerType.getWidth();
  const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
  // The least and largest floats that convert, rounded toward zero so that
  // they are inside the range (or the float type's largest finite).
  auto toFloat = [&](const APInt &bound, bool boundSigned,
                     APFloat::roundingMode rounding) {
    APFloat value(semantics);
    (void)value.convertFromAPInt(bound, boundSigned, rounding);
    return value;
  };
  APFloat least = toFloat(isSigned ? APInt::getSignedMinValue(width)
                                   : APInt::getZero(width),
                          isSigned, APFloat::rmTowardZero);
  APFloat most = toFloat(isSigned ? APInt::getSignedMaxValue(width)
                                  : APInt::getMaxValue(width),
                         isSigned, APFloat::rmTowardZero);
  // The type's bound (2^31 for i32, 2^8 for ui8): infinity where the float
  // type has no such number.
  APFloat bound =
      toFloat(APInt::getOneBitSet(width + 1, isSigned ? width - 1 : width),
              /*boundSigned=*/false, APFloat::rmNearestTiesToEven);
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto constantFloat = [&](const APFloat &value) -> Value {
    return arith::ConstantOp::create(b, loc, floatType,
                                     b.getFloatAttr(floatType, value));
  };
  Value clamped = arith::MinimumFOp::create(
      b, loc, arith::MaximumFOp::create(b, loc, input, constantFloat(least)),
      constantFloat(most));
  Value isNumber =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, input, input);
  op->setOperand(
      0, arith::SelectOp::create(b, loc, isNumber, clamped,
                                 constantFloat(APFloat::getZero(semantics))));
  Value atBound = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE,
                                        input, constantFloat(bound));
  APInt largest =
      isSigned ? APInt::getSignedMaxValue(width) : APInt::getMaxValue(width);
  // And at or past the negative bound, the least integer: a float type
  // without -2^31 (f16) clamped -inf to its least finite, -65504.
  Value atNegativeBound;
  if (isSigned)
    atNegativeBound = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE,
                                            input, constantFloat(-bound));
  Value guarded =
      guardResult(b, op->getResult(0), [&](Value converted) -> Value {
        // One use of `converted`: guardResult replaces every other.
        Value atEitherBound = atBound;
        Value boundValue = constantOf(b, loc, integerType, largest);
        if (atNegativeBound) {
          atEitherBound =
              arith::OrIOp::create(b, loc, atBound, atNegativeBound);
          boundValue = arith::SelectOp::create(
              b, loc, atNegativeBound,
              constantOf(b, loc, integerType, APInt::getSignedMinValue(width)),
              boundValue);
        }
        return arith::SelectOp::create(b, loc, atEitherBound, boundValue,
                                       converted);
      });
  // To an i1 through an i8 (the clamped float is 0 or 1, 0 or -1): NVPTX
  // converts a float to an i1 by comparing its bits with 0's, so that 1.0
  // gave false and 0.0 true (read in the PTX: an adversarial run).
  if (width == 1) {
    Value converted = op->getResult(0);
    converted.setType(b.getI8Type());
    b.setInsertionPointAfter(op);
    Value truncated = arith::TruncIOp::create(b, loc, integerType, converted);
    converted.replaceAllUsesExcept(truncated, truncated.getDefiningOp());
  }
  return guarded;
}

/// Makes `loop` run no iteration where its step is not positive (zero, or
/// negative under a signed comparison).
void defineLoopStep(scf::ForOp loop) {
  Value step = loop.getStep();
  APInt constant;
  bool isUnsigned = loop.getUnsignedCmp();
  if (matchPattern(step, m_ConstantInt(&constant)) &&
      (isUnsigned ? !constant.isZero() : constant.isStrictlyPositive()))
    return;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Type type = step.getType();
  Value zero = constantOf(b, loc, type, 0);
  Value positive = arith::CmpIOp::create(
      b, loc, isUnsigned ? arith::CmpIPredicate::ne : arith::CmpIPredicate::sgt,
      step, zero);
  loop.setUpperBound(arith::SelectOp::create(
      b, loc, positive, loop.getUpperBound(), loop.getLowerBound()));
  loop.setStep(arith::SelectOp::create(b, loc, positive, step,
                                       constantOf(b, loc, type, 1)));
}

/// minnumf and maxnumf of +0 and -0 may return either (LLVM's minnum), and
/// x86 chose by the surrounding code, so ref and cpu disagreed. Of equal
/// operands the result is their bits or'ed for the minimum (-0 where either
/// is -0) and and'ed for the maximum (+0 where either is +0); other equal
/// operands have the same bits. Returns what stands for the result.
Value defineZeroMinMax(Operation *op) {
  Value x = op->getOperand(0), y = op->getOperand(1);
  auto floatType = dyn_cast<FloatType>(x.getType());
  if (!floatType)
    return op->getResult(0);
  OpBuilder b(op);
  Location loc = op->getLoc();
  return guardResult(b, op->getResult(0), [&](Value result) -> Value {
    Type bits = b.getIntegerType(floatType.getWidth());
    Value xBits = arith::BitcastOp::create(b, loc, bits, x);
    Value yBits = arith::BitcastOp::create(b, loc, bits, y);
    Value ofEqual =
        isa<arith::MinNumFOp>(op)
            ? arith::OrIOp::create(b, loc, xBits, yBits).getResult()
            : arith::AndIOp::create(b, loc, xBits, yBits).getResult();
    Value equal =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
    return arith::SelectOp::create(
        b, loc, equal, arith::BitcastOp::create(b, loc, floatType, ofEqual),
        result);
  });
}

} // namespace

std::optional<Value> mlir::obs::takePoisonOut(Operation *op) {
  if (auto poison = dyn_cast<ub::PoisonOp>(op)) {
    // Poison may be refined to any value: 0.
    Type type = poison.getType();
    if (!type.isIntOrIndexOrFloat())
      return std::nullopt;
    OpBuilder b(op);
    Value zero =
        arith::ConstantOp::create(b, op->getLoc(), type, b.getZeroAttr(type));
    poison.getResult().replaceAllUsesWith(zero);
    op->erase();
    return zero;
  }
  // Integers wrap: what overflow flags and `exact` would make poison is the
  // wrapped (or rounded) value. Fast-math flags (`nnan`, `ninf`) make a
  // NaN or an infinity poison too, and let folds assume there is none.
  if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op);
      flags &&
      flags.getOverflowAttr().getValue() != arith::IntegerOverflowFlags::none)
    op->setAttr(flags.getIntegerOverflowAttrName(),
                arith::IntegerOverflowFlagsAttr::get(
                    op->getContext(), arith::IntegerOverflowFlags::none));
  if (auto fastMath = dyn_cast<arith::ArithFastMathInterface>(op);
      fastMath && fastMath.getFastMathFlagsAttr() &&
      fastMath.getFastMathFlagsAttr().getValue() != arith::FastMathFlags::none)
    op->setAttr(fastMath.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(op->getContext(),
                                              arith::FastMathFlags::none));
  llvm::TypeSwitch<Operation *>(op)
      .Case<arith::DivSIOp, arith::DivUIOp, arith::ShRSIOp, arith::ShRUIOp>(
          [](auto exact) { exact.setIsExact(false); });
  return std::nullopt;
}

StringRef mlir::obs::getUnhonouredRoundingMode(Operation *op) {
  auto mode = op->getAttrOfType<arith::RoundingModeAttr>("roundingmode");
  if (!mode || mode.getValue() == arith::RoundingMode::to_nearest_even)
    return "";
  return arith::stringifyRoundingMode(mode.getValue());
}

std::string mlir::obs::findInexactMemRef(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  if (!memref || hasExactByteSize(memref.getElementType()))
    return "";
  std::string element;
  llvm::raw_string_ostream(element) << memref.getElementType();
  return "holds elements of " + element +
         ", which take other bytes in memory than obs counts: use integers "
         "and floats of 8, 16, 32 or 64 bits, or vectors of a power of two "
         "bytes";
}

std::string mlir::obs::findUndefinedView(Operation *op) {
  auto view = dyn_cast<memref::ViewOp>(op);
  if (!view)
    return "";
  auto integer = dyn_cast<IntegerType>(
      getElementTypeOrSelf(view.getType().getElementType()));
  if (!integer || integer.getWidth() % 8 == 0)
    return "";
  if (integer.getWidth() == 1)
    return "views bytes as i1, which no target defines for a byte other than "
           "0 or 1: view them as i8 and compare with 0";
  return "views bytes as i" + std::to_string(integer.getWidth()) +
         ", whose bits past its width no target defines: view them as whole "
         "bytes and truncate";
}

/// The ops defineArithmetic defines, by kind.
static bool isDivision(Operation *op) {
  return isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
             arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op);
}
static bool isShift(Operation *op) {
  return isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op);
}
static bool isFloatToInteger(Operation *op) {
  return isa<arith::FPToSIOp, arith::FPToUIOp>(op);
}
static bool isZeroMinMax(Operation *op) {
  return isa<arith::MinNumFOp, arith::MaxNumFOp>(op);
}

bool mlir::obs::hasDefinedMeaning(Operation *op) {
  return isDivision(op) || isShift(op) || isFloatToInteger(op) ||
         isZeroMinMax(op);
}

SmallVector<Value> mlir::obs::defineArithmetic(Operation *op) {
  if (std::optional<Value> zero = takePoisonOut(op))
    return {*zero};
  if (isDivision(op))
    return {defineDivision(op)};
  if (isShift(op))
    return {defineShift(op)};
  if (isFloatToInteger(op))
    return {defineFloatToInteger(op)};
  if (isZeroMinMax(op))
    return {defineZeroMinMax(op)};
  return SmallVector<Value>(op->getResults());
}

void mlir::obs::defineLoop(scf::ForOp loop) {
  OpBuilder b(loop);
  DefinedLoop defined = buildDefinedLoop(
      b, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
      loop.getStep(), loop.getInitArgs(), loop.getUnsignedCmp());
  Block *body = defined.loop.getBody();
  if (!body->empty() && isa<scf::YieldOp>(body->back()))
    body->back().erase();
  b.setInsertionPointToStart(body);
  Value counter =
      getDefinedCounter(b, defined, loop.getInductionVar().getType());
  Block *old = loop.getBody();
  loop.getInductionVar().replaceAllUsesWith(counter);
  for (auto [from, to] : llvm::zip_equal(loop.getRegionIterArgs(),
                                         defined.loop.getRegionIterArgs()))
    from.replaceAllUsesWith(to);
  body->getOperations().splice(body->end(), old->getOperations());
  loop.replaceAllUsesWith(defined.loop.getResults());
  loop.erase();
}

void mlir::obs::defineIndexSwitch(scf::IndexSwitchOp op) {
  ArrayRef<int64_t> cases = op.getCases();
  if (cases.empty())
    return;
  Location loc = op.getLoc();
  TypeRange types = op.getResultTypes();
  OpBuilder builder(op);
  scf::IfOp outermost;
  for (auto [index, value] : llvm::enumerate(cases)) {
    Value equal = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, op.getArg(),
        arith::ConstantIndexOp::create(builder, loc, value));
    auto ifOp = scf::IfOp::create(builder, loc, types, equal,
                                  /*withElseRegion=*/true);
    if (outermost)
      scf::YieldOp::create(builder, loc, ifOp.getResults());
    else
      outermost = ifOp;
    Region &thenRegion = ifOp.getThenRegion();
    thenRegion.getBlocks().clear();
    thenRegion.takeBody(op.getCaseRegions()[index]);
    Region &elseRegion = ifOp.getElseRegion();
    elseRegion.getBlocks().clear();
    if (index + 1 == cases.size()) {
      elseRegion.takeBody(op.getDefaultRegion());
      break;
    }
    builder.setInsertionPointToStart(builder.createBlock(&elseRegion));
  }
  op.replaceAllUsesWith(outermost.getResults());
  op.erase();
}

void mlir::obs::defineOp(Operation *op, bool divisorChecked) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    defineLoop(loop);
  else if (auto indexSwitch = dyn_cast<scf::IndexSwitchOp>(op))
    defineIndexSwitch(indexSwitch);
  else if (divisorChecked)
    (void)takePoisonOut(op);
  else
    (void)defineArithmetic(op);
}

void mlir::obs::defineNestedArithmetic(Operation *op) {
  SmallVector<Operation *> nested;
  for (Region &region : op->getRegions())
    region.walk([&](Operation *inner) { nested.push_back(inner); });
  for (Operation *inner : nested)
    if (auto loop = dyn_cast<scf::ForOp>(inner))
      defineLoop(loop);
    else
      (void)defineArithmetic(inner);
}

/// Whether a loop of a 64-bit counter from `upper` by `step` is known to
/// stop before its counter steps past the type's largest value: a step of
/// 1, or constant bounds that leave room for one more step.
static bool cannotStepPastWidth(Value upper, Value step, bool isUnsigned) {
  APInt stepValue, upperValue;
  if (!matchPattern(step, m_ConstantInt(&stepValue)) ||
      !(isUnsigned ? !stepValue.isZero() : stepValue.isStrictlyPositive()))
    return false;
  if (stepValue.isOne())
    return true;
  if (!matchPattern(upper, m_ConstantInt(&upperValue)))
    return false;
  // The last counter is below `upper`; the next is at most upper - 1 +
  // step, which must not overflow.
  bool overflow = false;
  APInt one(upperValue.getBitWidth(), 1);
  APInt last = isUnsigned ? upperValue.usub_ov(one, overflow)
                          : upperValue.ssub_ov(one, overflow);
  if (overflow)
    return true; // No counter is below the smallest value: no iteration.
  (void)(isUnsigned ? last.uadd_ov(stepValue, overflow)
                    : last.sadd_ov(stepValue, overflow));
  return !overflow;
}

DefinedLoop mlir::obs::buildDefinedLoop(OpBuilder &builder, Location loc,
                                        Value lower, Value upper, Value step,
                                        ValueRange inits, bool isUnsigned) {
  // The lowering stops only at ub: a narrow counter that steps past its
  // type's largest value would wrap and go on. In i64 it cannot.
  if (getComputeWidth(lower.getType()) <= 32) {
    Type wide = builder.getI64Type();
    auto widen = [&](Value bound) -> Value {
      if (isUnsigned)
        return arith::ExtUIOp::create(builder, loc, wide, bound);
      return arith::ExtSIOp::create(builder, loc, wide, bound);
    };
    lower = widen(lower);
    upper = widen(upper);
    step = widen(step);
    isUnsigned = false;
  } else if (!cannotStepPastWidth(upper, step, isUnsigned)) {
    // A 64-bit counter has no wider type to count in: the loop counts its
    // trips instead, ceil((ub - lb) / step) as unsigned (the distance of
    // two 64-bit bounds fits), from 0 by 1, and the counter is
    // lb + i step. No trip count steps past the type.
    Type type = lower.getType();
    Value zero = constantOf(builder, loc, type, 0);
    Value one = constantOf(builder, loc, type, 1);
    Value positive = arith::CmpIOp::create(
        builder, loc,
        isUnsigned ? arith::CmpIPredicate::ne : arith::CmpIPredicate::sgt, step,
        zero);
    Value below = arith::CmpIOp::create(builder, loc,
                                        isUnsigned ? arith::CmpIPredicate::ult
                                                   : arith::CmpIPredicate::slt,
                                        lower, upper);
    Value runs = arith::AndIOp::create(builder, loc, positive, below);
    Value safeStep = arith::SelectOp::create(builder, loc, positive, step, one);
    Value distance = arith::SubIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, upper, lower), one);
    Value trips = arith::AddIOp::create(
        builder, loc, arith::DivUIOp::create(builder, loc, distance, safeStep),
        one);
    trips = arith::SelectOp::create(builder, loc, runs, trips, zero);
    auto loop = scf::ForOp::create(builder, loc, zero, trips, one, inits,
                                   /*bodyBuilder=*/nullptr,
                                   /*unsignedCmp=*/true);
    return {loop, lower, safeStep};
  }
  auto loop = scf::ForOp::create(builder, loc, lower, upper, step, inits,
                                 /*bodyBuilder=*/nullptr, isUnsigned);
  defineLoopStep(loop);
  return {loop, Value(), Value()};
}

Value mlir::obs::getDefinedCounter(OpBuilder &builder,
                                   const DefinedLoop &defined, Type type) {
  scf::ForOp loop = defined.loop;
  Location loc = loop.getLoc();
  Value counter = loop.getInductionVar();
  if (defined.tripLower)
    counter = arith::AddIOp::create(
        builder, loc, defined.tripLower,
        arith::MulIOp::create(builder, loc, counter, defined.tripStep));
  if (counter.getType() == type)
    return counter;
  return arith::TruncIOp::create(builder, loc, type, counter);
}

std::optional<ConstantIntRanges>
mlir::obs::inferDivisionByZeroRange(Operation *op,
                                    ArrayRef<ConstantIntRanges> operands) {
  if (!isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp, arith::DivSIOp,
           arith::RemSIOp, arith::CeilDivSIOp, arith::FloorDivSIOp>(op) ||
      operands.size() != 2 || !operands[1].umin().isZero())
    return std::nullopt;
  unsigned width = operands[0].umax().getBitWidth();
  if (!isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op))
    return ConstantIntRanges::maxRange(width);
  // x div d and x rem d are at most x for every d above 0, and obs's
  // x div 0 = 0 and x rem 0 = x are too; x ceildiv d is at most x where d
  // is above 0.
  return ConstantIntRanges::fromUnsigned(APInt::getZero(width),
                                         operands[0].umax());
}

std::optional<ConstantIntRanges> mlir::obs::inferIntegerRange(
    Value value,
    function_ref<std::optional<ConstantIntRanges>(Value)> leafRange,
    unsigned depth) {
  unsigned width = ConstantIntRanges::getStorageBitwidth(value.getType());
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return ConstantIntRanges::constant(constant.sextOrTrunc(width));
  if (std::optional<ConstantIntRanges> leaf = leafRange(value))
    return leaf;
  auto inferring = value.getDefiningOp<InferIntRangeInterface>();
  if (!inferring || depth == 0 || inferring->getNumRegions())
    return std::nullopt;
  SmallVector<ConstantIntRanges> operands;
  for (Value operand : inferring->getOperands()) {
    if (!operand.getType().isIntOrIndex())
      return std::nullopt;
    std::optional<ConstantIntRanges> range =
        inferIntegerRange(operand, leafRange, depth - 1);
    if (!range)
      return std::nullopt;
    operands.push_back(*range);
  }
  // obs's meaning of a division by zero, which arith's inference leaves
  // out (its `x remui [0, 7]` is at most 6, where obs's 8 remui 0 is 8: a
  // law of obs's canonicalization then took a read outside an array for
  // one inside, found by an adversarial run against the spec).
  if (std::optional<ConstantIntRanges> byZero =
          inferDivisionByZeroRange(inferring, operands))
    return byZero;
  std::optional<ConstantIntRanges> result;
  inferring.inferResultRanges(operands,
                              [&](Value produced, const ConstantIntRanges &r) {
                                if (produced == value)
                                  result = r;
                              });
  return result;
}
