//===- SymbolicHazards.cpp - races in shared memory, by Presburger sets ---===//

#include "Obs/Analysis/SymbolicHazards.h"
#include "Obs/Analysis/BlockRun.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "SymbolicValues.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include <map>

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::symbolic;

namespace {

/// How many times `loop` runs, when its bounds and step are constants.
/// Not upstream's getStaticTripCount, which subtracts the bounds in the
/// counter's width: an i8 loop from -100 to 60 came out as no trips (its
/// span, 160, is -96 in 8 bits), and a race at its 50th iteration went
/// unseen (hunt 27).
std::optional<int64_t> getConstantTripCount(scf::ForOp loop) {
  APInt lower, upper, step;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lower)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&upper)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      lower.getBitWidth() > 64)
    return std::nullopt;
  bool isUnsigned = loop.getUnsignedCmp();
  auto wide = [&](const APInt &value) -> __int128 {
    return isUnsigned ? __int128(value.getZExtValue())
                      : __int128(value.getSExtValue());
  };
  __int128 from = wide(lower), to = wide(upper), by = wide(step);
  if (by <= 0)
    return std::nullopt;
  if (from >= to)
    return 0;
  __int128 trips = (to - from + by - 1) / by;
  if (trips > (__int128(1) << 62))
    return std::nullopt;
  return static_cast<int64_t>(trips);
}

/// Whether `memref` is memory no other thread of the block shares through
/// shared memory: global memory (the kernel's arguments, the launch
/// proof's), a thread's own scratch, or a constant table it reads.
bool isOutsideSharedMemory(Value memref, gpu::GPUFuncOp func, bool write) {
  Value root = memref;
  while (auto view = root.getDefiningOp<ViewLikeOpInterface>())
    root = view.getViewSource();
  if (auto argument = dyn_cast<BlockArgument>(root);
      argument && argument.getOwner()->getParentOp() == func &&
      !llvm::is_contained(func.getWorkgroupAttributions(), argument))
    return true;
  if (root.getDefiningOp<memref::AllocaOp>())
    return true;
  if (auto get = root.getDefiningOp<memref::GetGlobalOp>()) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        get, get.getNameAttr());
    return global && global.getConstant() && !write;
  }
  return false;
}

/// One load, store or atomic of shared memory.
struct SharedAccess {
  Operation *op;
  /// Its position in program order, and the barriers (of any scope, and
  /// block barriers) its thread has passed: in a loop that holds
  /// barriers, affine in the loop counters.
  unsigned order;
  AffineExpr phase, epoch;
  bool write, atomic, checkedScatter;
  uint8_t atomicKind;
  /// Its cases: under `conditions` (its branches', its buffer's and its
  /// place's), it covers the bytes [begin, begin + bytes) of `root` (a
  /// workgroup attribution), in a buffer of `owner`; `data` when its place
  /// depends on data, and it stands for its whole buffer.
  struct Place {
    Conjunction conditions;
    Value root;
    Attribute owner;
    AffineExpr begin;
    int64_t bytes;
    bool data;
  };
  SmallVector<Place, 2> places;
  /// The dims of the loop counters around it, outermost first.
  SmallVector<unsigned, 2> loops;
};

/// A workgroup buffer or a view of one, where `conditions` hold (a memref
/// chosen by a select is one buffer or another): its bytes begin at
/// `begin` of `root`.
struct Buffer {
  Conjunction conditions;
  Value root;
  AffineExpr begin;
  MemRefType type;
  Attribute owner;
};

class SymbolicProof : public SymbolicValues {
public:
  SymbolicProof(gpu::GPUFuncOp func, int64_t threads, unsigned warpSize)
      : SymbolicValues(func, threads), warpSize(warpSize) {}

