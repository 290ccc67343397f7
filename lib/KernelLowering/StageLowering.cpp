//===- StageLowering.cpp - a stage's rounds
//---------------------------------===//
//
// A stage computes its array's elements, dealt out to the threads by its
// work assignment, in rounds: unrolled up to kUnrolledRounds (and up to
// kMostUnrolledOps ops), a loop beyond.
//
//===----------------------------------------------------------------------===//

#include "KernelLoweringImpl.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::kernel_lowering;

LogicalResult KernelLowering::emitStage(Value array,
                                        WorkAssignmentAttrInterface how,
                                        const Destination &destination,
                                        const ElementSet *written,
                                        bool inPlace) {
  auto storeAt = [&](Value element, ValueRange inner, ValueRange leaf) {
    SmallVector<Value> target{element};
    target.append(inner.begin(), inner.end());
    if (destination.layout)
      target[0] = placeOf(builder, loc(), destination.layout, element);
    storeGlobal(destination, leaf, target);
  };
  return emitStage(ArrayRef<Value>{array}, how, storeAt, written, inPlace);
}

/// One stage being emitted: how its elements are dealt out to the threads,
/// which of them it writes, and what its rounds have done so far. Its
/// steps are the parts of emitStage, which share all of this.
class KernelLowering::StageEmitter {
public:
  StageEmitter(KernelLowering &lowering, ArrayRef<Value> arrays,
               WorkAssignmentAttrInterface how, LeafStore store,
               const ElementSet *written, bool inPlace,
               SmallVectorImpl<SmallVector<Value>> *kept);

  /// Emits every round of the stage, and reports an array whose code
  /// would inline more reads than the limit.
  LogicalResult emit();

private:
  /// What a round known when lowering writes, where identity writes are
  /// skipped: nothing (the round is not emitted), everything (no thread
  /// asks the set), or some of it.
  enum class RoundWrites { Nothing, Everything, Some };
  /// A round computed but not stored yet: whether the thread stores, the
  /// element it stores and the element's leaf.
  struct Computed {
    Value store, element;
    SmallVector<Value> leaf;
  };

  /// What round `round` writes, known when lowering.
  RoundWrites roundWrites(uint64_t round);
  /// Whether thread `thread` works on `position` in a round; the pipelines
  /// fold this where the thread id's range decides it. Where arrays in
  /// shuffles may be read, a round in which every thread of the block works
  /// is `true` here already: its shuffles are then under no branch, which
  /// the proof requires (and the cpu target's exchange, at the top level of
  /// a warp's steps).
  Value worksOn(Value thread, Value position, Value round);
  /// Tells `emitter` where the arrays the stage reads live, and what it may
  /// know of the thread and the block that run it.
  void prepareEmitter(ElementEmitter &emitter);
  /// The flattened scalars of the leaf at `inner` of the element `element`,
  /// which the thread computes in round `round`.
  SmallVector<Value> emitLeafOf(Value element, ValueRange inner, Value round);
  /// Computes and stores, leaf by leaf, the element of round `round`.
  void emitRound(Value round);
  /// Computes the element of round `round` into values, kept in `computed`
  /// for storeRounds (or the registers) and stored by nothing yet.
  void computeRound(Value round);
  /// Stores the rounds computeRound computed, in order.
  void storeRounds();
  /// Emits the rounds as a loop.
  void emitLoop();
  /// Emits the rounds unrolled, or, where their code would inline more
  /// reads than the limit or take more ops than kMostUnrolledOps, as a
  /// loop instead.
  void emitUnrolled();
  /// Whether the rounds may be a loop instead of unrolled: not where a
  /// thread computes all its rounds before it stores any (a loop stores as
  /// it goes), nor where the kernel keeps arrays in shuffles (a shuffle in
  /// a loop's round is under the branch of the threads that work in it).
  bool mayLoop() const {
    return !computeThenStore && lowering.shuffledArrays.empty();
  }

