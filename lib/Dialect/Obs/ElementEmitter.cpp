//===- ElementEmitter.cpp - emits the index functions of pull arrays ------===//

#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Dialect/Obs/DefinedArithmetic.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::obs;

ElementEmitter::ElementEmitter(OpBuilder &builder, Location loc)
    : builder(builder), loc(loc) {
  scopes.emplace_back();
}

ElementEmitter::Scope::Scope(ElementEmitter &emitter, Region *isolated)
    : emitter(emitter) {
  emitter.scopes.emplace_back();
  emitter.scopes.back().isolated = isolated;
}

ElementEmitter::Scope::~Scope() { emitter.scopes.pop_back(); }

void ElementEmitter::setSource(Value array, LeafReader reader) {
  scopes.front().arrays[array] = std::move(reader);
}

void ElementEmitter::setScalarSource(Value value, ScalarReader reader) {
  scalarSources[value] = std::move(reader);
}

void ElementEmitter::setBlockPosition(
    Operation *root, ScalarReader blockId,
    std::function<Value(OpBuilder &, Location, unsigned)> extentOf) {
  // Kept, not bound op by op: an emitter is made for every stage a kernel's
  // lowering emits, and a walk of the kernel for its few obs.block_id and
  // obs.extent ops each time was a tenth of a simulation of a large one.
  blockPosition = {root, std::move(blockId), std::move(extentOf)};
}

void ElementEmitter::bindArray(Value argument, LeafReader reader) {
  scopes.back().arrays[argument] = std::move(reader);
}

bool ElementEmitter::stopsAt(const Bindings &scope, Value value) {
  return scope.isolated && scope.isolated->isAncestor(value.getParentRegion());
}

Value ElementEmitter::lookupScalar(Value value) const {
  for (const Bindings &scope : llvm::reverse(scopes)) {
    if (Value mapped = scope.scalars.lookupOrNull(value))
      return mapped;
    if (stopsAt(scope, value))
      break;
  }
  return {};
}

const LeafReader *ElementEmitter::lookupArray(Value value) const {
  for (const Bindings &scope : llvm::reverse(scopes)) {
    auto it = scope.arrays.find(value);
    if (it != scope.arrays.end())
      return &it->second;
    if (stopsAt(scope, value))
      break;
  }
  return nullptr;
}

SmallVector<Value> ElementEmitter::fail(Value culprit, const Twine &message,
                                        TypeRange types) {
  if (!reportedErrorFlag) {
    reportedErrorFlag = true;
    if (Operation *op = culprit.getDefiningOp())
      op->emitError(message);
    else
      mlir::emitError(culprit.getLoc(), message);
  }
  return placeholders(types);
}

SmallVector<Value> ElementEmitter::placeholders(TypeRange types) {
  SmallVector<Value> values;
  for (Type type : types)
    values.push_back(ub::PoisonOp::create(builder, loc, type).getResult());
  return values;
}

SmallVector<Value> ElementEmitter::emitLeaf(Value array, ValueRange path) {
  auto type = cast<ArrType>(array.getType());
  assert(path.size() == type.getDepth() && "a leaf needs one index per level");
  // Every read counts, of an array in memory as of one computed here: the
  // code grows with both, and the branches of index functions (odds, fan)
  // copy whole trees of reads of either.
  if (++fusedReads > readLimit)
    return placeholders(flattenElementType(type.getLeafType()));
  if (const LeafReader *reader = lookupArray(array)) {
    // Copy: the reader may bind arrays and so grow the scope's map.
    LeafReader read = *reader;
    return read(builder, loc, path);
  }
  if (auto result = dyn_cast<OpResult>(array))
    if (auto pull = dyn_cast<PullArrayOpInterface>(result.getOwner())) {
      return pull.emitElement(*this, result.getResultNumber(), path.front(),
                              path.drop_front());
    }
  return fail(array, "cannot compute the elements of this array here",
              flattenElementType(type.getLeafType()));
}

Element ElementEmitter::emitElement(Value array, Value index) {
  Element element;
  if (isa<ArrType>(cast<ArrType>(array.getType()).getElementType())) {
    element.array = array;
    element.prefix.push_back(index);
    return element;
  }
  element.scalars = emitLeaf(array, index);
  return element;
}