  SymbolicVerdict prove();

private:
  LogicalResult undecided(Operation *op, const Twine &why) {
    verdict.undecided = why.str();
    verdict.where = op;
    return failure();
  }
  /// Walks `region` as threads meeting `path` (a disjunction) run it;
  /// `inBranch` when inside an scf.if, where a barrier is not followed.
  LogicalResult walk(Region &region, ArrayRef<Conjunction> path, bool inBranch);
  LogicalResult visit(Operation &op, ArrayRef<Conjunction> path, bool inBranch);
  /// The barriers, and the block barriers, that one run of `region`
  /// passes, where that is a constant.
  FailureOr<std::pair<int64_t, int64_t>> countBarriers(Region &region);
  LogicalResult visitIf(scf::IfOp ifOp, ArrayRef<Conjunction> path);
  LogicalResult visitFor(scf::ForOp loop, ArrayRef<Conjunction> path,
                         bool inBranch);
  /// The greatest counter of a loop from `lower` to `upper` by `step`
  /// whose trip count is not a constant: from the bounds' ranges, or
  /// Bounds::kFar where they have none.
  int64_t greatestCounter(const Symbolic &lower, const Symbolic &upper,
                          int64_t step) const {
    int64_t greatest = 0;
    for (const Piece &from : lower.pieces)
      for (const Piece &to : upper.pieces) {
        Bounds span = rangeOf(to.expr - from.expr);
        if (!span.isFinite())
          return Bounds::kFar;
        if (span.hi > 0)
          greatest =
              std::max(greatest, llvm::divideCeilSigned(span.hi, step) - 1);
      }
    return greatest;
  }
  LogicalResult visitAccess(Operation &op, Value memref, ValueRange indices,
                            bool write, ArrayRef<Conjunction> path);
  LogicalResult visitView(memref::ViewOp view);
  LogicalResult visitMemrefSelect(arith::SelectOp select);
  void judge(const SharedAccess &a, const SharedAccess &b);

  unsigned warpSize;
  llvm::DenseMap<Value, SmallVector<Buffer, 1>> buffers;
  /// The loops entered, as their dim positions.
  SmallVector<unsigned, 4> loopStack;
  unsigned order = 0;
  /// The barriers (of any scope, and block barriers) passed before the op
  /// being visited.
  AffineExpr phase, epoch;
  std::vector<SharedAccess> accesses;
  SymbolicVerdict verdict;
};

} // namespace

LogicalResult SymbolicProof::visitIf(scf::IfOp ifOp,
                                     ArrayRef<Conjunction> path) {
  const Symbolic &condition = valueOf(ifOp.getCondition());
  if (condition.unsupported)
    return undecided(condition.unsupported,
                     "a branch condition the proof cannot express");
  Symbolic conditionCopy = condition;
  for (bool truth : {true, false}) {
    SmallVector<Conjunction> taken;
    for (const Conjunction &outer : path)
      for (const Conjunction &where : casesWhere(conditionCopy, truth))
        if (std::optional<Conjunction> both = conjoin(outer, where))
          taken.push_back(std::move(*both));
    if (taken.size() > kMaxPieces)
      return undecided(ifOp, "too many cases of branches");
    Region &region = truth ? ifOp.getThenRegion() : ifOp.getElseRegion();
    if (!taken.empty() && failed(walk(region, taken, /*inBranch=*/true)))
      return failure();
  }
  // Its results: the branch taken's yields.
  for (auto [index, result] : llvm::enumerate(ifOp.getResults())) {
    if (!result.getType().isIntOrIndex()) {
      setValue(result, data());
      continue;
    }
    if (ifOp.getElseRegion().empty()) {
      setValue(result, unsupported(ifOp));
      continue;
    }
    Symbolic chosen =
        choose(ifOp, conditionCopy, valueOf(ifOp.thenYield().getOperand(index)),
               valueOf(ifOp.elseYield().getOperand(index)),
               /*needsBoth=*/false);
    setValue(result, std::move(chosen));
  }
  return success();
}

