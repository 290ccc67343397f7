//===- SymbolicValues.cpp - integer values as quasi-affine pieces ---------===//

#include "SymbolicValues.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Support/IntegerEvaluation.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::symbolic;

const Symbolic &SymbolicValues::valueOf(Value value) {
  auto it = values.find(value.getAsOpaquePointer());
  if (it != values.end())
    return it->second;
  // A value from outside the function, or a block argument the walk did
  // not bind (a kernel's scalar argument): data, as the simulation has it.
  Symbolic result = data();
  if (value.getType().isIntOrIndex())
    if (auto argument = dyn_cast<BlockArgument>(value);
        argument && argument.getOwner()->getParentOp() != func)
      result = unsupported(argument.getOwner()->getParentOp());
  return values[key(value)] = std::move(result);
}

Symbolic SymbolicValues::combine(
    Operation &op, const Symbolic &a, const Symbolic &b,
    llvm::function_ref<AffineExpr(AffineExpr, AffineExpr)> combineExprs) {
  if (a.unsupported)
    return unsupported(a.unsupported);
  if (b.unsupported)
    return unsupported(b.unsupported);
  Symbolic result;
  for (const Piece &x : a.pieces)
    for (const Piece &y : b.pieces) {
      std::optional<Conjunction> conditions =
          conjoin(x.conditions, y.conditions);
      if (!conditions)
        continue;
      AffineExpr expr;
      if (x.expr && y.expr) {
        expr = combineExprs(x.expr, y.expr);
        if (!expr)
          return unsupported(&op);
      }
      result.pieces.push_back({std::move(*conditions), expr});
      if (result.pieces.size() > kMaxPieces)
        return unsupported(&op);
    }
  return result;
}

bool SymbolicValues::isNonNegative(AffineExpr expr,
                                   ArrayRef<Constraint> conditions) {
  if (rangeOf(expr).lo >= 0)
    return true;
  // Negative for no thread that computes it: in none of the cases that
  // run the op.
  for (const Conjunction &where : currentPath) {
    std::optional<Conjunction> negative = conjoin(where, conditions);
    if (!negative)
      continue;
    addDomain(*negative, 0);
    negative->push_back({-expr - 1, false});
    if (isSatisfiable(*negative, 1 + getNumLoops()))
      return false;
  }
  return true;
}

SmallVector<Conjunction> SymbolicValues::casesWhere(const Symbolic &condition,
                                                    bool truth,
                                                    bool dataEitherWay) {
  SmallVector<Conjunction> cases;
  for (const Piece &piece : condition.pieces) {
    // Data may be either, and so may an expression (which no boolean
    // should be).
    if (!piece.expr && !dataEitherWay)
      continue;
    auto value = dyn_cast_if_present<AffineConstantExpr>(piece.expr);
    if (!value || (value.getValue() != 0) == truth)
      cases.push_back(piece.conditions);
  }
  return cases;
}

Symbolic SymbolicValues::evaluateCompare(arith::CmpIOp compare) {
  Symbolic result = evaluateComparison(compare);
  if (result.unsupported ||
      !ObsDialect::IndexBoundsAttrHelper(context).isAttrPresent(compare))
    return result;
  // An obs.index's bounds check: the simulation requires it to hold in
  // every thread that runs it (a read outside the array is the program's
  // error). Where no thread can fail it, it is true, and its select's
  // other choice is never made.
  for (const Conjunction &where : casesWhere(result, false)) {
    for (const Conjunction &path : currentPath) {
      std::optional<Conjunction> failing = conjoin(path, where);
      if (!failing)
        continue;
      addDomain(*failing, 0);
      if (isSatisfiable(*failing, 1 + getNumLoops()))
        return result;
    }
  }
  return constant(1);
}

