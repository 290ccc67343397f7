//===- CombineLaws.cpp - Trying a combine's laws on constants -------------===//

#include "Obs/Analysis/CombineLaws.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/Formatting.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::obs;

/// The most loop iterations one evaluation of a combine runs, all its
/// loops together: one that runs longer on a sample leaves it unevaluated.
/// Per loop, two nested loops of 4,000 iterations each ran 16 million per
/// sample, and the check of thousands of samples never ended (an
/// adversarial run).
static constexpr int64_t kMostEvaluatedTrips = 4096;

namespace {
/// The values an evaluation knows, and the loop iterations it has left.
struct Evaluation : DenseMap<Value, Attribute> {
  int64_t tripsLeft = kMostEvaluatedTrips;
};
} // namespace

static std::optional<SmallVector<Attribute>> evaluateBlock(Block &block,
                                                           Evaluation &values);

/// The constant `value` holds: evaluated, or a constant from outside the
/// region (canonicalization hoists a combine's constants into the kernel).
static Attribute lookupConstant(DenseMap<Value, Attribute> &values,
                                Value value) {
  if (Attribute known = values.lookup(value))
    return known;
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant)))
    return values[value] = constant;
  return {};
}

/// What the laws' checks require of a combine or `less` they cannot
/// otherwise check.
static std::string describeEvaluable() {
  return ("every op of it must fold on constants, and its loops end within " +
          Twine(kMostEvaluatedTrips) + " iterations in all")
      .str();
}

/// `block` run on `arguments` (bound to its arguments first).
static std::optional<SmallVector<Attribute>>
evaluateBlockOn(Block &block, ArrayRef<Attribute> arguments,
                Evaluation &values) {
  for (auto [argument, value] :
       llvm::zip_equal(block.getArguments(), arguments))
    values[argument] = value;
  return evaluateBlock(block, values);
}

/// What `loop` gives, run on constants as its defined meaning has it: from
/// its lower bound while below its upper one, stopping where the step
/// would take the counter past its width (obs's loops never wrap).
static std::optional<SmallVector<Attribute>> evaluateFor(scf::ForOp loop,
                                                         Evaluation &values) {
  auto lower = dyn_cast_if_present<IntegerAttr>(
      lookupConstant(values, loop.getLowerBound()));
  auto upper = dyn_cast_if_present<IntegerAttr>(
      lookupConstant(values, loop.getUpperBound()));
  auto step =
      dyn_cast_if_present<IntegerAttr>(lookupConstant(values, loop.getStep()));
  if (!lower || !upper || !step)
    return std::nullopt;
  SmallVector<Attribute> carried;
  for (Value init : loop.getInitArgs())
    carried.push_back(lookupConstant(values, init));
  if (llvm::is_contained(carried, Attribute()))
    return std::nullopt;
  bool isUnsigned = loop.getUnsignedCmp();
  // A step that is not positive runs no iteration (defineLoopStep).
  if (isUnsigned ? step.getValue().isZero()
                 : !step.getValue().isStrictlyPositive())
    return carried;
  APInt counter = lower.getValue();
  for (;;) {
    bool below = isUnsigned ? counter.ult(upper.getValue())
                            : counter.slt(upper.getValue());
    if (!below)
      break;
    if (values.tripsLeft-- == 0)
      return std::nullopt;
    SmallVector<Attribute> arguments = {
        IntegerAttr::get(lower.getType(), counter)};
    llvm::append_range(arguments, carried);
    std::optional<SmallVector<Attribute>> yielded =
        evaluateBlockOn(*loop.getBody(), arguments, values);
    if (!yielded)
      return std::nullopt;
    carried = std::move(*yielded);
    bool overflow = false;
    counter = isUnsigned ? counter.uadd_ov(step.getValue(), overflow)
                         : counter.sadd_ov(step.getValue(), overflow);
    if (overflow)
      break;
  }
  return carried;
}