LogicalResult SymbolicProof::visitFor(scf::ForOp loop,
                                      ArrayRef<Conjunction> path,
                                      bool inBranch) {
  const Symbolic &lower = valueOf(loop.getLowerBound());
  const Symbolic &upper = valueOf(loop.getUpperBound());
  APInt stepValue;
  auto isData = [](const Symbolic &value) {
    return llvm::any_of(value.pieces,
                        [](const Piece &piece) { return !piece.expr; });
  };
  if (lower.unsupported || upper.unsupported || isData(lower) ||
      isData(upper) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&stepValue)) ||
      stepValue.getSExtValue() <= 0)
    return undecided(loop, "a loop whose bounds the proof cannot express");
  int64_t step = stepValue.getSExtValue();
  // An unsigned loop compares its bounds as unsigned: they mean what the
  // signed ones do where neither is negative.
  if (loop.getUnsignedCmp())
    for (const Symbolic *bound : {&lower, &upper})
      for (const Piece &piece : bound->pieces)
        if (!isNonNegative(piece.expr, piece.conditions))
          return undecided(loop, "an unsigned loop whose bounds may be "
                                 "negative as signed integers");
  std::optional<int64_t> tripCount = getConstantTripCount(loop);
  unsigned dim =
      addLoopCounter(tripCount ? std::max<int64_t>(0, *tripCount - 1)
                               : greatestCounter(lower, upper, step));
  AffineExpr counter = getAffineDimExpr(dim, context);
  // The counter k runs from 0 while lower + step * k < upper.
  Symbolic inductionVar;
  SmallVector<Conjunction> body;
  for (const Piece &from : lower.pieces) {
    inductionVar.pieces.push_back(
        {from.conditions, from.expr + counter * step});
    for (const Piece &to : upper.pieces) {
      Conjunction bounds = {{counter, false},
                            {to.expr - from.expr - counter * step - 1, false}};
      std::optional<Conjunction> both = conjoin(from.conditions, to.conditions);
      if (!both)
        continue;
      for (const Conjunction &outer : path)
        if (auto within = conjoin(outer, *both))
          if (auto all = conjoin(*within, bounds))
            body.push_back(std::move(*all));
    }
  }
  if (body.size() > kMaxPieces)
    return undecided(loop, "too many cases of loop bounds");
  setValue(loop.getInductionVar(), std::move(inductionVar));
  for (Value carried : loop.getRegionIterArgs())
    setValue(carried,
             carried.getType().isIntOrIndex() ? unsupported(loop) : data());
  for (Value result : loop.getResults())
    setValue(result,
             result.getType().isIntOrIndex() ? unsupported(loop) : data());
  // A loop that holds barriers runs as often in every thread (the
  // simulation requires it): iteration k starts after k times its body's
  // barriers.
  FailureOr<std::pair<int64_t, int64_t>> barriers =
      countBarriers(loop.getRegion());
  if (failed(barriers))
    return failure();
  auto [bodyPhases, bodyEpochs] = *barriers;
  std::optional<int64_t> trips = getConstantTripCount(loop);
  if ((bodyPhases || bodyEpochs) && !trips)
    return undecided(loop, "a loop that holds barriers and runs a number of "
                           "times the proof cannot tell");
  AffineExpr phaseBefore = phase, epochBefore = epoch;
  phase = phaseBefore + counter * bodyPhases;
  epoch = epochBefore + counter * bodyEpochs;
  loopStack.push_back(dim);
  LogicalResult walked = walk(loop.getRegion(), body, inBranch);
  loopStack.pop_back();
  phase = phaseBefore + trips.value_or(0) * bodyPhases;
  epoch = epochBefore + trips.value_or(0) * bodyEpochs;
  return walked;
}

FailureOr<std::pair<int64_t, int64_t>>
SymbolicProof::countBarriers(Region &region) {
  std::pair<int64_t, int64_t> count = {0, 0};
  for (Operation &op : region.getOps()) {
    if (isLoweredBarrier(&op)) {
      ++count.first;
      count.second += isa<gpu::BarrierOp>(op);
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      FailureOr<std::pair<int64_t, int64_t>> inner =
          countBarriers(loop.getRegion());
      if (failed(inner))
        return failure();
      if (!inner->first)
        continue;
      std::optional<int64_t> trips = getConstantTripCount(loop);
      if (!trips) {
        (void)undecided(loop, "a loop that holds barriers and runs a number "
                              "of times the proof cannot tell");
        return failure();
      }
      count.first += *trips * inner->first;
      count.second += *trips * inner->second;
      continue;
    }
    bool holdsBarrier = false;
    op.walk([&](Operation *inner) { holdsBarrier |= isLoweredBarrier(inner); });
    if (holdsBarrier) {
      (void)undecided(&op, "a barrier inside a branch");
      return failure();
    }
  }
  return count;
}

LogicalResult SymbolicProof::visitView(memref::ViewOp view) {
  auto parent = buffers.find(view.getSource());
  if (parent == buffers.end())
    return success();
  const Symbolic &shift = valueOf(view.getByteShift());
  if (shift.unsupported || shift.pieces.size() != 1 ||
      !shift.pieces.front().expr || !view.getType().hasStaticShape() ||
      !view.getType().getLayout().isIdentity())
    return undecided(view, "a view of shared memory the proof cannot "
                           "express");
  Attribute owner = ObsDialect::OwnerAttrHelper(context).getAttr(view);
  SmallVector<Buffer, 1> viewed;
  for (const Buffer &source : parent->second)
    viewed.push_back({source.conditions, source.root,
                      source.begin + shift.pieces.front().expr, view.getType(),
                      owner ? owner : source.owner});
  buffers[view.getResult()] = std::move(viewed);
  return success();
}