LeafReader ElementEmitter::nestedReader(Value array, ValueRange prefix) {
  SmallVector<Value> outer(prefix);
  return [this, array, outer](OpBuilder &, Location, ValueRange path) {
    SmallVector<Value> full(outer);
    full.append(path.begin(), path.end());
    return emitLeaf(array, full);
  };
}

void ElementEmitter::bindArguments(Block &block, ArrayRef<Element> elements,
                                   unsigned firstArg) {
  unsigned argIndex = firstArg;
  for (const Element &element : elements) {
    if (element.isNestedArray()) {
      bindArray(block.getArgument(argIndex++),
                nestedReader(element.array, element.prefix));
      continue;
    }
    for (Value scalar : element.scalars)
      mapScalar(block.getArgument(argIndex++), scalar);
  }
}

SmallVector<Value> ElementEmitter::emitRegionOn(Region &region,
                                                ArrayRef<Element> arguments) {
  Scope scope(*this);
  bindArguments(region.front(), arguments);
  return emitScalars(region.front().getTerminator()->getOperands());
}

SmallVector<Value> ElementEmitter::emitRegionOn(Region &region, ValueRange lhs,
                                                ValueRange rhs) {
  Element first, second;
  first.scalars.assign(lhs.begin(), lhs.end());
  second.scalars.assign(rhs.begin(), rhs.end());
  return emitRegionOn(region, {first, second});
}

SmallVector<Value> ElementEmitter::emitYielded(ValueRange yielded,
                                               ValueRange innerPath) {
  if (innerPath.empty())
    return emitScalars(yielded);
  assert(yielded.size() == 1 && "a nested element is yielded as one array");
  return emitLeaf(yielded.front(), innerPath);
}

Value ElementEmitter::emitScalar(Value value) {
  if (Value mapped = lookupScalar(value))
    return mapped;
  auto source = scalarSources.find(value);
  if (source != scalarSources.end()) {
    Value computed = source->second(builder, loc);
    mapScalar(value, computed);
    return computed;
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return fail(value, "this value has no binding here", value.getType())
        .front();
  if (auto pull = dyn_cast<PullScalarOpInterface>(op)) {
    SmallVector<Value> results = pull.emitScalars(*this);
    for (auto [from, to] : llvm::zip_equal(op->getResults(), results))
      mapScalar(from, to);
  } else if (isa<BlockIdOp, ExtentOp>(op)) {
    if (blockPosition && blockPosition->root->isAncestor(op)) {
      Value computed;
      if (isa<BlockIdOp>(op))
        computed = blockPosition->blockId(builder, loc);
      else
        computed = blockPosition->extentOf(
            builder, loc,
            cast<BlockArgument>(cast<ExtentOp>(op).getArray()).getArgNumber());
      mapScalar(value, computed);
      return computed;
    }
    return fail(value,
                "where the block is (its index, its arguments' present "
                "elements) is not known to this code",
                value.getType())
        .front();
  } else if (isa_and_present<ObsDialect>(op->getDialect())) {
    return fail(value, "this obs op does not compute scalars", value.getType())
        .front();
  } else {
    cloneDefiningOp(op);
  }
  return lookupScalar(value);
}

SmallVector<Value> ElementEmitter::emitScalars(ValueRange values) {
  return llvm::map_to_vector(values, [&](Value v) { return emitScalar(v); });
}

bool ElementEmitter::readsEverywhere(Value value) {
  if (readEverywhere.empty())
    return false;
  auto known = readEverywhere.find(value);
  if (known != readEverywhere.end())
    return known->second;
  // Taken to be false while it is asked (a value does not depend on
  // itself, but a region may be visited twice).
  readEverywhere[value] = false;
  Operation *op = value.getDefiningOp();
  auto anyReads = [&](auto values) {
    return llvm::any_of(values,
                        [&](Value used) { return readsEverywhere(used); });
  };
  bool reads = op && anyReads(op->getOperands());
  // An array's index function may read one in its region (a generate that
  // indexes an array in shuffles).
  if (op && !reads && op->getNumRegions()) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    reads = anyReads(captured);
  }
  readEverywhere[value] = reads;
  return reads;
}