/// What `loop` gives, run on constants: its condition, then its body, for
/// as many rounds as the evaluation has left.
static std::optional<SmallVector<Attribute>> evaluateWhile(scf::WhileOp loop,
                                                           Evaluation &values) {
  SmallVector<Attribute> carried;
  for (Value init : loop.getInits())
    carried.push_back(lookupConstant(values, init));
  for (;; --values.tripsLeft) {
    if (values.tripsLeft < 0)
      return std::nullopt;
    if (llvm::is_contained(carried, Attribute()))
      return std::nullopt;
    std::optional<SmallVector<Attribute>> tested =
        evaluateBlockOn(loop.getBefore().front(), carried, values);
    if (!tested)
      return std::nullopt;
    auto condition = dyn_cast<IntegerAttr>(tested->front());
    if (!condition)
      return std::nullopt;
    SmallVector<Attribute> passed(ArrayRef(*tested).drop_front());
    if (condition.getValue().isZero())
      return passed;
    std::optional<SmallVector<Attribute>> yielded =
        evaluateBlockOn(loop.getAfter().front(), passed, values);
    if (!yielded)
      return std::nullopt;
    carried = std::move(*yielded);
  }
  return std::nullopt;
}

/// What `block` yields, from `values` known for what it uses: its ops
/// folded one by one, an scf.if on a constant by its taken side, loops run.
static std::optional<SmallVector<Attribute>> evaluateBlock(Block &block,
                                                           Evaluation &values) {
  for (Operation &inner : block) {
    // Only the operands a fold sees need be known: an scf.if needs only
    // its condition.
    SmallVector<Attribute> operands;
    for (Value operand : inner.getOperands())
      operands.push_back(lookupConstant(values, operand));
    if (isa<YieldOp, scf::YieldOp, scf::ConditionOp>(inner)) {
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
    if (isa<scf::ForOp, scf::WhileOp>(inner)) {
      std::optional<SmallVector<Attribute>> given =
          isa<scf::ForOp>(inner)
              ? evaluateFor(cast<scf::ForOp>(inner), values)
              : evaluateWhile(cast<scf::WhileOp>(inner), values);
      if (!given)
        return std::nullopt;
      for (auto [result, value] : llvm::zip(inner.getResults(), *given))
        values[result] = value;
      continue;
    }
    if (inner.getNumRegions() || llvm::is_contained(operands, Attribute()))
      return std::nullopt;
    // A constant folds to its value.
    SmallVector<OpFoldResult> folded;
    if (failed(inner.fold(operands, folded)) ||
        folded.size() != inner.getNumResults())
      return std::nullopt;
    for (auto [result, fold] : llvm::zip(inner.getResults(), folded)) {
      Attribute value = isa<Attribute>(fold)
                            ? cast<Attribute>(fold)
                            : lookupConstant(values, cast<Value>(fold));
      if (!value)
        return std::nullopt;
      values[result] = value;
    }
  }
  return std::nullopt;
}

namespace {
/// The combine in an op's first region (two flattened elements to one),
/// evaluated on constants. It works on one copy of the op, made once: a
/// fold may update its op in place (a commutative op moves a constant
/// operand), which keeps the op's meaning but must not touch the original.
class ConstantCombine {
public:
  explicit ConstantCombine(Operation *op) : copy(op->clone()) {}
  ~ConstantCombine() { copy->erase(); }
  ConstantCombine(const ConstantCombine &) = delete;
  ConstantCombine &operator=(const ConstantCombine &) = delete;

  /// `x ⊕ y`, or nothing where an op does not fold to constants.
  std::optional<SmallVector<Attribute>> operator()(ArrayRef<Attribute> x,
                                                   ArrayRef<Attribute> y) {
    Block &block = copy->getRegion(0).front();
    Evaluation values;
    SmallVector<Attribute> arguments(x);
    llvm::append_range(arguments, y);
    for (auto [argument, value] : llvm::zip(block.getArguments(), arguments))
      values[argument] = value;
    return evaluateBlock(block, values);
  }

private:
  Operation *copy;
};
} // namespace

/// A sample scalar of type `scalar` near `value`: value * 1.25 for a float
/// (not every sample an integer), its low bit for an i1.
static Attribute sampleOf(Type scalar, int64_t value) {
  if (auto floatType = dyn_cast<FloatType>(scalar))
    return FloatAttr::get(floatType, value * 1.25);
  if (scalar.isInteger(1))
    return IntegerAttr::get(scalar, value & 1);
  return IntegerAttr::get(scalar, value);
}

/// The largest and least values of a signed integer `type` wider than one
/// bit, as int64_t.
static std::optional<std::pair<int64_t, int64_t>> getSignedExtremes(Type type) {
  if (!type.isIntOrIndex())
    return std::nullopt;
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  if (width < 2 || width > 64)
    return std::nullopt;
  return std::make_pair(llvm::minIntN(width), llvm::maxIntN(width));
}

/// What sampleElements varies a combine's integers over beyond the small
/// numbers.
struct ExtraSamples {
  /// The integer type's least and largest: where a combine wraps.
  bool extremes = false;
  /// A float's largest finite values, infinities and -0.0: where an
  /// identity or an order fails (a maximum's -4.0, a sum's 0.0), but not
  /// associativity, which a float sum lacks there.
  bool floatExtremes = false;
  /// Near every integer constant c of the combine's region: c - 1, c,
  /// c + 1, -c and c / 2 + 1, where a combine clamps or branches
  /// (`min(x + y, 1000)` is associative on small numbers, and on 501, 501
  /// and -1000 it is not).
  bool nearConstants = false;
  /// Near the identity's value e of each scalar: e - 1 and e + 1, where an
  /// identity is a bound that is not the type's (a maximum's -4).
  ArrayAttr identity;
};

/// What associativity is tried on: where a combine wraps, clamps or
/// branches.
static const ExtraSamples kAssociativitySamples = {
    /*extremes=*/true, /*floatExtremes=*/false, /*nearConstants=*/true,
    /*identity=*/nullptr};

/// Whether `value` decides where the combine branches or clamps: an operand
/// of a comparison, a select, a minimum or a maximum.
static bool decides(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    return isa<arith::CmpIOp, arith::CmpFOp, arith::SelectOp, arith::MinSIOp,
               arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp,
               arith::MinimumFOp, arith::MaximumFOp, arith::MinNumFOp,
               arith::MaxNumFOp>(user);
  });
}

