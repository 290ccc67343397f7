//===- RegisterLowering.cpp - arrays kept in registers and shuffles
//---------===//
//
// A sync kept by threads (obs.storage registers or shuffle): each thread keeps
// the values it computes, and a read takes the owner's value, its own or,
// through the cheapest shfl.sync that serves, another lane's.
//
//===----------------------------------------------------------------------===//

#include "KernelLoweringImpl.h"
#include "Obs/Support/IntegerEvaluation.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::kernel_lowering;

Value mlir::obs::kernel_lowering::emitWarpMask(OpBuilder &b, Location loc,
                                               uint64_t blockThreads) {
  uint64_t partial = blockThreads % kWarpSize;
  Value mask = arith::ConstantIntOp::create(b, loc, 0xffffffff, 32);
  if (!partial)
    return mask;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value warp = arith::DivUIOp::create(
      b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
      constant(kWarpSize));
  Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp,
                                       constant(blockThreads / kWarpSize));
  Value partialMask =
      arith::ConstantIntOp::create(b, loc, (uint64_t(1) << partial) - 1, 32);
  return arith::SelectOp::create(b, loc, isLast, partialMask, mask);
}

static std::optional<SmallVector<int64_t>>
evaluateSliceInEachThread(const llvm::SetVector<Operation *> &slice,
                          const llvm::DenseMap<Value, unsigned> &position,
                          uint64_t blockThreads);

/// The value of `value` in each thread of the block, where it is index
/// arithmetic on the thread's id (gpu.thread_id x) and constants: the ops
/// it is computed by (its backward slice, operands first) are evaluated
/// thread by thread as the block simulation evaluates them
/// (evaluateIntegerOp). Nothing where anything else (a loop's variable, a
/// load, an op with regions) enters, or where a thread's value is poison.
///
/// `cache` keeps the results by the structure of what they evaluate: each
/// op of the slice (its name, properties, attributes and result type) and
/// where its operands come from, which is all the evaluation reads. The reads
/// of an array in shuffles build the same expressions over and over.
static std::optional<SmallVector<int64_t>>
evaluateInEachThread(Value value, uint64_t blockThreads,
                     ThreadValuesCache &cache) {
  Operation *root = value.getDefiningOp();
  if (!root)
    return std::nullopt;
  llvm::SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.omitBlockArguments = false;
  options.omitUsesFromAbove = false;
  if (failed(getBackwardSlice(root, &slice, options)))
    return std::nullopt;
  slice.insert(root);
  llvm::DenseMap<Value, unsigned> position;
  for (auto [index, op] : llvm::enumerate(slice)) {
    if (op->getNumRegions() || op->getNumResults() != 1 ||
        !isEvaluatedIntegerType(op->getResult(0).getType()))
      return std::nullopt;
    for (Value operand : op->getOperands())
      if (!position.count(operand))
        return std::nullopt;
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op);
        id && id.getDimension() != gpu::Dimension::x)
      return std::nullopt;
    position[op->getResult(0)] = index;
  }
  std::vector<uintptr_t> structure;
  for (Operation *op : slice) {
    structure.push_back(
        reinterpret_cast<uintptr_t>(op->getName().getAsOpaquePointer()));
    // Its attributes, inherent (a constant's value is a property) and
    // discardable, each uniqued.
    structure.push_back(reinterpret_cast<uintptr_t>(
        op->getPropertiesAsAttribute().getAsOpaquePointer()));
    structure.push_back(reinterpret_cast<uintptr_t>(
        op->getRawDictionaryAttrs().getAsOpaquePointer()));
    structure.push_back(reinterpret_cast<uintptr_t>(
        op->getResult(0).getType().getAsOpaquePointer()));
    structure.push_back(op->getNumOperands());
    for (Value operand : op->getOperands())
      structure.push_back(position.lookup(operand));
  }
  auto [cached, inserted] = cache.try_emplace(std::move(structure));
  if (!inserted)
    return cached->second;
  cached->second = evaluateSliceInEachThread(slice, position, blockThreads);
  return cached->second;
}

