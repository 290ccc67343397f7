//===- Flatten.cpp - lift sub-program combinators to whole arrays ---------===//
//
// `two P` on a GPU is one program whose stages span both halves. Lifting
// builds that program from P: P's stage boundaries (syncs, and repeats that
// hold syncs) are replayed in order over the whole array, each merged stage
// computing element `s*K + l` as element `l` of instance `s`. Everything
// between boundaries stays an index function: it is cloned into an
// obs.generate whose region evaluates the instance for the element's
// segment, with the instance's inputs as views of segment s of the merged
// arrays (obs.generate over obs.index).
//
//===----------------------------------------------------------------------===//

#include "Obs/KernelLowering/Flatten.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::obs;

/// A stage boundary of a sub-program: where its instances must meet.
static bool isStageBoundary(Operation *op) {
  return isa<SyncOp>(op) || (isa<RepeatOp>(op) && holdsSync(op));
}

namespace {

/// Lifts one `two` (whose sub-program holds syncs) to the whole array.
class TwoLifter {
public:
  TwoLifter(TwoOp two, function_ref<void()> countMergedSync)
      : two(two), body(two.getBody().front()),
        halfLength(arrType(two.getInput()).getLength() / 2),
        countMergedSync(countMergedSync) {}

  /// Builds the lifted program before `two` and returns its result.
  FailureOr<Value> lift();

private:
  /// The merged version (2K elements) of the instance value `value` (K).
  FailureOr<Value> liftValue(Value value);
  /// An obs.generate computing the merged version of a pure instance value.
  Value liftPure(Value value);
  FailureOr<Value> liftRepeat(RepeatOp repeat);
  /// `generate j -> merged[segment * partLength + j]`: the instance's view.
  Value segmentView(OpBuilder &builder, Value merged, uint64_t partLength,
                    Value segment);

  TwoOp two;
  Block &body;
  uint64_t halfLength;
  function_ref<void()> countMergedSync;
  llvm::DenseMap<Value, Value> lifted;
};

} // namespace

/// Flattens `two` and returns failure after reporting when it cannot.
static LogicalResult flattenTwo(TwoOp two, function_ref<void()> countLifted,
                                function_ref<void()> countMergedSync);

Value TwoLifter::segmentView(OpBuilder &builder, Value merged,
                             uint64_t partLength, Value segment) {
  Location loc = merged.getLoc();
  auto view =
      GenerateOp::create(builder, loc, arrType(merged).withLength(partLength));
  OpBuilder::InsertionGuard guard(builder);
  Block *block =
      builder.createBlock(&view.getBody(), {}, builder.getIndexType(), loc);
  Value offset = arith::MulIOp::create(
      builder, loc, segment,
      arith::ConstantIndexOp::create(builder, loc, partLength));
  Value index =
      arith::AddIOp::create(builder, loc, offset, block->getArgument(0));
  YieldOp::create(builder, loc,
                  IndexOp::create(builder, loc, merged, index).getResults());
  return view.getResult();
}

Value TwoLifter::liftPure(Value value) {
  Location loc = value.getLoc();
  uint64_t partLength = arrType(value).getLength();
  OpBuilder builder(two);
  auto generate = GenerateOp::create(builder, loc,
                                     arrType(value).withLength(2 * partLength));
  Block *block =
      builder.createBlock(&generate.getBody(), {}, builder.getIndexType(), loc);
  Value element = block->getArgument(0);
  Value partLengthValue =
      arith::ConstantIndexOp::create(builder, loc, partLength);
  Value segment =
      arith::DivUIOp::create(builder, loc, element, partLengthValue);
  Value local = arith::RemUIOp::create(builder, loc, element, partLengthValue);

  // The instance ops `value` depends on, up to the boundaries and the
  // sub-program's argument, in program order.
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist{value};
  IRMapping mapping;
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (next == body.getArgument(0)) {
      if (!mapping.contains(next))
        mapping.map(next,
                    segmentView(builder, two.getInput(), halfLength, segment));
      continue;
    }
    Operation *producer = next.getDefiningOp();
    if (!producer || producer->getBlock() != &body)
      continue; // Defined outside the sub-program: the same in both.
    if (isStageBoundary(producer)) {
      if (!mapping.contains(next))
        mapping.map(next, segmentView(builder, lifted.lookup(next),
                                      arrType(next).getLength(), segment));
      continue;
    }
    if (!slice.insert(producer))
      continue;
    llvm::append_range(worklist, producer->getOperands());
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(producer->getRegions(), captured);
    llvm::append_range(worklist, captured);
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ordered)
    builder.clone(*op, mapping);
  Value instance = mapping.lookupOrDefault(value);
  YieldOp::create(builder, loc,
                  IndexOp::create(builder, loc, instance, local).getResults());
  return generate.getResult();
}