Symbolic SymbolicValues::evaluateComparison(arith::CmpIOp compare) {
  const Symbolic &a = valueOf(compare.getLhs());
  const Symbolic &b = valueOf(compare.getRhs());
  if (a.unsupported || b.unsupported)
    return unsupported(a.unsupported ? a.unsupported : b.unsupported);
  using Predicate = arith::CmpIPredicate;
  Predicate predicate = compare.getPredicate();
  bool isUnsigned = predicate == Predicate::ult ||
                    predicate == Predicate::ule ||
                    predicate == Predicate::ugt || predicate == Predicate::uge;
  Symbolic result;
  AffineExpr one = getAffineConstantExpr(1, context);
  AffineExpr zero = getAffineConstantExpr(0, context);
  for (const Piece &x : a.pieces)
    for (const Piece &y : b.pieces) {
      std::optional<Conjunction> conditions =
          conjoin(x.conditions, y.conditions);
      if (!conditions)
        continue;
      if (!x.expr || !y.expr) {
        result.pieces.push_back({std::move(*conditions), AffineExpr()});
        continue;
      }
      // Two constants compare as the simulation computes them, at their
      // width (a -1 is the greatest unsigned value).
      auto left = dyn_cast<AffineConstantExpr>(x.expr);
      auto right = dyn_cast<AffineConstantExpr>(y.expr);
      if (left && right) {
        std::optional<int64_t> value =
            evaluateIntegerOp(*compare, {left.getValue(), right.getValue()});
        result.pieces.push_back(
            {std::move(*conditions),
             value ? getAffineConstantExpr(*value, context) : AffineExpr()});
        continue;
      }
      // Unsigned compares mean the signed ones where both sides are
      // non-negative.
      if (isUnsigned && (!isNonNegative(x.expr, *conditions) ||
                         !isNonNegative(y.expr, *conditions)))
        return unsupported(compare);
      AffineExpr less = y.expr - x.expr - 1; // x < y  iff  less >= 0
      AffineExpr greater = x.expr - y.expr - 1;
      AffineExpr atMost = y.expr - x.expr, atLeast = x.expr - y.expr;
      // The cases, each a constraint and the compare's value there.
      SmallVector<std::pair<Constraint, AffineExpr>, 3> cases;
      switch (predicate) {
      case Predicate::eq:
      case Predicate::ne: {
        bool eq = predicate == Predicate::eq;
        cases = {{{atLeast, true}, eq ? one : zero},
                 {{less, false}, eq ? zero : one},
                 {{greater, false}, eq ? zero : one}};
        break;
      }
      case Predicate::slt:
      case Predicate::ult:
        cases = {{{less, false}, one}, {{atLeast, false}, zero}};
        break;
      case Predicate::sle:
      case Predicate::ule:
        cases = {{{atMost, false}, one}, {{greater, false}, zero}};
        break;
      case Predicate::sgt:
      case Predicate::ugt:
        cases = {{{greater, false}, one}, {{atMost, false}, zero}};
        break;
      case Predicate::sge:
      case Predicate::uge:
        cases = {{{atLeast, false}, one}, {{less, false}, zero}};
        break;
      }
      for (auto &[constraint, value] : cases) {
        std::optional<Conjunction> where = conjoin(*conditions, constraint);
        if (where)
          result.pieces.push_back({std::move(*where), value});
      }
      if (result.pieces.size() > kMaxPieces)
        return unsupported(compare);
    }
  return result;
}