/// evaluateInEachThread's evaluation of `slice` (operands first; `position`
/// says where each value is computed), for each thread.
static std::optional<SmallVector<int64_t>>
evaluateSliceInEachThread(const llvm::SetVector<Operation *> &slice,
                          const llvm::DenseMap<Value, unsigned> &position,
                          uint64_t blockThreads) {
  // Compiled once: each op's opcode, widths and operands' positions. What
  // does not depend on the thread id is computed once, before the threads;
  // the rest thread by thread, in that order (the slice's).
  struct Step {
    Operation *op;
    unsigned index;
    IntegerOpcode code;
    unsigned operandWidth, resultWidth;
    SmallVector<unsigned, 3> operands;
  };
  SmallVector<int64_t> values(slice.size());
  SmallVector<bool> perThread(slice.size(), false);
  SmallVector<Step> steps;
  SmallVector<int64_t> operands;
  for (auto [index, op] : llvm::enumerate(slice)) {
    Step step{op,
              static_cast<unsigned>(index),
              classifyIntegerOp(*op),
              0,
              getIntegerWidth(op->getResult(0).getType()),
              {}};
    bool varies = isa<gpu::ThreadIdOp>(op);
    for (Value operand : op->getOperands()) {
      step.operands.push_back(position.lookup(operand));
      varies |= perThread[step.operands.back()];
    }
    if (step.code != IntegerOpcode::Fold) {
      Type operandType =
          op->getOperand(step.code == IntegerOpcode::Select ? 1 : 0).getType();
      if (!isEvaluatedIntegerType(operandType))
        return std::nullopt;
      step.operandWidth = getIntegerWidth(operandType);
    }
    perThread[index] = varies;
    if (varies) {
      steps.push_back(std::move(step));
      continue;
    }
    operands.clear();
    for (unsigned operand : step.operands)
      operands.push_back(values[operand]);
    std::optional<int64_t> computed = evaluateIntegerOp(*op, operands);
    if (!computed)
      return std::nullopt;
    values[index] = *computed;
  }
  SmallVector<int64_t> results(blockThreads);
  for (uint64_t thread = 0; thread < blockThreads; ++thread) {
    for (const Step &step : steps) {
      if (isa<gpu::ThreadIdOp>(step.op)) {
        values[step.index] = thread;
        continue;
      }
      operands.clear();
      for (unsigned operand : step.operands)
        operands.push_back(values[operand]);
      std::optional<int64_t> computed =
          step.code == IntegerOpcode::Fold
              ? evaluateIntegerOp(*step.op, operands)
              : computeIntegerOpcode(step.code, step.operandWidth, operands);
      if (!computed)
        return std::nullopt;
      values[step.index] = wrapToWidth(step.resultWidth, *computed);
    }
    results[thread] = values.back();
  }
  return results;
}

namespace {
/// Which shfl.sync a read of an array in shuffles takes: its kind, and its
/// lane or offset when one constant serves every thread of the block
/// (none: idx from the owner's lane, computed in each thread).
struct ShufflePattern {
  NVVM::ShflKind kind = NVVM::ShflKind::idx;
  std::optional<int64_t> offset;
  /// Whether the lanes that read their own element take their own value
  /// instead (the shuffle's is wrong for them): a pair's two reads, one
  /// of them each lane's own, are then one bfly.
  bool ownLanesKept = false;
  /// Where they do, and the threads that read their own element are those
  /// with bit `bit` of their id equal to `set` (evaluated in every
  /// thread): the condition they are told by, which the reads of both
  /// elements of a pair share (as complements), where their checks are
  /// two expressions no pass sees are each other's negation.
  struct ThreadBit {
    unsigned bit;
    bool set;
  };
  std::optional<ThreadBit> ownLanes;
};
} // namespace