void ElementEmitter::cloneDefiningOp(Operation *op) {
  // scf.if and scf.for are rebuilt with their bodies emitted on demand, so
  // they may hold obs ops (an element read inside a branch or a loop).
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    // What the branches use of a source read everywhere, computed outside
    // them, is computed before them, as the element code says.
    if (!readEverywhere.empty()) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(ifOp->getRegions(), captured);
      for (Value value : captured)
        if (!isa<ArrType>(value.getType()) && readsEverywhere(value))
          emitScalar(value);
    }
    auto rebuilt = scf::IfOp::create(
        builder, loc, ifOp.getResultTypes(), emitScalar(ifOp.getCondition()),
        /*addThenBlock=*/true,
        /*addElseBlock=*/!ifOp.getElseRegion().empty());
    auto emitBranch = [&](Block *from, Block *to) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToEnd(to);
      Scope scope(*this);
      SmallVector<Value> yielded =
          emitScalars(cast<scf::YieldOp>(from->getTerminator()).getResults());
      if (!to->empty() && isa<scf::YieldOp>(to->back()))
        to->back().erase();
      scf::YieldOp::create(builder, loc, yielded);
    };
    emitBranch(ifOp.thenBlock(), rebuilt.thenBlock());
    if (!ifOp.getElseRegion().empty())
      emitBranch(ifOp.elseBlock(), rebuilt.elseBlock());
    for (auto [from, to] :
         llvm::zip_equal(op->getResults(), rebuilt.getResults()))
      mapScalar(from, to);
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    // As element code's loop means it (DefinedArithmetic.h).
    DefinedLoop defined = buildDefinedLoop(
        builder, loc, emitScalar(forOp.getLowerBound()),
        emitScalar(forOp.getUpperBound()), emitScalar(forOp.getStep()),
        emitScalars(forOp.getInitArgs()), forOp.getUnsignedCmp());
    scf::ForOp rebuilt = defined.loop;
    {
      OpBuilder::InsertionGuard guard(builder);
      Block *body = rebuilt.getBody();
      if (!body->empty() && isa<scf::YieldOp>(body->back()))
        body->back().erase();
      builder.setInsertionPointToEnd(body);
      Scope scope(*this);
      mapScalar(forOp.getInductionVar(),
                getDefinedCounter(builder, defined,
                                  forOp.getInductionVar().getType()));
      for (auto [from, to] : llvm::zip_equal(forOp.getRegionIterArgs(),
                                             rebuilt.getRegionIterArgs()))
        mapScalar(from, to);
      scf::YieldOp::create(
          builder, loc,
          emitScalars(cast<scf::YieldOp>(forOp.getBody()->getTerminator())
                          .getResults()));
    }
    for (auto [from, to] :
         llvm::zip_equal(op->getResults(), rebuilt.getResults()))
      mapScalar(from, to);
    return;
  }

  IRMapping operands;
  for (Value operand : op->getOperands())
    operands.map(operand, emitScalar(operand));
  if (Value simplified = emitIndexArithmetic(op, operands)) {
    mapScalar(op->getResult(0), simplified);
    return;
  }
  if (op->getNumRegions()) {
    llvm::SetVector<Value> capturedValues;
    getUsedValuesDefinedAbove(op->getRegions(), capturedValues);
    for (Value captured : capturedValues)
      operands.map(captured, emitScalar(captured));
  }
  Operation *clone = builder.clone(*op, operands);
  // What MLIR leaves undefined (a division by zero, poison), defined as
  // obs documents it, here and in what the clone nests (an scf.while).
  defineNestedArithmetic(clone);
  SmallVector<Value> defined = defineArithmetic(clone);
  // Fold as we go, so that a condition that is constant for this element
  // (fan's `i < N/2` under a known index) reaches emitChoice as a constant.
  SmallVector<Value> folded;
  Operation *result =
      defined.empty() ? nullptr : defined.front().getDefiningOp();
  if (result && result->getNumRegions() == 0 &&
      result->getNumResults() == defined.size() &&
      succeeded(builder.tryFold(result, folded)) && !folded.empty()) {
    result->erase();
  } else {
    folded.assign(defined.begin(), defined.end());
  }
  for (auto [from, to] : llvm::zip_equal(op->getResults(), folded))
    mapScalar(from, to);
}