Symbolic SymbolicValues::evaluateBits(Operation &op, const Symbolic &value,
                                      uint64_t mask) {
  // x & m, x | m and x ^ m, for a non-negative x, are sums of x's bits
  // (x floordiv 2^b) mod 2 at the bits b of m.
  if (value.unsupported)
    return unsupported(value.unsupported);
  APInt ignored;
  bool maskFirst = !matchPattern(op.getOperand(1), m_ConstantInt(&ignored));
  Symbolic result;
  for (const Piece &piece : value.pieces) {
    if (!piece.expr) {
      result.pieces.push_back(piece);
      continue;
    }
    // A constant is computed as the simulation computes it.
    if (auto known = dyn_cast<AffineConstantExpr>(piece.expr)) {
      int64_t x = known.getValue(), m = static_cast<int64_t>(mask);
      std::optional<int64_t> computed = evaluateIntegerOp(
          op, maskFirst ? ArrayRef<int64_t>{m, x} : ArrayRef<int64_t>{x, m});
      result.pieces.push_back(
          {piece.conditions, computed
                                 ? getAffineConstantExpr(*computed, context)
                                 : AffineExpr()});
      continue;
    }
    if (static_cast<int64_t>(mask) < 0 ||
        (llvm::popcount(mask) > 8 && !llvm::isMask_64(mask)))
      return unsupported(&op);
    if (!isNonNegative(piece.expr, piece.conditions))
      return unsupported(&op);
    AffineExpr x = piece.expr, expr;
    if (isa<arith::AndIOp>(op) && llvm::isMask_64(mask)) {
      // All 63 low bits keep a non-negative x whole (2^63 is no modulus).
      expr = mask == uint64_t(INT64_MAX)
                 ? x
                 : modBy(x, static_cast<int64_t>(mask + 1));
    } else {
      expr = isa<arith::AndIOp>(op) ? getAffineConstantExpr(0, context) : x;
      for (unsigned bit = 0; bit < 63; ++bit) {
        if (!(mask >> bit & 1))
          continue;
        int64_t weight = int64_t(1) << bit;
        AffineExpr set = modBy(floorDivBy(x, weight), 2);
        if (isa<arith::AndIOp>(op))
          expr = expr + set * weight;
        else if (isa<arith::OrIOp>(op))
          expr = expr + (1 - set) * weight;
        else
          expr = expr + (1 - set * 2) * weight;
      }
    }
    result.pieces.push_back({piece.conditions, expr});
  }
  return result;
}

std::optional<Symbolic> SymbolicValues::evaluateGPUOrMemory(Operation &op) {
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
    if (id.getDimension() != gpu::Dimension::x)
      return constant(0);
    Symbolic result;
    result.pieces.push_back({{}, thread});
    return result;
  }
  // As in the simulation: the lowering addresses global memory for block
  // 0; the block index the kernel's own code computes with is any.
  if (isa<gpu::BlockIdOp>(op))
    return ObsDialect::DataAttrHelper(context).isAttrPresent(&op) ? data()
                                                                  : constant(0);
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
    return constant(dim.getDimension() == gpu::Dimension::x ? threads : 1);
  if (isa<memref::LoadOp>(op)) {
    // A constant table's entries are known to the simulation.
    auto get = cast<memref::LoadOp>(op)
                   .getMemRef()
                   .getDefiningOp<memref::GetGlobalOp>();
    return get ? unsupported(&op) : data();
  }
  // A shuffle's value is data whatever its lanes, as the simulation has
  // it; so is poison.
  if (isa<NVVM::ShflOp, gpu::ShuffleOp, ub::PoisonOp>(op))
    return data();

  return std::nullopt;
}

Symbolic SymbolicValues::evaluateCases(Operation &op) {
  // Case by case over the operands' pieces: data where an operand is, and
  // computed as the simulation computes it where all are constants. A case
  // of an expression the op's meaning is not known for leaves it
  // unexpressed.
  Symbolic result;
  result.pieces.push_back({{}, AffineExpr()});
  SmallVector<SmallVector<int64_t, 2>> values = {{}};
  SmallVector<bool> isData = {false}, isExpression = {false};
  for (Value operand : op.getOperands()) {
    const Symbolic &known = valueOf(operand);
    if (known.unsupported)
      return unsupported(known.unsupported);
    Symbolic next;
    SmallVector<SmallVector<int64_t, 2>> nextValues;
    SmallVector<bool> nextIsData, nextIsExpression;
    for (auto [index, piece] : llvm::enumerate(result.pieces))
      for (const Piece &operandPiece : known.pieces) {
        std::optional<Conjunction> both =
            conjoin(piece.conditions, operandPiece.conditions);
        if (!both)
          continue;
        auto constant =
            dyn_cast_if_present<AffineConstantExpr>(operandPiece.expr);
        next.pieces.push_back({std::move(*both), AffineExpr()});
        nextValues.push_back(values[index]);
        nextValues.back().push_back(constant ? constant.getValue() : 0);
        nextIsData.push_back(isData[index] || !operandPiece.expr);
        nextIsExpression.push_back(isExpression[index] ||
                                   (operandPiece.expr && !constant));
        if (next.pieces.size() > kMaxPieces)
          return unsupported(&op);
      }
    result = std::move(next);
    values = std::move(nextValues);
    isData = std::move(nextIsData);
    isExpression = std::move(nextIsExpression);
  }
  for (auto [index, piece] : llvm::enumerate(result.pieces)) {
    if (isData[index])
      continue;
    if (isExpression[index])
      return unsupported(&op);
    if (std::optional<int64_t> computed = evaluateIntegerOp(op, values[index]))
      piece.expr = getAffineConstantExpr(*computed, context);
  }
  return result;
}