LogicalResult SymbolicProof::visitMemrefSelect(arith::SelectOp select) {
  auto trueCases = buffers.find(select.getTrueValue());
  auto falseCases = buffers.find(select.getFalseValue());
  if (trueCases == buffers.end() && falseCases == buffers.end())
    return success();
  const Symbolic &condition = valueOf(select.getCondition());
  if (trueCases == buffers.end() || falseCases == buffers.end() ||
      condition.unsupported)
    return undecided(select, "a choice of shared memory the proof cannot "
                             "express");
  SmallVector<Buffer, 1> chosen;
  for (bool truth : {true, false})
    for (const Conjunction &where : casesWhere(condition, truth))
      for (const Buffer &buffer : (truth ? trueCases : falseCases)->second)
        if (std::optional<Conjunction> both = conjoin(where, buffer.conditions))
          chosen.push_back({std::move(*both), buffer.root, buffer.begin,
                            buffer.type, buffer.owner});
  if (chosen.size() > kMaxPieces)
    return undecided(select, "too many cases of a choice of shared memory");
  buffers[select.getResult()] = std::move(chosen);
  return success();
}

LogicalResult SymbolicProof::visitAccess(Operation &op, Value memref,
                                         ValueRange indices, bool write,
                                         ArrayRef<Conjunction> path) {
  auto found = buffers.find(memref);
  if (found == buffers.end()) {
    if (isOutsideSharedMemory(memref, func, write))
      return success();
    return undecided(&op, "memory the proof cannot follow");
  }
  ArrayRef<Buffer> cases = found->second;
  MemRefType type = cast<MemRefType>(memref.getType());
  if (!type.getLayout().isIdentity() || !type.hasStaticShape())
    return undecided(&op, "a shared buffer with a layout");
  SharedAccess access;
  access.op = &op;
  access.order = order;
  access.phase = phase;
  access.epoch = epoch;
  access.write = write;
  access.atomic = false;
  access.atomicKind = 0;
  access.checkedScatter =
      write && ObsDialect::CheckedScatterAttrHelper(context).isAttrPresent(&op);
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op)) {
    access.atomic = true;
    access.atomicKind = static_cast<uint8_t>(atomic.getKind());
  }
  access.loops.assign(loopStack.begin(), loopStack.end());
  // The element's place: indices linearized by the static shape.
  int64_t elementBytes = getElementBytes(type);
  Symbolic place = constant(0);
  ArrayRef<int64_t> shape = type.getShape();
  for (auto [index, size] : llvm::zip(indices, shape)) {
    int64_t extent = size;
    place = combine(op, place, valueOf(index),
                    [&](AffineExpr a, AffineExpr b) { return a * extent + b; });
    if (place.unsupported)
      return undecided(place.unsupported,
                       "an index of shared memory the proof cannot express");
  }
  int64_t bufferBytes = getTotalBytes(type);
  for (const Conjunction &where : path)
    for (const Buffer &buffer : cases)
      for (const Piece &piece : place.pieces) {
        std::optional<Conjunction> inBuffer = conjoin(where, buffer.conditions);
        std::optional<Conjunction> both =
            inBuffer ? conjoin(*inBuffer, piece.conditions) : std::nullopt;
        if (!both)
          continue;
        if (!piece.expr)
          access.places.push_back({std::move(*both), buffer.root, buffer.owner,
                                   buffer.begin, bufferBytes, true});
        else
          access.places.push_back({std::move(*both), buffer.root, buffer.owner,
                                   buffer.begin + piece.expr * elementBytes,
                                   elementBytes, false});
        if (access.places.size() > kMaxPieces)
          return undecided(&op, "too many cases of a place");
      }
  if (access.places.size() > kMaxPieces)
    return undecided(&op, "too many cases of a place");
  accesses.push_back(std::move(access));
  return success();
}

