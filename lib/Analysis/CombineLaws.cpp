//===- CombineLaws.cpp - Trying a combine's laws on constants -------------===//

#include "Obs/Analysis/CombineLaws.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::obs;

/// What `block` yields, from `values` known for what it uses: its ops
/// folded one by one, an scf.if on a constant by its taken side.
static std::optional<SmallVector<Attribute>>
evaluateBlock(Block &block, DenseMap<Value, Attribute> &values) {
  for (Operation &inner : block) {
    // Only the operands a fold sees need be known: an scf.if needs only
    // its condition.
    SmallVector<Attribute> operands;
    for (Value operand : inner.getOperands())
      operands.push_back(values.lookup(operand));
    if (isa<YieldOp, scf::YieldOp>(inner)) {
      if (llvm::is_contained(operands, Attribute()))
        return std::nullopt;
      return operands;
    }
    // A branch on a constant is its taken side.
    if (auto branch = dyn_cast<scf::IfOp>(inner)) {
      auto condition = dyn_cast_if_present<IntegerAttr>(operands.front());
      if (!condition)
        return std::nullopt;
      Region &taken = condition.getValue().isZero() ? branch.getElseRegion()
                                                    : branch.getThenRegion();
      if (taken.empty())
        continue;
      std::optional<SmallVector<Attribute>> yielded =
          evaluateBlock(taken.front(), values);
      if (!yielded)
        return std::nullopt;
      for (auto [result, value] : llvm::zip(branch.getResults(), *yielded))
        values[result] = value;
      continue;
    }
    if (inner.getNumRegions() || llvm::is_contained(operands, Attribute()))
      return std::nullopt;
    SmallVector<OpFoldResult> folded;
    if (auto constant = dyn_cast<arith::ConstantOp>(inner))
      folded.push_back(constant.getValue());
    else if (failed(inner.fold(operands, folded)) ||
             folded.size() != inner.getNumResults())
      return std::nullopt;
    for (auto [result, fold] : llvm::zip(inner.getResults(), folded)) {
      Attribute value = isa<Attribute>(fold) ? cast<Attribute>(fold)
                                             : values.lookup(cast<Value>(fold));
      if (!value)
        return std::nullopt;
      values[result] = value;
    }
  }
  return std::nullopt;
}

/// What the single block of `op`'s first region yields for the constant
/// arguments `arguments`, or nothing where an op does not fold to
/// constants. Runs on a copy of `op`: a fold may update its op in place.
static std::optional<SmallVector<Attribute>>
evaluate(Operation *op, ArrayRef<Attribute> arguments) {
  std::unique_ptr<Operation, void (*)(Operation *)> copy(
      op->clone(), [](Operation *cloned) { cloned->erase(); });
  Block &block = copy->getRegion(0).front();
  DenseMap<Value, Attribute> values;
  for (auto [argument, value] : llvm::zip(block.getArguments(), arguments))
    values[argument] = value;
  return evaluateBlock(block, values);
}

/// An element as its constants, `(1 : i32, 2.5 : f32)`.
static std::string formatElement(ArrayRef<Attribute> values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "(";
  llvm::interleaveComma(values, os);
  os << ")";
  return text;
}

/// Sample elements of `scalars` to try an identity on: small numbers of
/// both signs, each scalar of a tuple varied together.
static SmallVector<SmallVector<Attribute>> sampleElements(TypeRange scalars) {
  SmallVector<SmallVector<Attribute>> samples;
  for (int64_t value : {1, 2, -3, 100}) {
    SmallVector<Attribute> sample;
    for (Type scalar : scalars) {
      if (auto floatType = dyn_cast<FloatType>(scalar))
        sample.push_back(FloatAttr::get(floatType, value * 1.25));
      else if (scalar.isInteger(1))
        sample.push_back(IntegerAttr::get(scalar, value & 1));
      else
        sample.push_back(IntegerAttr::get(scalar, value));
    }
    samples.push_back(std::move(sample));
  }
  return samples;
}

/// Checks that `identity` is an identity of the combine of `op` (a device
/// reduce or scan) where its region folds to constants: `e ⊕ x = x` and
/// `x ⊕ e = x` for a few sample elements `x`. A wrong identity (0 for a
/// product, 0 for a minimum) would be folded into every partial tile's
/// absent elements and into every exclusive scan: a wrong answer, not an
/// error, without this check.
LogicalResult mlir::obs::checkIdentity(Operation *op, ArrayAttr identity,
                                       TypeRange scalars) {
  for (const SmallVector<Attribute> &sample : sampleElements(scalars)) {
    for (bool identityFirst : {true, false}) {
      SmallVector<Attribute> arguments;
      llvm::append_range(arguments, identityFirst ? identity.getValue()
                                                  : ArrayRef(sample));
      llvm::append_range(arguments, identityFirst ? ArrayRef(sample)
                                                  : identity.getValue());
      std::optional<SmallVector<Attribute>> result = evaluate(op, arguments);
      if (!result || *result == sample)
        continue;
      std::string e = formatElement(identity.getValue()),
                  x = formatElement(sample);
      return op->emitOpError() << "identity " << identity
                               << " is not an identity of its combine: "
                               << (identityFirst ? e : x) << " combined with "
                               << (identityFirst ? x : e) << " is "
                               << formatElement(*result) << ", not " << x;
    }
  }
  return success();
}

/// Checks that the combine of `op` (a device reduce or scan) is
/// associative where its region folds to constants, on triples of sample
/// elements: the plans reassociate it freely (tiles, trees, networks), so
/// a combine that is not (a difference, an average) gives an answer that
/// depends on the plan, on which every target would agree.
LogicalResult mlir::obs::checkAssociative(Operation *op, TypeRange scalars) {
  SmallVector<SmallVector<Attribute>> samples = sampleElements(scalars);
  auto combine =
      [&](ArrayRef<Attribute> x,
          ArrayRef<Attribute> y) -> std::optional<SmallVector<Attribute>> {
    SmallVector<Attribute> arguments(x);
    llvm::append_range(arguments, y);
    return evaluate(op, arguments);
  };
  for (const SmallVector<Attribute> &a : samples)
    for (const SmallVector<Attribute> &b : samples)
      for (const SmallVector<Attribute> &c : samples) {
        std::optional<SmallVector<Attribute>> ab = combine(a, b),
                                              bc = combine(b, c);
        if (!ab || !bc)
          return success(); // It does not fold: not tried.
        std::optional<SmallVector<Attribute>> left = combine(*ab, c),
                                              right = combine(a, *bc);
        if (!left || !right || *left == *right)
          continue;
        return op->emitOpError()
               << "combine is not associative, which every plan assumes: "
               << formatElement(a) << ", " << formatElement(b) << " and "
               << formatElement(c) << " combine to " << formatElement(*left)
               << " from the left but to " << formatElement(*right)
               << " from the right";
      }
  return success();
}