/// The whole-number constants `op`'s region uses that are not small
/// numbers: defined in it, or captured from around it (canonicalization
/// hoists them out of a kernel's regions), integers and whole floats alike.
/// Those that decide a comparison, a select, a minimum or a maximum come
/// first: the samples near constants are bounded, and constants that only
/// shift a value (added, then taken off again) took every place before the
/// bound of a window (an adversarial run).
static SmallVector<int64_t> getRegionConstants(Operation *op) {
  SmallVector<int64_t> deciding, others;
  auto record = [&](int64_t c, bool decidesHere) {
    SmallVector<int64_t> &into = decidesHere ? deciding : others;
    if ((c < -2 || c > 2) && !llvm::is_contained(into, c))
      into.push_back(c);
  };
  // An integer as itself, a float by the whole numbers on either side:
  // samples near those reach it (a clamp at 1000.5 passed samples that
  // never did; an adversarial run).
  auto recordValue = [&](Attribute value, Value of) {
    bool decidesHere = decides(of);
    if (auto integer = dyn_cast_if_present<IntegerAttr>(value)) {
      if (integer.getValue().getSignificantBits() <= 63)
        record(integer.getValue().getSExtValue(), decidesHere);
    } else if (auto real = dyn_cast_if_present<FloatAttr>(value)) {
      double x = real.getValueAsDouble();
      if (std::isfinite(x) && std::fabs(x) < 0x1p62) {
        record(static_cast<int64_t>(std::floor(x)), decidesHere);
        record(static_cast<int64_t>(std::ceil(x)), decidesHere);
      }
    }
  };
  // Constants the region computes from constants (a tolerance written
  // 4 * 4), and the powers of two a shift by a constant puts bounds at (a
  // bucket `x >> 4`, a window `(x >> 10) == 1`): an adversarial run found
  // orders and combines whose bounds were these, never sampled near.
  DenseMap<Value, Attribute> known;
  auto constantOf = [&](Value value) {
    Attribute constant = known.lookup(value);
    if (!constant && matchPattern(value, m_Constant(&constant)))
      known[value] = constant;
    return constant;
  };
  op->walk([&](Operation *inner) {
    // Its constant operands, those captured from around the region too.
    SmallVector<Attribute> operands;
    for (Value operand : inner->getOperands()) {
      Attribute constant = constantOf(operand);
      operands.push_back(constant);
      if (Operation *definer = operand.getDefiningOp();
          constant && definer && !op->isAncestor(definer))
        recordValue(constant, operand);
    }
    if (inner == op || inner->getNumRegions() || inner->getNumResults() != 1)
      return;
    if (isa<arith::ShRSIOp, arith::ShRUIOp, arith::ShLIOp>(inner))
      if (auto amount = dyn_cast_if_present<IntegerAttr>(operands[1]);
          amount && amount.getValue().ult(62) && !amount.getValue().isZero()) {
        int64_t k = amount.getValue().getZExtValue();
        record(int64_t(1) << k, /*decidesHere=*/true);
        record(int64_t(2) << k, /*decidesHere=*/true);
      }
    Value result = inner->getResult(0);
    if (Attribute constant; matchPattern(inner, m_Constant(&constant))) {
      recordValue(constant, result);
      return;
    }
    if (llvm::is_contained(operands, Attribute()))
      return;
    // Folded on a copy: a fold may update its op in place.
    SmallVector<OpFoldResult> folded;
    Operation *copy = inner->clone();
    if (succeeded(copy->fold(operands, folded)) && folded.size() == 1)
      if (auto value = dyn_cast<Attribute>(folded.front())) {
        known[result] = value;
        recordValue(value, result);
      }
    copy->destroy();
  });
  llvm::append_range(deciding, others);
  return deciding;
}