FailureOr<Value> TwoLifter::liftRepeat(RepeatOp repeat) {
  FailureOr<Value> input = liftValue(repeat.getInput());
  if (failed(input))
    return failure();
  // Arrays of the sub-program other than the repeat's input are not visible
  // to the lifted body, which runs outside the sub-program.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(repeat.getBody(), captured);
  for (Value value : captured) {
    Operation *producer = value.getDefiningOp();
    bool inInstance = value == body.getArgument(0) ||
                      (producer && producer->getBlock() == &body);
    if (inInstance &&
        !(producer && producer->hasTrait<OpTrait::ConstantLike>()))
      return repeat.emitOpError()
             << "inside a sub-program cannot be flattened: its body uses "
                "values of the sub-program other than its input";
  }
  OpBuilder builder(two);
  Location loc = repeat.getLoc();
  ArrType mergedType = arrType(*input);
  auto merged =
      RepeatOp::create(builder, loc, mergedType, *input, repeat.getCountAttr());
  Block *block = builder.createBlock(&merged.getBody(), {}, mergedType, loc);
  auto inner = TwoOp::create(builder, loc, mergedType, block->getArgument(0));
  YieldOp::create(builder, loc, inner.getResult());
  IRMapping mapping;
  builder.setInsertionPointToStart(block);
  for (Value value : captured) {
    Operation *producer = value.getDefiningOp();
    if (producer && producer->getBlock() == &body)
      mapping.map(value, builder.clone(*producer)->getResult(0));
  }
  repeat.getBody().cloneInto(&inner.getBody(), mapping);
  if (failed(flattenTwo(inner, [] {}, countMergedSync)))
    return failure();
  return merged.getResult();
}

FailureOr<Value> TwoLifter::liftValue(Value value) {
  if (Value known = lifted.lookup(value))
    return known;
  if (value == body.getArgument(0))
    return two.getInput();
  return liftPure(value);
}

FailureOr<Value> TwoLifter::lift() {
  for (Operation &op : body.without_terminator()) {
    if (auto sync = dyn_cast<SyncOp>(op)) {
      FailureOr<Value> input = liftValue(sync.getInput());
      if (failed(input))
        return failure();
      OpBuilder builder(two);
      auto merged = cast<SyncOp>(builder.clone(*sync));
      merged->setOperand(0, *input);
      merged.getResult().setType(arrType(*input));
      lifted[sync.getResult()] = merged.getResult();
      countMergedSync();
      continue;
    }
    if (auto repeat = dyn_cast<RepeatOp>(op); repeat && holdsSync(repeat)) {
      FailureOr<Value> merged = liftRepeat(repeat);
      if (failed(merged))
        return failure();
      lifted[repeat.getResult()] = *merged;
    }
  }
  return liftValue(body.getTerminator()->getOperand(0));
}

static LogicalResult flattenTwo(TwoOp two, function_ref<void()> countLifted,
                                function_ref<void()> countMergedSync) {
  TwoLifter lifter(two, countMergedSync);
  FailureOr<Value> result = lifter.lift();
  if (failed(result))
    return failure();
  two.getResult().replaceAllUsesWith(*result);
  two.erase();
  countLifted();
  return success();
}

/// ilv P = riffle (two P (unriffle a)).
static TwoOp rewriteIlvAsTwo(IlvOp ilv) {
  OpBuilder builder(ilv);
  Location loc = ilv.getLoc();
  auto unriffled = UnriffleOp::create(builder, loc, ilv.getInput().getType(),
                                      ilv.getInput());
  auto two = TwoOp::create(builder, loc, ilv.getResult().getType(),
                           unriffled.getResult());
  two.getBody().takeBody(ilv.getBody());
  auto riffled = RiffleOp::create(builder, loc, two.getResult().getType(),
                                  two.getResult());
  ilv.getResult().replaceAllUsesWith(riffled.getResult());
  ilv.erase();
  return two;
}

/// one P = conc (halve a).low (P (halve a).high), with P inlined.
static void inlineOne(OneOp one) {
  OpBuilder builder(one);
  Location loc = one.getLoc();
  auto halve = HalveOp::create(builder, loc, one.getInput());
  Block &body = one.getBody().front();
  // A body that yields its argument produces the high half itself; the
  // argument dies with `one`, so nothing may keep using it.
  Value produced = body.getTerminator()->getOperand(0);
  if (produced == body.getArgument(0))
    produced = halve.getHigh();
  body.getTerminator()->erase();
  Block *parent = one->getBlock();
  parent->getOperations().splice(Block::iterator(one), body.getOperations());
  body.getArgument(0).replaceAllUsesWith(halve.getHigh());
  auto conc = ConcOp::create(builder, loc, halve.getLow(), produced);
  one.getResult().replaceAllUsesWith(conc.getResult());
  one.erase();
}

LogicalResult mlir::obs::flattenKernel(KernelOp kernel,
                                       function_ref<void()> countLifted,
                                       function_ref<void()> countMergedSync) {
  // Post-order: inner combinators are flat before their parents lift.
  SmallVector<Operation *> combinators;
  kernel.walk([&](Operation *op) {
    if (isa<TwoOp, IlvOp, OneOp>(op) && holdsSync(op))
      combinators.push_back(op);
  });
  for (Operation *op : combinators) {
    if (auto one = dyn_cast<OneOp>(op)) {
      inlineOne(one);
      countLifted();
      continue;
    }
    TwoOp two =
        isa<IlvOp>(op) ? rewriteIlvAsTwo(cast<IlvOp>(op)) : cast<TwoOp>(op);
    if (failed(flattenTwo(two, countLifted, countMergedSync)))
      return failure();
  }
  return success();
}

bool mlir::obs::isFlat(KernelOp kernel) {
  return !kernel
              .walk([](Operation *op) {
                return isa<TwoOp, IlvOp, OneOp>(op) && holdsSync(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted();
}