  Location loc() { return lowering.loc(); }
  Value threadId() { return lowering.threadId(); }
  Value constant(int64_t value) { return lowering.constant(value); }

  KernelLowering &lowering;
  OpBuilder &builder;
  ArrayRef<Value> arrays;
  WorkAssignmentAttrInterface how;
  LeafStore store;
  const ElementSet *written;
  SmallVectorImpl<SmallVector<Value>> *kept;
  /// compact deals out only the written elements; the others give each
  /// element to its thread and skip the ones an in-place stage leaves alone.
  bool compact;
  /// Whether its positions are the leaves of an array of rows, in
  /// row-major order (isDealtOutByLeaf), not its elements.
  bool byLeaf;
  uint64_t positions;
  uint64_t rounds;
  SmallVector<uint64_t> shape;
  bool failed = false;
  /// Array reads the stage's code inlines so far, over its rounds.
  uint64_t fusedReads = 0;
  /// Whether a failure other than the read limit's was reported.
  bool reportedError = false;
  bool skipsIdentity;
  /// Whether the round being emitted asks the set of written elements.
  bool asksWritten;
  /// Whether a thread computes all its rounds before it stores any (see
  /// the constructor).
  bool computeThenStore;
  SmallVector<Computed> computed;
};

KernelLowering::StageEmitter::StageEmitter(
    KernelLowering &lowering, ArrayRef<Value> arrays,
    WorkAssignmentAttrInterface how, LeafStore store, const ElementSet *written,
    bool inPlace, SmallVectorImpl<SmallVector<Value>> *kept)
    : lowering(lowering), builder(lowering.builder), arrays(arrays), how(how),
      store(store), written(written), kept(kept) {
  ArrType type = arrType(arrays.front());
  uint64_t length = type.getLength();
  compact = isa<CompactAttr>(how);
  // Elements an in-place stage leaves alone are skipped by element: such a
  // stage is dealt out by element, whatever its shape.
  byLeaf =
      isDealtOutByLeaf(type, how) && !kept && !(written && !written->isAll());
  positions = compact && written ? written->size()
              : byLeaf           ? type.getNumLeaves()
                                 : length;
  rounds = how.getRoundCount(positions);
  shape = type.getShape();
  skipsIdentity = !compact && written && !written->isAll();
  asksWritten = skipsIdentity;
  computeThenStore = computesBeforeStoring(type, rounds, inPlace, kept);
}

KernelLowering::StageEmitter::RoundWrites
KernelLowering::StageEmitter::roundWrites(uint64_t round) {
  if (!skipsIdentity)
    return RoundWrites::Everything;
  bool any = false, all = true;
  for (uint64_t thread = 0; thread < lowering.blockThreads; ++thread)
    if (std::optional<uint64_t> element =
            how.getElement(thread, round, positions)) {
      bool changes = written->contains(*element);
      any |= changes;
      all &= changes;
    }
  return !any  ? RoundWrites::Nothing
         : all ? RoundWrites::Everything
               : RoundWrites::Some;
}