/// The most samples beyond the small numbers one scalar takes.
static constexpr size_t kMostExtraValues = 16;

/// The values beyond `base` that scalar `index` of a combine, of `type`,
/// takes (`extra` says which; `constants` are its region's): at most
/// kMostExtraValues, in the order above. An integer stays within its type's
/// range. A float takes the numbers near the constants too (whole numbers,
/// whose sums are exact), and for `extra.floatExtremes` its largest finite
/// values, infinities and -0.0 (a maximum whose identity is -4.0 passed the
/// small numbers, and a reduce of -10 gave -4).
static SmallVector<Attribute> getExtraValues(Type type, unsigned index,
                                             const ExtraSamples &extra,
                                             ArrayRef<int64_t> constants,
                                             ArrayRef<int64_t> base) {
  SmallVector<Attribute> values;
  auto floatType = dyn_cast<FloatType>(type);
  std::optional<std::pair<int64_t, int64_t>> range = getSignedExtremes(type);
  if (!floatType && !range)
    return values;
  auto addAttr = [&](Attribute value) {
    if (values.size() < kMostExtraValues && !llvm::is_contained(values, value))
      values.push_back(value);
  };
  auto add = [&](int64_t value) {
    if (floatType) {
      // Exactly the whole number, where the type holds it.
      APFloat x(floatType.getFloatSemantics());
      if (x.convertFromAPInt(APInt(64, value, /*isSigned=*/true),
                             /*IsSigned=*/true,
                             APFloat::rmNearestTiesToEven) == APFloat::opOK)
        addAttr(FloatAttr::get(floatType, x));
      return;
    }
    if (value >= range->first && value <= range->second &&
        !llvm::is_contained(base, value))
      addAttr(IntegerAttr::get(type, value));
  };
  if (extra.extremes && !floatType) {
    add(range->first);
    add(range->second);
  }
  if (extra.floatExtremes && floatType) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    for (bool negative : {true, false}) {
      addAttr(
          FloatAttr::get(floatType, APFloat::getLargest(semantics, negative)));
      addAttr(FloatAttr::get(floatType, APFloat::getInf(semantics, negative)));
    }
    addAttr(FloatAttr::get(floatType,
                           APFloat::getZero(semantics, /*Negative=*/true)));
  }
  if (extra.nearConstants)
    for (int64_t c : constants)
      for (int64_t near : {c - 1, c, c + 1, -c, c / 2 + 1})
        add(near);
  if (extra.identity && index < extra.identity.size()) {
    Attribute e = extra.identity[index];
    if (auto integer = dyn_cast<IntegerAttr>(e);
        integer && !floatType &&
        integer.getValue().getSignificantBits() <= 63) {
      int64_t value = integer.getValue().getSExtValue();
      if (value > range->first)
        add(value - 1);
      if (value < range->second)
        add(value + 1);
    } else if (auto real = dyn_cast<FloatAttr>(e); real && floatType) {
      double x = real.getValueAsDouble();
      if (std::isfinite(x))
        for (double near : {x - 1, x + 1}) {
          APFloat value(near);
          bool losesInfo;
          value.convert(floatType.getFloatSemantics(),
                        APFloat::rmNearestTiesToEven, &losesInfo);
          addAttr(FloatAttr::get(floatType, value));
        }
    }
  }
  return values;
}