Symbolic SymbolicValues::choose(Operation *op, const Symbolic &condition,
                                const Symbolic &ifTrue, const Symbolic &ifFalse,
                                bool needsBoth) {
  for (const Symbolic *known : {&condition, &ifTrue, &ifFalse})
    if (known->unsupported)
      return unsupported(known->unsupported);
  Symbolic chosen;
  // Where the condition is data, so is the value: a select of -1 or data
  // kept its -1 unconditioned, and a store under `p ult 4` seemed to reach
  // place -1 (hunt 27: the radix sort's scatter, found by the cross-check).
  for (const Piece &data : condition.pieces)
    if (!data.expr)
      chosen.pieces.push_back({data.conditions, AffineExpr()});
  for (bool truth : {true, false})
    for (const Conjunction &where : casesWhere(condition, truth, false))
      for (const Piece &piece : (truth ? ifTrue : ifFalse).pieces) {
        std::optional<Conjunction> both = conjoin(where, piece.conditions);
        if (!both)
          continue;
        if (!needsBoth) {
          chosen.pieces.push_back({std::move(*both), piece.expr});
          continue;
        }
        for (const Piece &other : (truth ? ifFalse : ifTrue).pieces)
          if (std::optional<Conjunction> all = conjoin(*both, other.conditions))
            chosen.pieces.push_back(
                {std::move(*all), other.expr ? piece.expr : AffineExpr()});
      }
  if (chosen.pieces.size() > kMaxPieces)
    return unsupported(op);
  return chosen;
}

Symbolic SymbolicValues::evaluateSelect(arith::SelectOp select) {
  return choose(select, valueOf(select.getCondition()),
                valueOf(select.getTrueValue()), valueOf(select.getFalseValue()),
                /*needsBoth=*/true);
}

Symbolic SymbolicValues::evaluateMinMax(Operation &op) {
  bool isMin = isa<arith::MinSIOp, arith::MinUIOp>(op);
  bool isUnsigned = isa<arith::MinUIOp, arith::MaxUIOp>(op);
  const Symbolic &a = valueOf(op.getOperand(0)), &b = valueOf(op.getOperand(1));
  if (a.unsupported || b.unsupported)
    return unsupported(a.unsupported ? a.unsupported : b.unsupported);
  Symbolic chosen;
  for (const Piece &x : a.pieces)
    for (const Piece &y : b.pieces) {
      std::optional<Conjunction> both = conjoin(x.conditions, y.conditions);
      if (!both)
        continue;
      if (!x.expr || !y.expr) {
        chosen.pieces.push_back({std::move(*both), AffineExpr()});
        continue;
      }
      if (isUnsigned &&
          (!isNonNegative(x.expr, *both) || !isNonNegative(y.expr, *both)))
        return unsupported(&op);
      // x where x <= y for a min (x >= y for a max), else y.
      AffineExpr xFirst = isMin ? y.expr - x.expr : x.expr - y.expr;
      if (auto whereX = conjoin(*both, Constraint{xFirst, false}))
        chosen.pieces.push_back({std::move(*whereX), x.expr});
      if (auto whereY = conjoin(*both, Constraint{-xFirst - 1, false}))
        chosen.pieces.push_back({std::move(*whereY), y.expr});
    }
  if (chosen.pieces.size() > kMaxPieces)
    return unsupported(&op);
  return chosen;
}