/// The cheapest shfl.sync that brings each thread the value of `owner`'s
/// lane: up, down or bfly by a constant, or idx from a constant lane, where
/// that is the lane the owner has in every thread of the block (evaluated
/// thread by thread: up and down where the lane itself is the source at
/// the warp's edge, as they give); failing that, one of them where it is
/// the owner's lane in every thread that reads another's element, the
/// others keeping their own value (a compare-and-swap's read of the pair's
/// first element: its own in the first lane, the partner's, bfly, in the
/// second); idx from the owner's lane otherwise. The kind is not trusted:
/// the simulation checks, at each shuffle, that the lane the shuffle takes
/// from is the element's owner, wherever the shuffle's value is used. Which
/// lanes keep their own value (the check, or a bit of the thread id that
/// says the same) rests on this exact evaluation of every thread, with the
/// block run's own evaluator.
static ShufflePattern chooseShuffle(Value owner, uint64_t blockThreads,
                                    ThreadValuesCache &cache) {
  std::optional<SmallVector<int64_t>> source =
      evaluateInEachThread(owner, blockThreads, cache);
  if (!source)
    return {};
  // The owner's lane, where it is in the reading thread's warp (the
  // simulation rejects any other).
  for (uint64_t thread = 0; thread < blockThreads; ++thread) {
    int64_t &computedBy = (*source)[thread];
    if (computedBy < 0 ||
        uint64_t(computedBy) / kWarpSize != thread / kWarpSize)
      return {};
    computedBy %= kWarpSize;
  }
  // Whether the shuffle `sourceOf` gives each thread its owner's value;
  // with `ownKept`, only the threads that read another's element, though
  // the others' source must still be a lane of the warp (in a partial last
  // warp, one that exists), as every shuffle's.
  auto fits = [&](llvm::function_ref<int64_t(int64_t)> sourceOf, bool ownKept) {
    for (uint64_t thread = 0; thread < blockThreads; ++thread) {
      int64_t lane = thread % kWarpSize, from = sourceOf(lane);
      if ((*source)[thread] == from)
        continue;
      if (!ownKept || (*source)[thread] != lane || from < 0 ||
          from >= int64_t(kWarpSize) ||
          thread - lane + uint64_t(from) >= blockThreads)
        return false;
    }
    return true;
  };
  int64_t last = kWarpSize - 1;
  // The first thread that reads another lane than its own names the
  // candidates; where every thread reads its own lane, idx serves.
  uint64_t first = 0;
  while (first < blockThreads && (*source)[first] == int64_t(first % kWarpSize))
    ++first;
  if (first == blockThreads)
    return {};
  int64_t lane = first % kWarpSize, from = (*source)[first];
  // The bit of the thread id that tells the threads reading their own
  // element, if one does.
  auto ownLanesBit = [&]() -> std::optional<ShufflePattern::ThreadBit> {
    for (unsigned bit = 0; (uint64_t(1) << bit) < blockThreads; ++bit)
      for (bool set : {false, true})
        if (llvm::all_of(llvm::seq<uint64_t>(0, blockThreads), [&](uint64_t t) {
              return ((*source)[t] == int64_t(t % kWarpSize)) ==
                     (((t >> bit) & 1) == uint64_t(set));
            }))
          return ShufflePattern::ThreadBit{bit, set};
    return std::nullopt;
  };
  auto up = [&](int64_t l) { return l >= lane - from ? l - (lane - from) : l; };
  auto down = [&](int64_t l) {
    return l + (from - lane) <= last ? l + (from - lane) : l;
  };
  auto bfly = [&](int64_t l) { return l ^ (lane ^ from); };
  auto broadcast = [&](int64_t) { return from; };
  struct Candidate {
    NVVM::ShflKind kind;
    int64_t offset;
    llvm::function_ref<int64_t(int64_t)> sourceOf;
  };
  SmallVector<Candidate, 4> candidates;
  if (lane > from)
    candidates.push_back({NVVM::ShflKind::up, lane - from, up});
  if (from > lane)
    candidates.push_back({NVVM::ShflKind::down, from - lane, down});
  candidates.push_back({NVVM::ShflKind::bfly, lane ^ from, bfly});
  candidates.push_back({NVVM::ShflKind::idx, from, broadcast});
  for (bool ownKept : {false, true}) {
    // Where own lanes keep their values, bfly first: the reads of both
    // elements of a pair are then the same shuffle.
    if (ownKept)
      stableSort(candidates, [](const Candidate &a, const Candidate &b) {
        return a.kind == NVVM::ShflKind::bfly && b.kind != NVVM::ShflKind::bfly;
      });
    for (const Candidate &candidate : candidates)
      if (fits(candidate.sourceOf, ownKept))
        return {candidate.kind, candidate.offset, ownKept,
                ownKept ? ownLanesBit() : std::nullopt};
  }
  return {};
}

