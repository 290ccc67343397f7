//===- ElementEmitter.cpp - emits the index functions of pull arrays ------===//

#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Dialect/Obs/DefinedArithmetic.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

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
  auto noLeaf = [](Value) -> std::optional<ConstantIntRanges> {
    return std::nullopt;
  };
  std::optional<ConstantIntRanges> range =
      valueRange ? inferIntegerRange(index, valueRange)
                 : inferIntegerRange(index, noLeaf);
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

Value ElementEmitter::addIndex(Value lhs, Value rhs) {
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
  return builder.createOrFold<arith::MulIOp>(loc, lhs, constantIndex(rhs));
}

Value ElementEmitter::divIndex(Value lhs, int64_t rhs) {
  if (rhs == 1)
    return lhs;
  return builder.createOrFold<arith::DivUIOp>(loc, lhs, constantIndex(rhs));
}

Value ElementEmitter::remIndex(Value lhs, int64_t rhs) {
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