Symbolic SymbolicValues::evaluate(Operation &op) {
  Value resultValue = op.getResult(0);
  Type type = resultValue.getType();
  if (!type.isIntOrIndex())
    return data();
  // Symbolic values are 64-bit, as the simulation's are (IntegerEvaluation.h):
  // a wider integer's value, or one computed from one, is not followed.
  if (!isEvaluatedIntegerType(type) ||
      llvm::any_of(op.getOperandTypes(), [](Type operand) {
        return operand.isIntOrIndex() && !isEvaluatedIntegerType(operand);
      }))
    return unsupported(&op);
  APInt constantValue;
  if (matchPattern(resultValue, m_ConstantInt(&constantValue)))
    return constant(type.isInteger(1)
                        ? static_cast<int64_t>(constantValue.getZExtValue())
                        : constantValue.getSExtValue());
  if (std::optional<Symbolic> known = evaluateGPUOrMemory(op))
    return *known;

  // Integer arithmetic. What is not quasi-affine is taken case by case
  // (evaluateCases): data in, data out.
  auto operand = [&](unsigned i) -> const Symbolic & {
    return valueOf(op.getOperand(i));
  };
  auto constantOperand = [&](unsigned i) -> std::optional<int64_t> {
    APInt value;
    if (matchPattern(op.getOperand(i), m_ConstantInt(&value)))
      return value.getSExtValue();
    return std::nullopt;
  };
  auto binary = [&](auto combineExprs) {
    return combine(op, operand(0), operand(1), combineExprs);
  };
  auto byConstant = [&](bool needsNonNegative, auto apply) -> Symbolic {
    std::optional<int64_t> divisor = constantOperand(1);
    if (!divisor || *divisor <= 0)
      return evaluateCases(op);
    return mapExpressions(
        op, operand(0),
        [&](AffineExpr x, ArrayRef<Constraint> conditions) -> AffineExpr {
          if (needsNonNegative && !isNonNegative(x, conditions))
            return AffineExpr();
          return apply(x, *divisor);
        });
  };

  bool isBoolean = type.isInteger(1);
  unsigned width = getIntegerWidth(type);
  Symbolic result =
      llvm::TypeSwitch<Operation *, Symbolic>(&op)
          .Case<arith::AddIOp>([&](auto) {
            return truncated(
                op, binary([](AffineExpr a, AffineExpr b) { return a + b; }),
                width);
          })
          .Case<arith::SubIOp>([&](auto) {
            return truncated(
                op, binary([](AffineExpr a, AffineExpr b) { return a - b; }),
                width);
          })
          .Case<arith::MulIOp>([&](auto) {
            return truncated(op, binary([](AffineExpr a, AffineExpr b) {
                               if (isa<AffineConstantExpr>(a) ||
                                   isa<AffineConstantExpr>(b))
                                 return a * b;
                               return AffineExpr();
                             }),
                             width);
          })
          .Case<arith::DivUIOp, arith::DivSIOp>([&](auto) {
            return byConstant(true, [&](AffineExpr x, int64_t d) {
              return floorDivBy(x, d);
            });
          })
          .Case<arith::FloorDivSIOp>([&](auto) {
            return byConstant(false, [&](AffineExpr x, int64_t d) {
              return floorDivBy(x, d);
            });
          })
          .Case<arith::CeilDivUIOp>([&](auto) {
            return byConstant(
                true, [](AffineExpr x, int64_t d) { return x.ceilDiv(d); });
          })
          .Case<arith::RemUIOp, arith::RemSIOp>([&](auto) {
            return byConstant(
                true, [&](AffineExpr x, int64_t d) { return modBy(x, d); });
          })
          .Case<arith::ShLIOp>([&](auto) -> Symbolic {
            std::optional<int64_t> shift = constantOperand(1);
            if (!shift || *shift < 0 || *shift >= std::min(width, 63u))
              return evaluateCases(op);
            return truncated(op,
                             byConstant(false,
                                        [&](AffineExpr x, int64_t) {
                                          return x * (int64_t(1) << *shift);
                                        }),
                             width);
          })
          .Case<arith::ShRUIOp, arith::ShRSIOp>([&](auto) -> Symbolic {
            std::optional<int64_t> shift = constantOperand(1);
            if (!shift || *shift < 0 || *shift >= std::min(width, 63u))
              return evaluateCases(op);
            return byConstant(isa<arith::ShRUIOp>(op),
                              [&](AffineExpr x, int64_t) {
                                return floorDivBy(x, int64_t(1) << *shift);
                              });
          })
          .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(
              [&](auto) -> Symbolic {
                // Booleans are constants or data in every case.
                if (isBoolean)
                  return evaluateCases(op);
                for (unsigned side : {1u, 0u})
                  if (std::optional<int64_t> mask = constantOperand(side))
                    return evaluateBits(op, operand(1 - side),
                                        static_cast<uint64_t>(*mask));
                return evaluateCases(op);
              })
          .Case<arith::CmpIOp>(
              [&](arith::CmpIOp compare) { return evaluateCompare(compare); })
          .Case<arith::SelectOp>(
              [&](arith::SelectOp select) { return evaluateSelect(select); })
          .Case<arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp, arith::MaxUIOp>(
              [&](auto) { return evaluateMinMax(op); })
          .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::TruncIOp,
                arith::ExtUIOp, arith::ExtSIOp>([&](auto) -> Symbolic {
            // A cast to fewer bits truncates; to more, extends.
            unsigned from = getIntegerWidth(op.getOperand(0).getType());
            if (width < from)
              return truncated(op, operand(0), width);
            if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
              return zeroExtended(op, operand(0), from);
            return signExtended(op, operand(0), from);
          })
          .Default([&](Operation *) { return evaluateCases(op); });
  return result;
}