/// `value` (an integer or float of at most 64 bits) of another lane of the
/// warp, by shfl.sync of `kind` with lane or offset `offset` over the lanes
/// `mask` names: one shuffle of 32 bits, two for 64. Each shuffle is tagged
/// with the sync whose array it reads, so that the simulation checks that
/// the lanes run it together and that it takes the element's owner's value.
static Value emitShuffle(OpBuilder &b, Location loc, Value value,
                         NVVM::ShflKind kind, Value offset, Value mask,
                         IntegerAttr sync, bool ownLanesKept) {
  Type type = value.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Type i32 = b.getI32Type();
  auto shuffle32 = [&](Value word) -> Value {
    // shfl.up's bound is the warp's first lane, the others' its last.
    Value clamp = arith::ConstantIntOp::create(
        b, loc, kind == NVVM::ShflKind::up ? 0 : kWarpSize - 1, 32);
    auto shfl = NVVM::ShflOp::create(b, loc, word.getType(), mask, word, offset,
                                     clamp, kind,
                                     /*return_value_and_is_valid=*/nullptr);
    ObsDialect::ShuffleReadAttrHelper(b.getContext()).setAttr(shfl, sync);
    if (ownLanesKept)
      ObsDialect::OwnLanesKeptAttrHelper(b.getContext())
          .setAttr(shfl, b.getUnitAttr());
    return shfl;
  };
  if (type.isF32() || type.isInteger(32))
    return shuffle32(value);
  // Floats as the integers of their bits.
  Type bits = b.getIntegerType(width);
  Value asInteger = isa<FloatType>(type)
                        ? arith::BitcastOp::create(b, loc, bits, value)
                        : value;
  Value shuffled;
  if (width < 32) {
    shuffled = arith::TruncIOp::create(
        b, loc, bits,
        shuffle32(arith::ExtUIOp::create(b, loc, i32, asInteger)));
  } else {
    Value shift = arith::ConstantIntOp::create(b, loc, 32, 64);
    Value low = shuffle32(arith::TruncIOp::create(b, loc, i32, asInteger));
    Value high = shuffle32(arith::TruncIOp::create(
        b, loc, i32, arith::ShRUIOp::create(b, loc, asInteger, shift)));
    shuffled = arith::OrIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, bits, low),
        arith::ShLIOp::create(
            b, loc, arith::ExtUIOp::create(b, loc, bits, high), shift));
  }
  return isa<FloatType>(type) ? arith::BitcastOp::create(b, loc, type, shuffled)
                              : shuffled;
}