Value KernelLowering::StageEmitter::worksOn(Value thread, Value position,
                                            Value round) {
  uint64_t blockThreads = lowering.blockThreads;
  // Under strided and blocked assignments a thread works in a round only
  // if every thread before it does: the block's last thread decides.
  APInt constantRound;
  bool isConstantRound = matchPattern(round, m_ConstantInt(&constantRound));
  if (!lowering.shuffledArrays.empty() && !compact && isConstantRound &&
      how.getElement(blockThreads - 1, constantRound.getZExtValue(), positions))
    return arith::ConstantIntOp::create(builder, loc(), 1, 1);
  // A loop's round: and only if it works in every later round too, so the
  // last thread in the last round decides for every round (where the loop
  // is a sort's or a merge's rounds, LLVM unrolls it and finds no branch
  // to keep). Compact deals out its positions as strided deals elements.
  if (!isConstantRound && rounds > 0 &&
      how.getElement(blockThreads - 1, rounds - 1, positions))
    return arith::ConstantIntOp::create(builder, loc(), 1, 1);
  Value works = arith::CmpIOp::create(builder, loc(), arith::CmpIPredicate::ult,
                                      position, constant(positions));
  uint64_t threadsUsed = how.getThreadCount(positions);
  if (!isa<BlockedAttr>(how))
    threadsUsed = isa<StridedAttr>(how) ? cast<StridedAttr>(how).getThreads()
                                        : cast<CompactAttr>(how).getThreads();
  if (threadsUsed < blockThreads)
    works = arith::AndIOp::create(
        builder, loc(), works,
        arith::CmpIOp::create(builder, loc(), arith::CmpIPredicate::ult, thread,
                              constant(threadsUsed)));
  return works;
}

void KernelLowering::StageEmitter::prepareEmitter(ElementEmitter &emitter) {
  emitter.setReadLimit(kMaxFusedReads - std::min(fusedReads, kMaxFusedReads));
  for (const auto &[value, reader] : lowering.sources)
    emitter.setSource(value, reader);
  for (Value shuffled : lowering.shuffledArrays)
    emitter.setReadEverywhere(shuffled);
  for (Value guarded : lowering.readsAnyPlace)
    emitter.setReadsAnyPlace(guarded);
  // A thread id is below the block's threads: a place inside its array
  // whatever the thread needs no check.
  emitter.setValueRange(
      [this](Value value) -> std::optional<ConstantIntRanges> {
        auto id = value.getDefiningOp<gpu::ThreadIdOp>();
        if (!id || id.getDimension() != gpu::Dimension::x)
          return std::nullopt;
        unsigned width = IndexType::kInternalStorageBitWidth;
        return ConstantIntRanges::fromUnsigned(
            APInt::getZero(width), APInt(width, lowering.blockThreads - 1));
      });
  emitter.setBlockPosition(
      lowering.kernel,
      [](OpBuilder &b, Location loc) -> Value {
        auto block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
        ObsDialect::DataAttrHelper(b.getContext())
            .setAttr(block, b.getUnitAttr());
        return block;
      },
      [this](OpBuilder &b, Location loc, unsigned index) {
        return lowering.emitExtent(b, loc, index);
      });
  if (lowering.indexReport)
    emitter.setIndexReport([this](OpBuilder &b, Location loc, Value inside,
                                  Value index, uint64_t length) {
      emitIndexOutsideReport(b, loc, lowering.indexReport, inside,
                             gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
                             index, length);
    });
}

SmallVector<Value> KernelLowering::StageEmitter::emitLeafOf(Value element,
                                                            ValueRange inner,
                                                            Value round) {
  std::optional<ElementInProgress> outer = lowering.inProgress;
  lowering.inProgress = ElementInProgress{element, how, round};
  llvm::scope_exit restore([&] { lowering.inProgress = outer; });
  ElementEmitter emitter(builder, loc());
  prepareEmitter(emitter);
  SmallVector<Value> path{element};
  path.append(inner.begin(), inner.end());
  SmallVector<Value> leaf;
  for (Value array : arrays)
    llvm::append_range(leaf, emitter.emitLeaf(array, path));
  fusedReads += emitter.getFusedReads();
  failed |= emitter.failed();
  reportedError |= emitter.reportedError();
  return leaf;
}