Symbolic SymbolicValues::mapExpressions(
    Operation &op, const Symbolic &value,
    function_ref<AffineExpr(AffineExpr, ArrayRef<Constraint>)> apply) {
  if (value.unsupported)
    return value;
  Symbolic result;
  for (const Piece &piece : value.pieces) {
    AffineExpr expr = piece.expr;
    if (expr && !(expr = apply(expr, piece.conditions)))
      return unsupported(&op);
    result.pieces.push_back({piece.conditions, expr});
  }
  return result;
}

Symbolic SymbolicValues::truncated(Operation &op, const Symbolic &value,
                                   unsigned width) {
  // Booleans are constants or data in every case.
  if (width == 1 && !value.unsupported)
    return evaluateCases(op);
  return mapExpressions(op, value, [&](AffineExpr expr, auto) -> AffineExpr {
    if (auto known = dyn_cast<AffineConstantExpr>(expr))
      return getAffineConstantExpr(wrapToWidth(width, known.getValue()),
                                   context);
    if (width >= 64)
      return rangeOf(expr).isFinite() ? expr : AffineExpr();
    int64_t half = int64_t(1) << (width - 1);
    return modBy(expr + half, 2 * half) - half;
  });
}

Symbolic SymbolicValues::zeroExtended(Operation &op, const Symbolic &value,
                                      unsigned width) {
  if (width >= 64)
    return value;
  return mapExpressions(op, value, [&](AffineExpr expr, auto) -> AffineExpr {
    if (auto known = dyn_cast<AffineConstantExpr>(expr))
      return getAffineConstantExpr(
          static_cast<int64_t>(detail::asUnsigned(known.getValue(), width)),
          context);
    return modBy(expr, int64_t(1) << width);
  });
}

Symbolic SymbolicValues::signExtended(Operation &op, const Symbolic &value,
                                      unsigned width) {
  if (width != 1)
    return value;
  // A true i1 extends to -1.
  return combine(op, value, constant(0),
                 [](AffineExpr a, AffineExpr) { return -a; });
}

void SymbolicValues::addDomain(Conjunction &constraints, unsigned base) const {
  AffineExpr id = getAffineDimExpr(base, context);
  constraints.push_back({id, false});
  constraints.push_back({threads - 1 - id, false});
  for (unsigned loop = 0; loop < getNumLoops(); ++loop)
    constraints.push_back({getAffineDimExpr(base + 1 + loop, context), false});
}