LogicalResult KernelLowering::lowerSyncKeptByThreads(SyncOp sync) {
  bool shuffles = sync.getStorageOrDefault() == Storage::Shuffle;
  if (std::optional<std::string> why = shuffles
                                           ? sync.whyNotShuffle(blockThreads)
                                           : sync.whyNotRegisters(blockThreads))
    return tagError(sync.emitOpError() << "cannot keep its array in "
                                       << (shuffles ? "shuffles" : "registers")
                                       << ": " << *why,
                    ErrorKind::RejectedChoice);
  WorkAssignmentAttrInterface how =
      assignmentOrStrided(sync.getWorkAssignment());
  SmallVector<SmallVector<Value>> rounds;
  auto storesNothing = [](Value, ValueRange, ValueRange) {};
  if (failed(emitStage(ArrayRef<Value>{sync.getInput()}, how, storesNothing,
                       /*written=*/nullptr, /*inPlace=*/false, &rounds)))
    return failure();
  if (shuffles)
    counters.shuffleStage();
  else
    counters.registerStage();
  // A read of element e takes, from the reading thread's own values, the
  // one of e's round. That is e's value only if the reading thread is the
  // one that computed e: the check beside it says so, and the simulation
  // evaluates it in every thread (obs.register_read), so a wrongly chosen
  // storage is rejected, never run. In shuffles, the reading lane takes
  // the value of e's round from the lane that computed e, which must be in
  // its warp (obs.shuffle_read), with shuffles every lane of the warp runs
  // together (which the simulation checks at each shuffle); a read of the
  // element the reading thread is computing, under the same work
  // assignment, is its own (obs.register_read).
  IntegerAttr index = builder.getI64IntegerAttr(syncIndex.lookup(sync));
  SmallVector<Type> leafTypes(flattenElementType(sync.getType().getLeafType()));
  if (shuffles)
    shuffledArrays.push_back(sync.getResult());
  sources[sync.getResult()] =
      [this, shuffles, how, index, leafTypes, values = std::move(rounds)](
          OpBuilder &b, Location loc, ValueRange path) -> SmallVector<Value> {
    Value element = path[0];
    bool sameElement =
        inProgress &&
        inProgress->element == ElementEmitter::getUncheckedIndex(element) &&
        inProgress->how == how;
    bool own = !shuffles || sameElement;
    // The round is computed after the check, so that the simulation still
    // holds the element there (for its diagnostic).
    Value owner = how.buildThread(b, loc, element);
    Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    auto check =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, owner, thread);
    if (own)
      ObsDialect::RegisterReadAttrHelper(b.getContext()).setAttr(check, index);
    else
      ObsDialect::ShuffleReadAttrHelper(b.getContext()).setAttr(check, index);
    Value round = sameElement ? inProgress->round
                  : own       ? how.buildRoundInThread(b, loc, element, thread)
                              : how.buildRound(b, loc, element);
    SmallVector<SmallVector<Value>> candidates(values);
    bool keepOwn = false;
    Value keepsOwn = check;
    if (!own) {
      ShufflePattern pattern =
          chooseShuffle(owner, blockThreads, ownersByStructure);
      keepOwn = pattern.ownLanesKept;
      if (pattern.ownLanes) {
        Value bit = arith::AndIOp::create(
            b, loc, thread,
            arith::ConstantIndexOp::create(
                b, loc, int64_t(1) << pattern.ownLanes->bit));
        keepsOwn = arith::CmpIOp::create(
            b, loc,
            pattern.ownLanes->set ? arith::CmpIPredicate::ne
                                  : arith::CmpIPredicate::eq,
            bit, arith::ConstantIndexOp::create(b, loc, 0));
      }
      Value offset =
          pattern.offset
              ? arith::ConstantIntOp::create(b, loc, *pattern.offset, 32)
                    .getResult()
              : arith::IndexCastUIOp::create(
                    b, loc, b.getI32Type(),
                    arith::RemUIOp::create(
                        b, loc, owner,
                        arith::ConstantIndexOp::create(b, loc, kWarpSize)))
                    .getResult();
      Value mask = emitWarpMask(b, loc, blockThreads);
      for (SmallVector<Value> &leaf : candidates)
        for (Value &scalar : leaf)
          scalar = emitShuffle(b, loc, scalar, pattern.kind, offset, mask,
                               index, keepOwn);
    }
    // The value of `round` among each round's. An empty array has no
    // rounds, and no read of it runs (a conc or a guarded index chooses
    // the other side): the read still needs values, of the leaf's types.
    auto ofRound = [&](ArrayRef<SmallVector<Value>> byRound) {
      if (byRound.empty())
        return llvm::map_to_vector(leafTypes, [&](Type scalar) -> Value {
          return ub::PoisonOp::create(b, loc, scalar);
        });
      SmallVector<Value> leaf(byRound.back());
      for (uint64_t r = byRound.size() - 1; r-- > 0;) {
        Value isRound =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, round,
                                  arith::ConstantIndexOp::create(b, loc, r));
        for (auto [chosen, scalar] : llvm::zip_equal(leaf, byRound[r]))
          chosen = arith::SelectOp::create(b, loc, isRound, scalar, chosen);
      }
      return leaf;
    };
    SmallVector<Value> leaf = ofRound(candidates);
    if (!keepOwn)
      return leaf;
    // The lanes that computed the element themselves, where the check
    // `owner == thread` holds (or the bit of the thread id that says the
    // same in every thread), take their own value, not the shuffle's.
    for (auto [chosen, mine] : llvm::zip_equal(leaf, ofRound(values)))
      chosen = arith::SelectOp::create(b, loc, keepsOwn, mine, chosen);
    return leaf;
  };
  return success();
}