void KernelLowering::StageEmitter::emitRound(Value round) {
  Value thread = threadId();
  Value position = how.buildElementIndex(builder, loc(), thread, round);
  auto ifOp =
      scf::IfOp::create(builder, loc(), worksOn(thread, position, round),
                        /*withElse=*/false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(ifOp.thenBlock());
  Value element = position;
  if (compact && written)
    element = written->emitNth(builder, loc(), position);
  if (asksWritten) {
    auto skipIdentity = scf::IfOp::create(
        builder, loc(), written->emitContains(builder, loc(), element),
        /*withElse=*/false);
    builder.setInsertionPointToStart(skipIdentity.thenBlock());
  }
  if (byLeaf) {
    // The position is a leaf: its element and its place in the element,
    // row-major (the last index fastest).
    SmallVector<Value> inner(shape.size() - 1);
    Value rest = position;
    for (size_t d = shape.size() - 1; d > 0; --d) {
      Value extent = constant(shape[d]);
      inner[d - 1] = arith::RemUIOp::create(builder, loc(), rest, extent);
      rest = arith::DivUIOp::create(builder, loc(), rest, extent);
    }
    store(rest, inner, emitLeafOf(rest, inner, round));
    return;
  }
  // A nested element is computed whole by its thread, leaf by leaf.
  SmallVector<Value> lowerBounds, upperBounds, steps;
  for (uint64_t extent : ArrayRef(shape).drop_front()) {
    lowerBounds.push_back(constant(0));
    upperBounds.push_back(constant(extent));
    steps.push_back(constant(1));
  }
  scf::buildLoopNest(builder, loc(), lowerBounds, upperBounds, steps,
                     [&](OpBuilder &nested, Location, ValueRange inner) {
                       OpBuilder::InsertionGuard innerGuard(builder);
                       builder.setInsertionPoint(nested.getInsertionBlock(),
                                                 nested.getInsertionPoint());
                       store(element, inner, emitLeafOf(element, inner, round));
                     });
}

void KernelLowering::StageEmitter::computeRound(Value round) {
  Value thread = threadId();
  Value position = how.buildElementIndex(builder, loc(), thread, round);
  Value works = worksOn(thread, position, round);
  Value stores = works;
  if (asksWritten) {
    // Whether the element changes, asked only where the thread works (a
    // table of changed elements has no entry past the array).
    auto changes = scf::IfOp::create(builder, loc(), builder.getI1Type(), works,
                                     /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(changes.thenBlock());
    scf::YieldOp::create(builder, loc(),
                         written->emitContains(builder, loc(), position));
    builder.setInsertionPointToStart(changes.elseBlock());
    scf::YieldOp::create(
        builder, loc(),
        arith::ConstantIntOp::create(builder, loc(), 0, 1).getResult());
    stores = changes.getResult(0);
  }
  SmallVector<Type> types;
  for (Value array : arrays)
    flattenElementType(arrType(array).getLeafType(), types);
  types.push_back(builder.getIndexType());
  auto ifOp = scf::IfOp::create(builder, loc(), types, stores,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(ifOp.thenBlock());
  Value element = position;
  if (compact && written)
    element = written->emitNth(builder, loc(), position);
  SmallVector<Value> yielded = emitLeafOf(element, {}, round);
  yielded.push_back(element);
  scf::YieldOp::create(builder, loc(), yielded);
  builder.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(builder, loc(),
                       llvm::map_to_vector(types, [&](Type t) -> Value {
                         return ub::PoisonOp::create(builder, loc(), t);
                       }));
  Computed result{stores, ifOp.getResults().back(), {}};
  llvm::append_range(result.leaf, ifOp.getResults().drop_back());
  computed.push_back(std::move(result));
}

void KernelLowering::StageEmitter::storeRounds() {
  for (const Computed &round : computed) {
    auto ifOp = scf::IfOp::create(builder, loc(), round.store,
                                  /*withElse=*/false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    store(round.element, {}, round.leaf);
  }
}

void KernelLowering::StageEmitter::emitLoop() {
  auto loop = scf::ForOp::create(builder, loc(), constant(0), constant(rounds),
                                 constant(1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  emitRound(loop.getInductionVar());
}

void KernelLowering::StageEmitter::emitUnrolled() {
  Block *block = builder.getInsertionBlock();
  Block::iterator start = builder.getInsertionPoint();
  Operation *before = start == block->begin() ? nullptr : &*std::prev(start);
  // A round in which no thread changes an element of an in-place stage
  // is not emitted at all, and one in which every working thread does
  // needs no test: neither is left for LLVM to find.
  auto firstEmitted = [&] {
    return before ? std::next(before->getIterator()) : block->begin();
  };
  SmallVector<std::pair<uint64_t, RoundWrites>> emittedRounds;
  for (uint64_t round = 0; round < rounds; ++round)
    if (RoundWrites writes = roundWrites(round); writes != RoundWrites::Nothing)
      emittedRounds.push_back({round, writes});
  bool overBudget = false;
  for (auto [round, writes] : emittedRounds) {
    if (failed)
      break;
    asksWritten = writes == RoundWrites::Some;
    if (computeThenStore)
      computeRound(constant(round));
    else
      emitRound(constant(round));
    // The first round's ops, nested ones included, times the rounds: the
    // emission is a function of the kernel alone, so the simulations and
    // the lowering that follows them decide alike.
    if (round != emittedRounds.front().first || emittedRounds.size() < 2 ||
        !mayLoop())
      continue;
    uint64_t ops = 0;
    for (Block::iterator it = firstEmitted(), end = builder.getInsertionPoint();
         it != end; ++it)
      it->walk([&](Operation *) { ++ops; });
    if (ops * emittedRounds.size() > kMostUnrolledOps) {
      overBudget = true;
      break;
    }
  }
  asksWritten = skipsIdentity;
  // Over the budget only where the rounds may loop: not computed first.
  if (computeThenStore && !failed)
    storeRounds();
  if (overBudget ||
      (rounds > 1 && fusedReads > kMaxFusedReads && !reportedError)) {
    Block::iterator end = builder.getInsertionPoint();
    SmallVector<Operation *> emitted;
    for (Block::iterator it = firstEmitted(); it != end; ++it)
      emitted.push_back(&*it);
    for (Operation *op : llvm::reverse(emitted))
      op->erase();
    failed = false;
    fusedReads = 0;
    emitLoop();
  }
}

LogicalResult KernelLowering::StageEmitter::emit() {
  // Few rounds are unrolled, so that each is specialised (a branch that
  // depends only on the round folds away); many are a loop, which keeps the
  // code small when few threads sweep a long array. So are few rounds whose
  // code, unrolled, would inline more reads than the limit: what was
  // emitted goes, and the loop is emitted instead.
  if (kept) {
    // Registers: every round unrolled, its values kept, nothing stored.
    assert(rounds <= SyncOp::kMostRegisterRounds && shape.size() == 1 &&
           "registers hold the unrolled rounds of scalar elements");
    for (uint64_t round = 0; round < rounds && !failed; ++round)
      computeRound(constant(round));
    for (Computed &round : computed)
      kept->push_back(std::move(round.leaf));
  } else if (rounds > kUnrolledRounds) {
    emitLoop();
  } else {
    emitUnrolled();
  }
  if (fusedReads > kMaxFusedReads && !reportedError)
    return tagError(
        emitError(arrays.front().getLoc())
            << "the code that computes this array inlines more than the "
               "limit of "
            << kMaxFusedReads
            << " reads of the arrays it is computed from (each step since "
               "the last sync multiplies them); an obs.sync between the "
               "steps materializes an array and ends the chain",
        ErrorKind::CompilerLimit);
  return failure(failed);
}

LogicalResult
KernelLowering::emitStage(ArrayRef<Value> arrays,
                          WorkAssignmentAttrInterface how, LeafStore store,
                          const ElementSet *written, bool inPlace,
                          SmallVectorImpl<SmallVector<Value>> *kept) {
  counters.stage();
  how = assignmentOrStrided(how);
  return StageEmitter(*this, arrays, how, store, written, inPlace, kept).emit();
}