LogicalResult SymbolicProof::visit(Operation &op, ArrayRef<Conjunction> path,
                                   bool inBranch) {
  ++order;
  if (isLoweredBarrier(&op)) {
    if (inBranch)
      return undecided(&op, "a barrier inside a branch");
    phase = phase + 1;
    if (isa<gpu::BarrierOp>(op))
      epoch = epoch + 1;
    return success();
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return visitIf(ifOp, path);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return visitFor(loop, path, inBranch);
  if (isa<scf::WhileOp>(op) || isa<scf::ParallelOp>(op)) {
    // Followed, as by the simulation, only where any number of iterations
    // changes nothing another thread sees: no writes, barriers or
    // exchanges, and reads only of global memory, scratch or tables.
    bool touches = false;
    op.walk([&](Operation *inner) {
      if (isLoweredBarrier(inner) || isa<NVVM::ShflOp, gpu::ShuffleOp>(inner)) {
        touches = true;
        return;
      }
      if (inner == &op || isMemoryEffectFree(inner) ||
          isa<memref::AllocaOp>(inner))
        return;
      // A load through a view the proof does not follow (a subview of a
      // shared buffer) touches it too (hunt 28).
      auto load = dyn_cast<memref::LoadOp>(inner);
      touches |= !load || buffers.contains(load.getMemRef()) ||
                 !isOutsideSharedMemory(load.getMemRef(), func, false);
    });
    if (touches)
      return undecided(&op, "a loop whose trip count depends on data");
    for (Value result : op.getResults())
      setValue(result,
               result.getType().isIntOrIndex() ? unsupported(&op) : data());
    return success();
  }
  if (auto view = dyn_cast<memref::ViewOp>(op))
    return visitView(view);
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && isa<MemRefType>(select.getType()))
    return visitMemrefSelect(select);
  if (auto load = dyn_cast<memref::LoadOp>(op))
    if (failed(
            visitAccess(op, load.getMemRef(), load.getIndices(), false, path)))
      return failure();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return visitAccess(op, store.getMemRef(), store.getIndices(), true, path);
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    if (failed(visitAccess(op, atomic.getMemref(), atomic.getIndices(), true,
                           path)))
      return failure();
  if (op.getNumRegions())
    return undecided(&op, "an op with regions the proof does not know");
  // Memory is followed only through loads, stores and atomics (fail
  // closed, as the simulation does); a thread's own scratch and the
  // cpu target's reports of a wrong run touch nothing another sees.
  if (!isMemoryEffectFree(&op) &&
      !isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
           memref::AllocaOp, NVVM::ShflOp, gpu::ShuffleOp>(op)) {
    auto call = dyn_cast<func::CallOp>(op);
    if (!call || (call.getCallee() != kScatterCollisionFunction &&
                  call.getCallee() != kIndexOutsideFunction))
      return undecided(&op, "an op whose memory effects the proof does not "
                            "follow");
  }
  evaluateResults(op);
  return success();
}

LogicalResult SymbolicProof::walk(Region &region, ArrayRef<Conjunction> path,
                                  bool inBranch) {
  if (region.empty())
    return success();
  if (!region.hasOneBlock())
    return undecided(region.getParentOp(), "a region of several blocks");
  ArrayRef<Conjunction> outerPath = currentPath;
  currentPath = path;
  llvm::scope_exit restore([&] { currentPath = outerPath; });
  for (Operation &op : region.front())
    if (failed(visit(op, path, inBranch)))
      return failure();
  return success();
}