Bounds SymbolicValues::rangeOf(AffineExpr expr) const {
  constexpr int64_t far = Bounds::kFar;
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return {Bounds::clamp(constant.getValue()),
            Bounds::clamp(constant.getValue())};
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    unsigned position = dim.getPosition();
    return {0, position == 0 ? threads - 1 : counterMax[position - 1]};
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Bounds lhs = rangeOf(binary.getLHS()), rhs = rangeOf(binary.getRHS());
  // An infinite bound stays infinite; finite ones are computed wide and
  // saturate.
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return {lhs.lo <= -far || rhs.lo <= -far
                ? -far
                : Bounds::clamp(__int128(lhs.lo) + rhs.lo),
            lhs.hi >= far || rhs.hi >= far
                ? far
                : Bounds::clamp(__int128(lhs.hi) + rhs.hi)};
  case AffineExprKind::Mul: {
    // Products are by constants: one side is a single value.
    const Bounds &factor = rhs.isSingle() ? rhs : lhs;
    const Bounds &other = rhs.isSingle() ? lhs : rhs;
    if (!factor.isSingle())
      return {-far, far};
    int64_t c = factor.lo;
    if (c == 0)
      return {0, 0};
    auto times = [&](int64_t bound, bool infinite, int64_t infinity) {
      return infinite ? infinity : Bounds::clamp(__int128(bound) * c);
    };
    if (c > 0)
      return {times(other.lo, other.lo <= -far, -far),
              times(other.hi, other.hi >= far, far)};
    return {times(other.hi, other.hi >= far, -far),
            times(other.lo, other.lo <= -far, far)};
  }
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    if (!rhs.isSingle() || rhs.lo <= 0)
      return {-far, far};
    bool floor = binary.getKind() == AffineExprKind::FloorDiv;
    auto divide = [&](int64_t value) {
      return floor ? llvm::divideFloorSigned(value, rhs.lo)
                   : llvm::divideCeilSigned(value, rhs.lo);
    };
    return {lhs.lo <= -far ? -far : divide(lhs.lo),
            lhs.hi >= far ? far : divide(lhs.hi)};
  }
  case AffineExprKind::Mod:
    if (!rhs.isSingle() || rhs.lo <= 0)
      return {-far, far};
    // Within one period the value is the dividend's own offset.
    if (lhs.isFinite() && llvm::divideFloorSigned(lhs.lo, rhs.lo) ==
                              llvm::divideFloorSigned(lhs.hi, rhs.lo))
      return {lhs.lo - llvm::divideFloorSigned(lhs.lo, rhs.lo) * rhs.lo,
              lhs.hi - llvm::divideFloorSigned(lhs.hi, rhs.lo) * rhs.lo};
    return {0, rhs.lo - 1};
  default:
    return {-far, far};
  }
}

AffineExpr SymbolicValues::floorDivBy(AffineExpr expr, int64_t divisor) const {
  // Fewer local variables make cheaper sets: a quotient the bounds fix is
  // a constant, and one of a remainder by a multiple is a remainder
  // ((x mod 4096) floordiv 2048 is (x floordiv 2048) mod 2).
  Bounds bounds = rangeOf(expr);
  if (bounds.isFinite() && llvm::divideFloorSigned(bounds.lo, divisor) ==
                               llvm::divideFloorSigned(bounds.hi, divisor))
    return getAffineConstantExpr(llvm::divideFloorSigned(bounds.lo, divisor),
                                 context);
  return expr.floorDiv(divisor);
}

AffineExpr SymbolicValues::modBy(AffineExpr expr, int64_t modulus) const {
  // A value the bounds keep within one period is its own remainder, and a
  // remainder by a multiple of the modulus leaves the same remainder.
  Bounds bounds = rangeOf(expr);
  if (bounds.isFinite() && llvm::divideFloorSigned(bounds.lo, modulus) ==
                               llvm::divideFloorSigned(bounds.hi, modulus))
    return expr - llvm::divideFloorSigned(bounds.lo, modulus) * modulus;
  if (auto mod = dyn_cast<AffineBinaryOpExpr>(expr);
      mod && mod.getKind() == AffineExprKind::Mod)
    if (auto outer = dyn_cast<AffineConstantExpr>(mod.getRHS());
        outer && outer.getValue() % modulus == 0)
      return modBy(mod.getLHS(), modulus);
  return expr % modulus;
}

unsigned SymbolicValues::addLoopCounter(int64_t greatest) {
  counterMax.push_back(greatest);
  return counterMax.size();
}

void SymbolicValues::evaluateResults(Operation &op) {
  if (op.getNumResults() == 1) {
    setValue(op.getResult(0), evaluate(op));
    return;
  }
  for (Value result : op.getResults())
    setValue(result,
             result.getType().isIntOrIndex() ? unsupported(&op) : data());
}