/// Sample elements of a combine, of `scalars`, to try an identity and
/// associativity on: first small numbers of both signs and zero, each
/// scalar of a tuple varied together and, for a tuple, the same numbers
/// rotated across its scalars, so that they differ (a combine of (flag,
/// value) pairs whose identity fails only where the flag is 0 and the
/// value is not passed samples that were all (v, v), and a scan's answer
/// then changed with its tiling); then, alike, the `extra` values; then,
/// for a tuple, each scalar's extra values with the others 0 (a minimum
/// whose ties compare a second key by a difference met the second key's
/// extremes only beside the first key's). Float sums reassociate with
/// rounding, which a network is allowed (see "Networks"): near constants,
/// floats take only whole numbers, whose sums are exact. `constants` are the
/// combine's (getRegionConstants). `smallOnes` is set to how many samples
/// come first.
static SmallVector<SmallVector<Attribute>>
sampleElements(TypeRange scalars, const ExtraSamples &extra,
               ArrayRef<int64_t> constants, size_t *smallOnes = nullptr,
               SmallVectorImpl<int> *variedScalar = nullptr) {
  static constexpr int64_t kValues[] = {1, 2, -3, 100, 0};
  SmallVector<SmallVector<Attribute>> extras;
  size_t extraCount = 0;
  for (auto [index, scalar] : llvm::enumerate(scalars)) {
    extras.push_back(getExtraValues(scalar, index, extra, constants, kValues));
    extraCount = std::max(extraCount, extras.back().size());
  }
  SmallVector<SmallVector<Attribute>> samples;
  unsigned rotations = scalars.size() > 1 ? 2 : 1;
  auto addSamples = [&](size_t count, auto valueOf) {
    for (unsigned rotated = 0; rotated < rotations; ++rotated)
      for (size_t first = 0; first < count; ++first) {
        SmallVector<Attribute> sample;
        for (auto [index, scalar] : llvm::enumerate(scalars))
          sample.push_back(valueOf(index, first + rotated * index));
        samples.push_back(std::move(sample));
      }
  };
  auto small = [&](size_t index, size_t at) {
    return sampleOf(scalars[index], kValues[at % std::size(kValues)]);
  };
  addSamples(std::size(kValues), small);
  if (smallOnes)
    *smallOnes = samples.size();
  addSamples(extraCount, [&](size_t index, size_t at) {
    ArrayRef<Attribute> own = extras[index];
    return own.empty() ? small(index, at) : own[at % own.size()];
  });
  if (variedScalar)
    variedScalar->assign(samples.size(), -1);
  if (scalars.size() > 1)
    for (auto [varied, own] : llvm::enumerate(extras))
      for (Attribute value : own) {
        SmallVector<Attribute> sample;
        for (auto [index, scalar] : llvm::enumerate(scalars))
          sample.push_back(index == varied ? value : sampleOf(scalar, 0));
        samples.push_back(std::move(sample));
        if (variedScalar)
          variedScalar->push_back(static_cast<int>(varied));
      }
  return samples;
}

namespace {
/// Three elements that combine differently from the left and the right.
struct AssociativityCounterexample {
  SmallVector<Attribute> a, b, c, left, right;
};
} // namespace

/// Tries `(a ⊕ b) ⊕ c = a ⊕ (b ⊕ c)` on every triple of `samples` that
/// `considered` takes (all, without it), each pair's combination computed
/// once, when first needed. A triple that does not fold is left out, and
/// `allFolded` (where given) says whether any was.
static std::optional<AssociativityCounterexample> tryAssociativity(
    ConstantCombine &combine, ArrayRef<SmallVector<Attribute>> samples,
    bool *allFolded = nullptr,
    llvm::function_ref<bool(size_t, size_t, size_t)> considered = nullptr) {
  if (allFolded)
    *allFolded = true;
  size_t n = samples.size();
  SmallVector<std::optional<std::optional<SmallVector<Attribute>>>> pairs(n *
                                                                          n);
  auto pair = [&](size_t a,
                  size_t b) -> std::optional<SmallVector<Attribute>> & {
    std::optional<std::optional<SmallVector<Attribute>>> &known =
        pairs[a * n + b];
    if (!known)
      known = combine(samples[a], samples[b]);
    return *known;
  };
  for (size_t a = 0; a < n; ++a)
    for (size_t b = 0; b < n; ++b)
      for (size_t c = 0; c < n; ++c) {
        if (considered && !considered(a, b, c))
          continue;
        const std::optional<SmallVector<Attribute>> &ab = pair(a, b),
                                                    &bc = pair(b, c);
        std::optional<SmallVector<Attribute>> left, right;
        if (ab && bc) {
          left = combine(*ab, samples[c]);
          right = combine(samples[a], *bc);
        }
        if (!left || !right) {
          if (allFolded)
            *allFolded = false;
          continue;
        }
        if (*left != *right)
          return AssociativityCounterexample{samples[a], samples[b], samples[c],
                                             *left, *right};
      }
  return std::nullopt;
}