SmallVector<Value>
ElementEmitter::emitChoice(Value cond, TypeRange types,
                           llvm::function_ref<SmallVector<Value>()> thenFn,
                           llvm::function_ref<SmallVector<Value>()> elseFn) {
  APInt constantCond;
  if (matchPattern(cond, m_ConstantInt(&constantCond))) {
    Scope scope(*this);
    return constantCond.isOne() ? thenFn() : elseFn();
  }
  auto ifOp = scf::IfOp::create(builder, loc, types, cond,
                                /*addThenBlock=*/true, /*addElseBlock=*/true);
  auto emitBranch = [&](Block *block,
                        llvm::function_ref<SmallVector<Value>()> branch) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    Scope scope(*this);
    scf::YieldOp::create(builder, loc, branch());
  };
  emitBranch(ifOp.thenBlock(), thenFn);
  emitBranch(ifOp.elseBlock(), elseFn);
  return SmallVector<Value>(ifOp.getResults());
}

Value ElementEmitter::emitCheckedIndex(Value index, uint64_t length,
                                       Location at) {
  std::optional<ConstantIntRanges> range = inferRange(index);
  if (range && range->umax().getActiveBits() <= 64 &&
      range->umax().getZExtValue() < length)
    return index;
  Value lengthValue = arith::ConstantIndexOp::create(builder, at, length);
  auto inside = arith::CmpIOp::create(builder, at, arith::CmpIPredicate::ult,
                                      index, lengthValue);
  ObsDialect::IndexBoundsAttrHelper(builder.getContext())
      .setAttr(inside, builder.getUnitAttr());
  if (indexReport)
    indexReport(builder, at, inside, index, length);
  return arith::SelectOp::create(
      builder, at, inside, index,
      arith::ConstantIndexOp::create(builder, at, 0));
}

Value ElementEmitter::getUncheckedIndex(Value place) {
  auto select = place.getDefiningOp<arith::SelectOp>();
  auto check = select ? select.getCondition().getDefiningOp<arith::CmpIOp>()
                      : arith::CmpIOp();
  if (!check ||
      !ObsDialect::IndexBoundsAttrHelper(check->getContext())
           .isAttrPresent(check) ||
      select.getTrueValue() != check.getLhs())
    return place;
  return select.getTrueValue();
}

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