void SymbolicProof::judge(const SharedAccess &a, const SharedAccess &b) {
  if (!verdict.decided())
    return;
  if (!a.write && !b.write)
    return;
  if (a.atomic && b.atomic && a.atomicKind == b.atomicKind)
    return;
  unsigned side = 1 + getNumLoops();
  auto shifted = [&](AffineExpr expr) { return expr.shiftDims(side, side); };
  auto shiftedAll = [&](ArrayRef<Constraint> constraints, Conjunction &into) {
    for (const Constraint &constraint : constraints)
      into.push_back({shifted(constraint.expr), constraint.equality});
  };
  AffineExpr threadA = thread, threadB = getAffineDimExpr(side, context);
  // In one epoch (the same number of block barriers passed).
  AffineExpr phaseA = a.phase, phaseB = shifted(b.phase);
  Constraint oneEpoch = {a.epoch - shifted(b.epoch), true};
  if (constantTruth(oneEpoch) == false)
    return;
  ++verdict.pairs;
  // What orders two instances of one thread within one phase: the first
  // loop counter they differ in, or, in one iteration, the ops' order.
  Constraint samePhase = {phaseA - phaseB, true};
  SmallVector<Conjunction> sameThreadOrders;
  if (constantTruth(samePhase) != false && a.write != b.write) {
    const SharedAccess &written = a.write ? a : b;
    const SharedAccess &read = a.write ? b : a;
    bool aIsWritten = &written == &a;
    unsigned common = 0;
    while (common < a.loops.size() && common < b.loops.size() &&
           a.loops[common] == b.loops[common])
      ++common;
    auto counter = [&](bool ofA, unsigned dimension) {
      AffineExpr dim = getAffineDimExpr(dimension, context);
      return ofA ? dim : shifted(dim);
    };
    for (unsigned depth = 0; depth <= common; ++depth) {
      Conjunction order = {samePhase, {threadA - threadB, true}};
      for (unsigned outer = 0; outer < depth; ++outer)
        order.push_back(
            {counter(true, a.loops[outer]) - counter(false, a.loops[outer]),
             true});
      if (depth < common) {
        AffineExpr writeCounter = counter(aIsWritten, a.loops[depth]);
        AffineExpr readCounter = counter(!aIsWritten, a.loops[depth]);
        order.push_back({readCounter - writeCounter - 1, false});
      } else if (written.order >= read.order) {
        continue;
      }
      sameThreadOrders.push_back(std::move(order));
    }
  }
  // Which threads race: any two in one phase; in different phases (a warp
  // barrier between), two of different warps.
  SmallVector<Conjunction> threadPairs;
  auto addCase = [&](Conjunction constraints) {
    if (std::optional<Conjunction> kept = conjoin(constraints, {}))
      threadPairs.push_back(std::move(*kept));
  };
  // An op paired with itself is the same on both sides: a case and its
  // mirror (the sides swapped) meet or not together, so one of each pair
  // of mirrors is enough.
  bool self = &a == &b;
  addCase({samePhase, {threadB - threadA - 1, false}});
  if (!self)
    addCase({samePhase, {threadA - threadB - 1, false}});
  // The warp as the thread's bounds give it: in a block of one warp, the
  // constant 0, so that accesses of different phases need no set (a kernel
  // of warp syncs alone had a million sets to find that).
  AffineExpr warpA = floorDivBy(threadA, warpSize);
  AffineExpr warpB = shifted(warpA);
  for (AffineExpr apart : {phaseB - phaseA - 1, phaseA - phaseB - 1}) {
    addCase({{apart, false}, {warpB - warpA - 1, false}});
    addCase({{apart, false}, {warpA - warpB - 1, false}});
    if (self)
      break;
  }
  for (const Conjunction &order : sameThreadOrders)
    addCase(order);

  bool scatters = a.checkedScatter && b.checkedScatter;
  for (const SharedAccess::Place &x : a.places)
    for (const SharedAccess::Place &y : b.places) {
      if (x.root != y.root)
        continue;
      if (scatters && x.owner == y.owner && (x.data || y.data))
        continue;
      // Bytes apart whatever the threads: no set needed.
      Bounds rangeA = rangeOf(x.begin), rangeB = rangeOf(y.begin);
      if (Bounds{rangeA.lo, rangeA.hi + x.bytes - 1}.isBelow(rangeB) ||
          Bounds{rangeB.lo, rangeB.hi + y.bytes - 1}.isBelow(rangeA))
        continue;
      Conjunction base = {oneEpoch};
      addDomain(base, 0);
      addDomain(base, side);
      base.append(x.conditions.begin(), x.conditions.end());
      shiftedAll(y.conditions, base);
      // The two byte ranges meet.
      AffineExpr beginA = x.begin, beginB = shifted(y.begin);
      base.push_back({beginB + (y.bytes - 1) - beginA, false});
      base.push_back({beginA + (x.bytes - 1) - beginB, false});
      for (const Conjunction &threadsMeet : threadPairs) {
        Conjunction all = base;
        all.append(threadsMeet.begin(), threadsMeet.end());
        if (!isSatisfiable(all, 2 * side))
          continue;
        if (wasLastSetTooDeep()) {
          (void)undecided(
              b.op, "index arithmetic too deep for the sets (over " +
                        Twine(kMaxLocals) + " floordivs and mods in one)");
          return;
        }
        // A race is reported only with its two threads: a set the builder
        // could not hold is no verdict (hunt 28: `t & (2^63 - 1)` raced with
        // no threads).
        if (wasLastSetInexpressible()) {
          (void)undecided(b.op, "index arithmetic the sets cannot hold (a "
                                "constant past their 64-bit coefficients)");
          return;
        }
        SymbolicRace race = {a.op, b.op};
        std::optional<SmallVector<int64_t>> point =
            findPoint(all, 2 * side, /*wantValues=*/true);
        if (point && point->size() > side) {
          race.firstThread = (*point)[0];
          race.secondThread = (*point)[side];
        }
        verdict.races.push_back(race);
        return;
      }
    }
}