/// Which triples of the samples associativity is tried on: all of those
/// before the ones that vary one scalar (`variedScalar` -1), and each of
/// those with small samples, or with one more of the same scalar. All
/// triples of them took 24 s for a tuple of eight scalars (an adversarial
/// run); a counterexample across scalars was found among these.
static bool isTriedTriple(ArrayRef<int> variedScalar, size_t smallOnes,
                          size_t a, size_t b, size_t c) {
  int scalar = -1;
  unsigned varied = 0;
  for (size_t x : {a, b, c}) {
    if (variedScalar[x] < 0)
      continue;
    if (scalar >= 0 && scalar != variedScalar[x])
      return false;
    scalar = variedScalar[x];
    ++varied;
  }
  if (varied == 0)
    return true;
  if (varied > 2)
    return false;
  for (size_t x : {a, b, c})
    if (variedScalar[x] < 0 && x >= smallOnes)
      return false;
  return true;
}

/// A counterexample to `combine`'s associativity among its samples (of
/// `scalars`, near `constants`): the small numbers first, so that one
/// among them is the one named, then every tried triple (isTriedTriple).
/// `allFolded` says whether every triple folded.
static std::optional<AssociativityCounterexample>
findAssociativityCounterexample(ConstantCombine &combine, TypeRange scalars,
                                ArrayRef<int64_t> constants, bool &allFolded) {
  size_t smallOnes;
  SmallVector<int> variedScalar;
  SmallVector<SmallVector<Attribute>> samples = sampleElements(
      scalars, kAssociativitySamples, constants, &smallOnes, &variedScalar);
  if (std::optional<AssociativityCounterexample> small =
          tryAssociativity(combine, ArrayRef(samples).take_front(smallOnes))) {
    allFolded = true;
    return small;
  }
  return tryAssociativity(
      combine, samples, &allFolded, [&](size_t a, size_t b, size_t c) {
        return isTriedTriple(variedScalar, smallOnes, a, b, c);
      });
}