Value ElementEmitter::constantIndex(int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

// Index functions compose: a flattened kernel's places are segments of
// segments (`(i mod 32) mod 16`), halves of riffles, pairs of evens, and
// each step divides, multiplies and takes remainders by constants. Emitted
// as they compose, a 4,096-element bitonic sort's stages are about 30,000
// such ops, which every simulation of the proof lowers and runs, and which
// arith's folders and canonicalization leave (they know no bounds). So the
// helpers below apply the identities of unsigned division by constants
// where the bounds of their operands (upperBound, arith's range
// inference) make them exact,
// wrap-around included: `(x mod a) mod c = x mod c` when c divides a,
// `x div c = 0` and `x mod c = x` when x < c, `(x div a) div c = x div ac`,
// `(k c + v) div c = k + v div c` and `(x div c) c + x mod c = x`.

/// The constant index `value` holds, as the unsigned number it is.
static std::optional<uint64_t> getConstantIndex(Value value) {
  std::optional<int64_t> constant = getConstantIntValue(value);
  if (!constant)
    return std::nullopt;
  return static_cast<uint64_t>(*constant);
}

/// `op`'s operand that is not the constant, and the constant, when `op` is
/// a binary op with one constant operand (the second, or the first of a
/// commutative op).
template <typename OpTy>
static std::optional<std::pair<Value, uint64_t>> matchByConstant(Value value) {
  auto op = value.getDefiningOp<OpTy>();
  if (!op)
    return std::nullopt;
  if (std::optional<uint64_t> rhs = getConstantIndex(op.getRhs()))
    return std::make_pair(op.getLhs(), *rhs);
  if constexpr (std::is_same_v<OpTy, arith::MulIOp>)
    if (std::optional<uint64_t> lhs = getConstantIndex(op.getLhs()))
      return std::make_pair(op.getRhs(), *lhs);
  return std::nullopt;
}

static std::optional<uint64_t> multiplyExactly(uint64_t a, uint64_t b) {
  uint64_t product;
  if (__builtin_mul_overflow(a, b, &product))
    return std::nullopt;
  return product;
}

std::optional<ConstantIntRanges>
ElementEmitter::inferRange(Value value, unsigned depth) const {
  auto noLeaf = [](Value) -> std::optional<ConstantIntRanges> {
    return std::nullopt;
  };
  return valueRange ? inferIntegerRange(value, valueRange, depth)
                    : inferIntegerRange(value, noLeaf, depth);
}

std::optional<uint64_t> ElementEmitter::upperBound(Value value) const {
  // A bound of the value only, not a sign that the op making it did not
  // wrap: arith's range inference intersects the signed and unsigned
  // ranges, so `v - 4` with v in [10, 11], which wraps as an unsigned sum,
  // is [6, 7] (an adversarial run: `(-4 + v) remui 3` became `v remui 3`
  // on cpu and cuda). Whether a sum or product wraps is asked of the
  // bounds of its operands (sumFits, multiplyExactly).
  std::optional<ConstantIntRanges> range = inferRange(value, /*depth=*/8);
  if (!range || range->umax().getActiveBits() > 64 || range->umax().isAllOnes())
    return std::nullopt;
  return range->umax().getZExtValue();
}

/// Whether `lhs + rhs`, indices, cannot wrap: the sum of their largest
/// unsigned values fits in 64 bits.
static bool sumFits(std::optional<uint64_t> lhsBound,
                    std::optional<uint64_t> rhsBound) {
  uint64_t sum;
  return lhsBound && rhsBound &&
         !__builtin_add_overflow(*lhsBound, *rhsBound, &sum);
}

bool ElementEmitter::isMultipleOf(Value value, uint64_t divisor) const {
  if (std::optional<uint64_t> constant = getConstantIndex(value))
    return *constant % divisor == 0;
  auto mul = matchByConstant<arith::MulIOp>(value);
  if (!mul || mul->second % divisor != 0)
    return false;
  // A product that wraps is still a multiple of a power of two; of any
  // other divisor only where it does not wrap.
  if (llvm::isPowerOf2_64(divisor))
    return true;
  std::optional<uint64_t> bound = upperBound(mul->first);
  return bound && multiplyExactly(*bound, mul->second);
}

std::optional<std::pair<Value, Value>>
ElementEmitter::splitOffMultiple(Value sum, uint64_t divisor) const {
  auto add = sum.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  if (isMultipleOf(add.getLhs(), divisor))
    return std::make_pair(add.getLhs(), add.getRhs());
  if (isMultipleOf(add.getRhs(), divisor))
    return std::make_pair(add.getRhs(), add.getLhs());
  return std::nullopt;
}

Value ElementEmitter::emitIndexArithmetic(Operation *op,
                                          const IRMapping &operands) {
  // Only index arithmetic with nothing but its operands: no overflow flags
  // (which make poison), no attributes the proof reads.
  if (op->getNumOperands() != 2 || op->getNumResults() != 1 ||
      !op->getResult(0).getType().isIndex() ||
      !op->getDiscardableAttrDictionary().empty())
    return {};
  Value lhs = operands.lookup(op->getOperand(0));
  Value rhs = operands.lookup(op->getOperand(1));
  if (auto add = dyn_cast<arith::AddIOp>(op))
    return add.getOverflowFlags() == arith::IntegerOverflowFlags::none
               ? addIndex(lhs, rhs)
               : Value();
  if (auto mul = dyn_cast<arith::MulIOp>(op)) {
    if (mul.getOverflowFlags() != arith::IntegerOverflowFlags::none)
      return {};
    if (getConstantIndex(lhs))
      std::swap(lhs, rhs);
  }
  std::optional<uint64_t> constant = getConstantIndex(rhs);
  if (!constant || *constant == 0 || *constant > uint64_t(INT64_MAX))
    return {};
  auto divisor = static_cast<int64_t>(*constant);
  if (isa<arith::MulIOp>(op))
    return mulIndex(lhs, divisor);
  if (isa<arith::DivUIOp>(op))
    return divIndex(lhs, divisor);
  if (isa<arith::RemUIOp>(op))
    return remIndex(lhs, divisor);
  return {};
}

Value ElementEmitter::addIndex(Value lhs, Value rhs) {
  // (x div c) c + x mod c, in either order, is x.
  auto wholeOf = [](Value multiple, Value remainder) -> Value {
    auto mul = matchByConstant<arith::MulIOp>(multiple);
    auto rem = matchByConstant<arith::RemUIOp>(remainder);
    if (!mul || !rem || mul->second != rem->second || rem->second == 0)
      return {};
    auto div = matchByConstant<arith::DivUIOp>(mul->first);
    if (!div || div->first != rem->first || div->second != rem->second)
      return {};
    return rem->first;
  };
  if (Value whole = wholeOf(lhs, rhs))
    return whole;
  if (Value whole = wholeOf(rhs, lhs))
    return whole;
  return builder.createOrFold<arith::AddIOp>(loc, lhs, rhs);
}

Value ElementEmitter::addIndex(Value lhs, int64_t rhs) {
  if (rhs == 0)
    return lhs;
  return addIndex(lhs, constantIndex(rhs));
}

Value ElementEmitter::subIndex(Value lhs, Value rhs) {
  return builder.createOrFold<arith::SubIOp>(loc, lhs, rhs);
}

Value ElementEmitter::mulIndex(Value lhs, int64_t rhs) {
  if (rhs == 1)
    return lhs;
  // Products wrap alike however they associate.
  if (auto mul = matchByConstant<arith::MulIOp>(lhs))
    return mulIndex(mul->first, static_cast<int64_t>(
                                    mul->second * static_cast<uint64_t>(rhs)));
  return builder.createOrFold<arith::MulIOp>(loc, lhs, constantIndex(rhs));
}

Value ElementEmitter::divIndex(Value lhs, int64_t rhs) {
  if (rhs == 1)
    return lhs;
  if (rhs > 1) {
    uint64_t divisor = rhs;
    std::optional<uint64_t> bound = upperBound(lhs);
    if (bound && *bound < divisor)
      return constantIndex(0);
    // (x div a) div c = x div ac.
    if (auto div = matchByConstant<arith::DivUIOp>(lhs); div && div->second)
      if (std::optional<uint64_t> both = multiplyExactly(div->second, divisor);
          both && *both <= uint64_t(INT64_MAX))
        return divIndex(div->first, static_cast<int64_t>(*both));
    // (y ka) div c = y (ka / c) where c divides ka and the product does
    // not wrap (y's bound times ka fits).
    if (auto mul = matchByConstant<arith::MulIOp>(lhs);
        mul && mul->second % divisor == 0) {
      std::optional<uint64_t> factorBound = upperBound(mul->first);
      if (factorBound && multiplyExactly(*factorBound, mul->second))
        return mulIndex(mul->first,
                        static_cast<int64_t>(mul->second / divisor));
    }
    // (u + v) div c = u div c + v div c where c divides u and the sum does
    // not wrap.
    if (auto split = splitOffMultiple(lhs, divisor);
        split && sumFits(upperBound(split->first), upperBound(split->second)))
      return addIndex(divIndex(split->first, rhs),
                      divIndex(split->second, rhs));
  }
  return builder.createOrFold<arith::DivUIOp>(loc, lhs, constantIndex(rhs));
}

Value ElementEmitter::remIndex(Value lhs, int64_t rhs) {
  if (rhs == 1)
    return constantIndex(0);
  if (rhs > 1) {
    uint64_t divisor = rhs;
    std::optional<uint64_t> bound = upperBound(lhs);
    if (bound && *bound < divisor)
      return lhs;
    // (x mod a) mod c = x mod c where c divides a.
    if (auto rem = matchByConstant<arith::RemUIOp>(lhs);
        rem && rem->second && rem->second % divisor == 0)
      return remIndex(rem->first, rhs);
    if (isMultipleOf(lhs, divisor))
      return constantIndex(0);
    // (u + v) mod c = v mod c where c divides u, and the sum does not wrap
    // or c is a power of two (which divides 2^64).
    if (auto split = splitOffMultiple(lhs, divisor);
        split && (llvm::isPowerOf2_64(divisor) ||
                  sumFits(upperBound(split->first), upperBound(split->second))))
      return remIndex(split->second, rhs);
  }
  return builder.createOrFold<arith::RemUIOp>(loc, lhs, constantIndex(rhs));
}

Value ElementEmitter::ultIndex(Value lhs, int64_t rhs) {
  return builder.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult,
                                             lhs, constantIndex(rhs));
}

Value ElementEmitter::eqIndex(Value lhs, int64_t rhs) {
  return builder.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, lhs,
                                             constantIndex(rhs));
}