SymbolicVerdict SymbolicProof::prove() {
  for (auto [index, buffer] : llvm::enumerate(func.getWorkgroupAttributions()))
    if (auto type = dyn_cast<MemRefType>(buffer.getType()))
      buffers[buffer] = {
          {{},
           buffer,
           getAffineConstantExpr(0, context),
           type,
           func.getWorkgroupAttributionAttr(
               index, ObsDialect::OwnerAttrHelper(context).getName())}};
  phase = epoch = getAffineConstantExpr(0, context);
  SmallVector<Conjunction> everyone = {Conjunction()};
  if (failed(walk(func.getBody(), everyone, /*inBranch=*/false)))
    return verdict;
  // Each pair once, in program order; those of different epochs, known
  // from the barriers alone, are skipped by judge.
  for (size_t i = 0; i < accesses.size(); ++i)
    for (size_t j = i; j < accesses.size(); ++j)
      judge(accesses[i], accesses[j]);
  verdict.sets = getSetsChecked();
  return verdict;
}

SymbolicVerdict mlir::obs::findHazardsSymbolically(gpu::GPUFuncOp func,
                                                   unsigned warpSize) {
  std::optional<ArrayRef<int32_t>> blockSize = func.getKnownBlockSize();
  if (!blockSize || (*blockSize)[1] != 1 || (*blockSize)[2] != 1) {
    SymbolicVerdict verdict;
    verdict.undecided = blockSize ? "a block of more than one dimension"
                                  : "no known block size";
    verdict.where = func;
    return verdict;
  }
  return SymbolicProof(func, (*blockSize)[0], warpSize).prove();
}

static llvm::cl::opt<bool> crossCheckProofs(
    "obs-cross-check-proofs",
    llvm::cl::desc("Check the shared-memory races of every kernel simulation "
                   "against the symbolic proof (Presburger sets) wherever it "
                   "decides, and fail where the two differ (for the tests and "
                   "the fuzzer; slower)"),
    llvm::cl::init(false));

bool mlir::obs::isCrossCheckingProofs() { return crossCheckProofs; }

FailureOr<SymbolicVerdict> mlir::obs::crossCheckHazards(gpu::GPUFuncOp func,
                                                        const BlockRun &run,
                                                        unsigned warpSize) {
  SymbolicVerdict verdict = findHazardsSymbolically(func, warpSize);
  if (!verdict.decided())
    return verdict;
  // Each engine's races as unordered pairs of ops.
  using Pair = std::pair<Operation *, Operation *>;
  auto unordered = [](Operation *a, Operation *b) {
    return a < b ? Pair(a, b) : Pair(b, a);
  };
  std::map<Pair, std::pair<int64_t, int64_t>> simulated, symbolic;
  for (const Hazard &hazard : findHazards(run, warpSize, /*limit=*/~0u))
    simulated.try_emplace(unordered(hazard.first.op, hazard.second.op),
                          hazard.first.thread, hazard.second.thread);
  for (const SymbolicRace &race : verdict.races)
    symbolic.try_emplace(unordered(race.first, race.second), race.firstThread,
                         race.secondThread);
  for (auto [only, other, engine] :
       {std::make_tuple(&simulated, &symbolic, "the simulation"),
        std::make_tuple(&symbolic, &simulated, "the symbolic proof")})
    for (const auto &[pair, threads] : *only) {
      if (other->count(pair))
        continue;
      InFlightDiagnostic error =
          pair.second->emitError()
          << "the two proofs of shared memory disagree: only " << engine
          << " finds a race of this access (threads " << threads.first
          << " and " << threads.second << ")";
      error.attachNote(pair.first->getLoc()) << "with this one";
      return failure();
    }
  return verdict;
}