LogicalResult mlir::obs::checkCombineLaws(Operation *op, ArrayAttr identity) {
  // The combine yields one element: its scalars.
  TypeRange scalars =
      op->getRegion(0).front().getTerminator()->getOperandTypes();
  ConstantCombine combine(op);
  SmallVector<int64_t> constants = getRegionConstants(op);

  // The identity, where there is one: `e ⊕ x = x` and `x ⊕ e = x` for
  // each sample `x`, near the identity too. A wrong identity (0 for a
  // product, 0 for a minimum, -4 for a maximum) would be folded into every
  // partial tile's absent elements and into every exclusive scan: a wrong
  // answer, not an error, without this check. The plans combine the
  // identity only on the right (absent elements follow present ones, and
  // the first tile of a scan takes no carry), so on the right it must hold
  // everywhere: at the type's extremes, at -0.0 (bitwise: 0.0 is no
  // identity of a float sum, -0.0 is), and at itself (absent elements
  // combine with each other). On the left it is tried on the ordinary
  // samples only: a minimum's (largest, 0) is no identity of (largest, v)
  // on the left, and a reduce or scan of such pairs is still one answer.
  if (identity) {
    ArrayRef<Attribute> e = identity.getValue();
    ExtraSamples nearIdentity = {/*extremes=*/false, /*floatExtremes=*/false,
                                 /*nearConstants=*/true, identity};
    SmallVector<SmallVector<Attribute>> samples =
        sampleElements(scalars, nearIdentity, constants);
    size_t bothSides = samples.size();
    ExtraSamples everywhere = {/*extremes=*/true, /*floatExtremes=*/true,
                               /*nearConstants=*/false, identity};
    llvm::append_range(samples, sampleElements(scalars, everywhere, {}));
    samples.push_back(SmallVector<Attribute>(e));
    for (auto [index, x] : llvm::enumerate(samples)) {
      for (bool identityFirst : {true, false}) {
        if (identityFirst && index >= bothSides)
          continue;
        ArrayRef<Attribute> left = identityFirst ? e : ArrayRef(x),
                            right = identityFirst ? ArrayRef(x) : e;
        std::optional<SmallVector<Attribute>> result = combine(left, right);
        if (!result || *result == x)
          continue;
        return op->emitOpError()
               << "identity " << identity << " is not an identity of its "
               << "combine: " << formatParenthesized(left) << " combined with "
               << formatParenthesized(right) << " is "
               << formatParenthesized(*result) << ", not "
               << formatParenthesized(x);
      }
    }
  }

  // Associativity, on triples of samples: the plans reassociate the
  // combine freely (tiles, trees, networks), so one that is not (a
  // difference, an average) gives an answer that depends on the plan, on
  // which every target would agree.
  // The small numbers first, then the extremes and the numbers near the
  // combine's constants, so that a counterexample among the first is the
  // one named.
  bool allFolded;
  std::optional<AssociativityCounterexample> counterexample =
      findAssociativityCounterexample(combine, scalars, constants, allFolded);
  // A combine the evaluation cannot run on every sample (an op without a
  // folder, a loop past kMostEvaluatedTrips) is not checked, and so not
  // proved: it was accepted unchecked, and a difference hidden in a loop
  // then gave each plan its own answer.
  if (!counterexample && !allFolded)
    return op->emitOpError()
           << "combine cannot be evaluated on constants, so its laws "
              "(associativity, the identity) cannot be checked: "
           << describeEvaluable();
  if (counterexample)
    return op->emitOpError()
           << "combine is not associative, which every plan assumes: "
           << formatParenthesized(counterexample->a) << ", "
           << formatParenthesized(counterexample->b) << " and "
           << formatParenthesized(counterexample->c) << " combine to "
           << formatParenthesized(counterexample->left)
           << " from the left but to "
           << formatParenthesized(counterexample->right) << " from the right";
  return success();
}

/// Sample elements of `op`'s `less`, of `scalars`, to try an order on:
/// every scalar varied on its own among four values (for at most three
/// scalars; the others follow the last), so that orders by a second key
/// meet ties in the first; then each pair of scalars varied on its own
/// among them, the others 0 (an order that compared a's fourth scalar with
/// b's third met only samples whose two were equal); then each scalar at
/// its extra values, the others 0: an integer's least and largest values,
/// where an order by a difference (`x - y < 0`) wraps into a cycle, a
/// float's largest finite values and infinities, and for both the numbers
/// near the order's constants (a tolerance `x + 10 < y`, a serial-number
/// order's 32768), for every scalar, not the first only (an adversarial
/// run found each of them accepted, and sorts that lost elements).
/// `smallOnes` is set to how many samples come first.
static SmallVector<SmallVector<Attribute>>
sampleOrderElements(Operation *op, TypeRange scalars, size_t &smallOnes) {
  static constexpr int64_t kValues[] = {-3, 0, 1, 2};
  static constexpr unsigned kVaried = 3;
  // Pairs among the first kPaired scalars only: the samples' pairs are
  // all evaluated.
  static constexpr unsigned kPaired = 6;
  unsigned varied = std::min<unsigned>(scalars.size(), kVaried);
  SmallVector<SmallVector<Attribute>> samples;
  unsigned count = 1;
  for (unsigned i = 0; i < varied; ++i)
    count *= std::size(kValues);
  for (unsigned code = 0; code < count; ++code) {
    SmallVector<Attribute> sample;
    unsigned rest = code;
    for (auto [index, scalar] : llvm::enumerate(scalars)) {
      sample.push_back(sampleOf(scalar, kValues[rest % std::size(kValues)]));
      if (index + 1 < varied)
        rest /= std::size(kValues);
    }
    samples.push_back(std::move(sample));
  }
  smallOnes = samples.size();
  auto zerosBut = [&](ArrayRef<std::pair<unsigned, Attribute>> set) {
    SmallVector<Attribute> sample;
    for (auto [index, scalar] : llvm::enumerate(scalars))
      sample.push_back(sampleOf(scalar, 0));
    for (auto [index, value] : set)
      sample[index] = value;
    return sample;
  };
  unsigned paired = std::min<unsigned>(scalars.size(), kPaired);
  for (unsigned j = 0; j < paired; ++j)
    for (unsigned k = j + 1; k < paired; ++k)
      for (int64_t x : kValues)
        for (int64_t y : kValues)
          samples.push_back(zerosBut(
              {{j, sampleOf(scalars[j], x)}, {k, sampleOf(scalars[k], y)}}));
  // A float's extremes too: an order takes no sums.
  ExtraSamples extra = {/*extremes=*/true, /*floatExtremes=*/true,
                        /*nearConstants=*/true, /*identity=*/nullptr};
  SmallVector<int64_t> constants = getRegionConstants(op);
  for (auto [index, scalar] : llvm::enumerate(scalars))
    for (Attribute value :
         getExtraValues(scalar, index, extra, constants, kValues))
      samples.push_back(zerosBut({{static_cast<unsigned>(index), value}}));
  return samples;
}

LogicalResult mlir::obs::checkStrictWeakOrder(Operation *op) {
  Block &block = op->getRegion(0).front();
  SmallVector<Type> scalars(TypeRange(block.getArgumentTypes())
                                .take_front(block.getNumArguments() / 2));
  ConstantCombine less(op);
  size_t smallOnes;
  SmallVector<SmallVector<Attribute>> samples =
      sampleOrderElements(op, scalars, smallOnes);
  size_t n = samples.size();
  // Whether sample a comes before sample b: 1, 0, or -1 where it does not
  // fold.
  SmallVector<int8_t> before(n * n, -1);
  for (size_t a = 0; a < n; ++a)
    for (size_t b = 0; b < n; ++b)
      if (std::optional<SmallVector<Attribute>> result =
              less(samples[a], samples[b]))
        if (auto value = dyn_cast<IntegerAttr>(result->front()))
          before[a * n + b] = !value.getValue().isZero();
  // A `less` the evaluation cannot run on every pair is not checked, and
  // so not proved: one hidden in a loop was accepted, and ref and cpu then
  // sorted differently.
  if (llvm::is_contained(before, -1))
    return op->emitOpError()
           << "sorts by a `less` that cannot be evaluated on constants, so "
              "whether it is a strict weak order cannot be checked: "
           << describeEvaluable();
  auto lt = [&](size_t a, size_t b) { return before[a * n + b] == 1; };
  auto known = [&](size_t a, size_t b) { return before[a * n + b] >= 0; };
  auto incomparable = [&](size_t a, size_t b) {
    return before[a * n + b] == 0 && before[b * n + a] == 0;
  };
  auto element = [&](size_t a) { return formatParenthesized(samples[a]); };
  auto reject = [&](const Twine &why) {
    return op->emitOpError()
           << "sorts by a `less` that is not a strict weak order, which a "
              "sort needs (without one, each plan sorts its own way): "
           << why;
  };
  // The small samples first, so that a violation among them is the one
  // named; then all of them.
  auto check = [&](size_t m) -> LogicalResult {
    for (size_t a = 0; a < m; ++a)
      if (lt(a, a))
        return reject(element(a) + " comes before itself");
    for (size_t a = 0; a < m; ++a)
      for (size_t b = a + 1; b < m; ++b)
        if (lt(a, b) && lt(b, a))
          return reject(element(a) + " and " + element(b) +
                        " each come before the other");
    for (size_t a = 0; a < m; ++a)
      for (size_t b = 0; b < m; ++b)
        for (size_t c = 0; c < m; ++c) {
          if (!known(a, c) || !known(c, a))
            continue;
          if (lt(a, b) && lt(b, c) && !lt(a, c))
            return reject(element(a) + " comes before " + element(b) +
                          ", which comes before " + element(c) + ", but " +
                          element(a) + " does not come before " + element(c));
          if (incomparable(a, b) && incomparable(b, c) && !incomparable(a, c))
            return reject(element(a) + " ties with " + element(b) + ", and " +
                          element(b) + " with " + element(c) + ", but " +
                          element(a) + " and " + element(c) + " do not tie");
        }
    return success();
  };
  if (failed(check(smallOnes)))
    return failure();
  return check(n);
}

bool mlir::obs::isAssociativeOnSamples(Operation *op) {
  TypeRange scalars =
      op->getRegion(0).front().getTerminator()->getOperandTypes();
  ConstantCombine combine(op);
  bool allFolded;
  return !findAssociativityCounterexample(combine, scalars,
                                          getRegionConstants(op), allFolded) &&
         allFolded;
}
