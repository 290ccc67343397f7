//===- GPUToCPU.cpp - gpu.func kernels as loops over threads --------------===//
//
// The cpu target executes the same gpu.func that becomes PTX. A block is a
// sequence of *phases* separated by block barriers; a phase is a sequence of
// *steps* separated by warp barriers. A phase with one step is a loop over
// the block's threads; a phase with several is a loop over warps whose body
// runs each step as a loop over the warp's threads. What a thread computes in
// a step moves into the loop; what every thread computes alike (constants,
// the block id, loop counters, values derived from them) stays outside; a
// loop holding barriers (a repeat) stays outside too and is split inside.
//
//===----------------------------------------------------------------------===//

#include "GPUToCPUImpl.h"
#include "Obs/Conversion/Passes.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/SplitMix.h"
#include "Obs/Support/Statistics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/InterleavedRange.h"
#include <numeric>

namespace mlir::obs {
#define GEN_PASS_DEF_OBSGPUTOCPU
#include "Obs/Conversion/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

static constexpr int64_t kWarpSize = KernelOp::kWarpSize;

namespace {

/// The order in which threads (and warps, and lanes), or blocks, run. As
/// code (forward, reverse, or a shuffle's constant table), or, with
/// `runTime`, as data the code reads (Obs/Support/ExecutionOrder.h): tables
/// filled with `kind` and `seed` here, and by a runner again before a run.
class ThreadOrder {
public:
  /// Tables go into `hostSymbols`' module: at run time, as public globals a
  /// runner finds by name.
  ThreadOrder(bool block, ExecutionOrder kind, uint64_t seed, bool runTime,
              SymbolTable &hostSymbols)
      : block(block), kind(kind), seed(seed), runTime(runTime),
        hostSymbols(hostSymbols) {}

  /// The position `k` of a loop over `count` threads, as a thread (or warp,
  /// or lane, or block) number.
  Value apply(OpBuilder &builder, Location loc, Value k, int64_t count);
  /// The same for a count known only at run time (a grid).
  Value apply(OpBuilder &builder, Location loc, Value k, Value count);

private:
  /// The global `name` holding `values`, made once: public and mutable at
  /// run time, private and constant otherwise.
  template <typename T>
  memref::GlobalOp getTable(Location loc, const std::string &name,
                            ArrayRef<T> values);
  /// `(a k + c) mod count`.
  static Value affine(OpBuilder &builder, Location loc, Value k, Value a,
                      Value c, Value count);

  bool block;
  ExecutionOrder kind;
  uint64_t seed;
  bool runTime;
  SymbolTable &hostSymbols;
  llvm::StringMap<memref::GlobalOp> tables;
};

class BlockSplitter {
public:
  BlockSplitter(int64_t threads, ThreadOrder &order,
                llvm::DenseSet<Operation *> &blockAllocations,
                std::function<void()> countThreadLoop,
                std::function<void()> countWarpLoop)
      : threads(threads), order(order), blockAllocations(blockAllocations),
        countThreadLoop(std::move(countThreadLoop)),
        countWarpLoop(std::move(countWarpLoop)) {}

  /// Splits `block`, which every thread runs (a function body or the body
  /// of a loop around barriers).
  LogicalResult split(Block &block);

private:
  /// Whether every thread computes `op` alike: no effects, no regions, and
  /// operands that are all uniform.
  bool isUniform(Operation *op);
  /// Replaces `shuffle` by an exchange through a per-lane array: each
  /// thread stores the value it gives at the end of the current step (the
  /// last of `steps`), and, in a new step of the same warp, loads the value
  /// of the lane it takes from, as the PTX ISA defines that lane.
  LogicalResult exchange(NVVM::ShflOp shuffle,
                         SmallVectorImpl<SmallVector<Operation *>> &steps);
  /// Moves the steps of a phase into thread loops before `before`.
  void emitPhase(ArrayRef<SmallVector<Operation *>> steps, Operation *before);
  void moveStep(ArrayRef<Operation *> step, Block *body, Value thread);
  /// `value` in a step whose thread is `thread`: a thread id or a pure
  /// computation from it is computed again there.
  Value rematerialize(Value value, OpBuilder &builder, Value thread,
                      IRMapping &cache);
  /// `value`, computed by an op of an earlier step (whose thread is
  /// `producerThread`), in a step whose thread is `thread`: what a GPU thread
  /// keeps in a register across barriers (an array kept in registers), each
  /// thread's copy in its own slot of a per-thread array, stored where it is
  /// computed and loaded here.
  Value reload(Value value, Value producerThread, OpBuilder &builder,
               Value thread);

public:
  /// Pure computations from thread ids, computed again in each step.
  llvm::SetVector<Operation *> rematerializable;

private:
  /// Whether `op`, or an op nested in it, uses a value a step computes.
  bool usesStepValue(Operation *op);

  int64_t threads;
  ThreadOrder &order;
  /// The block's allocations, made once for all of its threads.
  llvm::DenseSet<Operation *> &blockAllocations;
  std::function<void()> countThreadLoop, countWarpLoop;
  llvm::DenseSet<Value> threadValues;
  /// The values computed by ops moved into steps (loads, and what is
  /// computed from them), as opposed to ids and what is computed from ids;
  /// each with the phase and the step of that phase that computes it.
  llvm::DenseMap<Value, std::pair<unsigned, size_t>> stepValues;
  /// The phase being split: a new one after each block barrier.
  unsigned phase = 0;
  /// The thread of the step each moved op runs in.
  llvm::DenseMap<Operation *, Value> threadOfStep;
  /// The per-thread arrays of values kept across barriers.
  llvm::DenseMap<Value, Value> keptValues;
};

} // namespace

template <typename T>
memref::GlobalOp ThreadOrder::getTable(Location loc, const std::string &name,
                                       ArrayRef<T> values) {
  memref::GlobalOp &table = tables[name];
  if (table)
    return table;
  OpBuilder builder =
      OpBuilder::atBlockBegin(&hostSymbols.getOp()->getRegion(0).front());
  Type element = builder.getIntegerType(8 * sizeof(T));
  int64_t size = static_cast<int64_t>(values.size());
  table = memref::GlobalOp::create(
      builder, loc, name,
      runTime ? StringAttr() : builder.getStringAttr("private"),
      MemRefType::get({size}, element),
      DenseElementsAttr::get(RankedTensorType::get({size}, element), values),
      /*constant=*/!runTime, /*alignment=*/nullptr);
  hostSymbols.insert(table);
  return table;
}

Value ThreadOrder::affine(OpBuilder &builder, Location loc, Value k, Value a,
                          Value c, Value count) {
  Value scaled = arith::MulIOp::create(builder, loc, k, a);
  Value shifted = arith::AddIOp::create(builder, loc, scaled, c);
  return arith::RemUIOp::create(builder, loc, shifted, count);
}

Value ThreadOrder::apply(OpBuilder &builder, Location loc, Value k,
                         int64_t count) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  if (count <= 1 || (!runTime && kind == ExecutionOrder::Forward))
    return k;
  if (!runTime && kind == ExecutionOrder::Reverse)
    return arith::SubIOp::create(builder, loc, constant(count - 1), k);
  if (count > kMaxOrderTable) {
    if (runTime)
      return apply(builder, loc, k, constant(count));
    // (a k + c) mod count, with a coprime to count: a permutation that
    // separates neighbours, without a table of count entries.
    uint64_t state = seed * 0x100000001b3ull + count;
    int64_t a = static_cast<int64_t>(nextSplitMix64(state) % count) | 1;
    while (std::gcd(a, count) != 1)
      a += 2;
    int64_t c = static_cast<int64_t>(nextSplitMix64(state) % count);
    return affine(builder, loc, k, constant(a % count), constant(c),
                  constant(count));
  }
  // A table of the positions, Fisher-Yates' for a shuffle.
  SmallVector<int32_t> permutation(count);
  fillExecutionOrder(kind, seed, permutation);
  // A table baked in is named as the threads' of its count, whatever it
  // orders: no runner fills it.
  std::string name = getExecutionOrderSymbol(runTime && block, count);
  memref::GlobalOp table = getTable<int32_t>(loc, name, permutation);
  Value memref = memref::GetGlobalOp::create(builder, loc, table.getType(),
                                             table.getSymName());
  Value entry = memref::LoadOp::create(builder, loc, memref, k);
  return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                    entry);
}

Value ThreadOrder::apply(OpBuilder &builder, Location loc, Value k,
                         Value count) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  // (a k + c) mod count, with a = p mod count for the prime p = 2^31 + 11,
  // which is coprime to every count a grid may have (at most 2^31 - 1): a
  // permutation, whatever the count turns out to be; c comes from the seed
  // (getAffineExecutionOrder).
  std::array<int64_t, 2> modeAndShift = getAffineExecutionOrder(kind, seed);
  Value last = arith::SubIOp::create(builder, loc, count, constant(1));
  Value shuffledA =
      arith::RemUIOp::create(builder, loc, constant(kOrderPrime), count);
  if (!runTime) {
    if (kind == ExecutionOrder::Forward)
      return k;
    if (kind == ExecutionOrder::Reverse)
      return arith::SubIOp::create(builder, loc, last, k);
    Value c =
        arith::RemUIOp::create(builder, loc, constant(modeAndShift[1]), count);
    return affine(builder, loc, k, shuffledA, c, count);
  }
  // At run time, (a, c) by the mode the table holds: (1, 0) forward,
  // (count - 1, count - 1) reverse, the shuffle's otherwise.
  memref::GlobalOp table = getTable<int64_t>(
      loc, getExecutionOrderSymbol(block, std::nullopt), modeAndShift);
  Value memref = memref::GetGlobalOp::create(builder, loc, table.getType(),
                                             table.getSymName());
  auto entry = [&](int64_t index) -> Value {
    return arith::IndexCastOp::create(
        builder, loc, builder.getIndexType(),
        memref::LoadOp::create(builder, loc, memref, constant(index)));
  };
  Value mode = entry(0), shift = entry(1);
  Value forward = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        mode, constant(0));
  Value reverse = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        mode, constant(1));
  Value shuffledC = arith::RemUIOp::create(builder, loc, shift, count);
  Value a = arith::SelectOp::create(
      builder, loc, forward, constant(1),
      arith::SelectOp::create(builder, loc, reverse, last, shuffledA));
  Value c = arith::SelectOp::create(
      builder, loc, forward, constant(0),
      arith::SelectOp::create(builder, loc, reverse, last, shuffledC));
  return affine(builder, loc, k, a, c, count);
}

bool BlockSplitter::isUniform(Operation *op) {
  // Not any alloca of the entry block: a thread's own is the thread's.
  if (blockAllocations.contains(op))
    return true;
  if (op->getNumRegions() || isa<gpu::ThreadIdOp>(op) || !isPure(op))
    return false;
  return llvm::none_of(op->getOperands(), [&](Value operand) {
    return threadValues.contains(operand);
  });
}

bool BlockSplitter::usesStepValue(Operation *op) {
  return op
      ->walk([&](Operation *nested) {
        return llvm::any_of(nested->getOperands(),
                            [&](Value v) { return stepValues.contains(v); })
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

Value BlockSplitter::rematerialize(Value value, OpBuilder &builder,
                                   Value thread, IRMapping &cache) {
  if (Value known = cache.lookupOrNull(value))
    return known;
  Operation *producer = value.getDefiningOp();
  if (isa_and_present<gpu::ThreadIdOp>(producer))
    return thread;
  if (auto step = threadOfStep.find(producer);
      step != threadOfStep.end() && step->second != thread) {
    Value reloaded = reload(value, step->second, builder, thread);
    cache.map(value, reloaded);
    return reloaded;
  }
  if (!producer || !rematerializable.contains(producer))
    return value;
  // Its operands, and the values its regions capture from outside it (an
  // scf.if that chooses a condition from the thread id), are rematerialized
  // first, so that the copy uses nothing from before the barrier.
  producer->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      Region *region = operand.getParentRegion();
      if (nested != producer && producer->isAncestor(region->getParentOp()))
        continue; // Defined inside: cloned with it.
      cache.map(operand, rematerialize(operand, builder, thread, cache));
    }
  });
  Operation *clone = builder.clone(*producer, cache);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

Value BlockSplitter::reload(Value value, Value producerThread,
                            OpBuilder &builder, Value thread) {
  Operation *producer = value.getDefiningOp();
  Location loc = producer->getLoc();
  Value &kept = keptValues[value];
  if (!kept) {
    auto func = producer->getParentOfType<func::FuncOp>();
    OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
    kept = memref::AllocaOp::create(
        entry, loc, MemRefType::get({threads}, value.getType()));
    blockAllocations.insert(kept.getDefiningOp());
    OpBuilder after(producer->getBlock(), std::next(producer->getIterator()));
    memref::StoreOp::create(after, loc, value, kept,
                            ValueRange{producerThread});
  }
  return memref::LoadOp::create(builder, loc, kept, ValueRange{thread});
}

void BlockSplitter::moveStep(ArrayRef<Operation *> step, Block *body,
                             Value thread) {
  // What a thread computes from its id alone (after CSE, possibly once for
  // several steps) is computed again in each step that uses it.
  OpBuilder builder(body->getTerminator());
  IRMapping cache;
  for (Operation *op : step) {
    threadOfStep[op] = thread;
    op->moveBefore(body->getTerminator());
    builder.setInsertionPoint(op);
    op->walk([&](Operation *nested) {
      for (OpOperand &operand : nested->getOpOperands())
        operand.set(rematerialize(operand.get(), builder, thread, cache));
    });
  }
}

void BlockSplitter::emitPhase(ArrayRef<SmallVector<Operation *>> steps,
                              Operation *before) {
  bool empty =
      llvm::all_of(steps, [](const auto &step) { return step.empty(); });
  if (empty)
    return;
  OpBuilder builder(before);
  Location loc = before->getLoc();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  if (steps.size() == 1) {
    auto loop = scf::ForOp::create(builder, loc, constant(0), constant(threads),
                                   constant(1));
    OpBuilder inner = OpBuilder::atBlockBegin(loop.getBody());
    Value thread = order.apply(inner, loc, loop.getInductionVar(), threads);
    moveStep(steps.front(), loop.getBody(), thread);
    countThreadLoop();
    return;
  }
  // Warp by warp: each warp runs all its steps before the next warp starts.
  int64_t warps = llvm::divideCeil(threads, kWarpSize);
  auto warpLoop = scf::ForOp::create(builder, loc, constant(0), constant(warps),
                                     constant(1));
  OpBuilder warpBuilder = OpBuilder::atBlockBegin(warpLoop.getBody());
  Value warp = order.apply(warpBuilder, loc, warpLoop.getInductionVar(), warps);
  for (ArrayRef<Operation *> step : steps) {
    if (step.empty())
      continue;
    OpBuilder b(warpLoop.getBody()->getTerminator());
    auto c = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    auto laneLoop = scf::ForOp::create(b, loc, c(0), c(kWarpSize), c(1));
    OpBuilder lane = OpBuilder::atBlockBegin(laneLoop.getBody());
    Value laneId =
        order.apply(lane, loc, laneLoop.getInductionVar(), kWarpSize);
    Value thread = arith::AddIOp::create(
        lane, loc,
        arith::MulIOp::create(
            lane, loc, warp,
            arith::ConstantIndexOp::create(lane, loc, kWarpSize)),
        laneId);
    // The last warp may be partial.
    Value exists = arith::CmpIOp::create(
        lane, loc, arith::CmpIPredicate::ult, thread,
        arith::ConstantIndexOp::create(lane, loc, threads));
    auto guard = scf::IfOp::create(lane, loc, exists, /*withElse=*/false);
    moveStep(step, guard.thenBlock(), thread);
    countWarpLoop();
  }
}

LogicalResult
BlockSplitter::exchange(NVVM::ShflOp shuffle,
                        SmallVectorImpl<SmallVector<Operation *>> &steps) {
  if (shuffle.getReturnValueAndIsValid())
    return shuffle.emitOpError()
           << "returns whether its source lane is valid, which the CPU "
              "lowering does not compute";
  Location loc = shuffle.getLoc();
  auto func = shuffle->getParentOfType<func::FuncOp>();
  OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
  // A slot for every lane of every warp, those a partial last warp lacks
  // included, so that a lane that is not there reads a slot nobody wrote
  // (the proof rejects such a shuffle; the CPU shows a wrong answer).
  int64_t lanes = llvm::divideCeil(threads, kWarpSize) * kWarpSize;
  Value slots = memref::AllocaOp::create(
      entry, loc, MemRefType::get({lanes}, shuffle.getVal().getType()));
  blockAllocations.insert(slots.getDefiningOp());
  OpBuilder b(shuffle);
  SmallVector<Operation *> created;
  auto record = [&](Value value) {
    Operation *op = value.getDefiningOp();
    created.push_back(op);
    for (Value result : op->getResults()) {
      threadValues.insert(result);
      stepValues[result] = {phase, steps.size() - 1};
    }
    return value;
  };
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  threadValues.insert(thread);
  // Each lane gives its value in the step that computes it (or the
  // phase's first, for a value from an id or from an earlier phase): the
  // value is the same SSA value, and its slots are this shuffle's own. The
  // exchange needs a step after that one; where the current step is later,
  // the shuffles of a round (the registers of a blocked array, each sent
  // by its own shuffle) share one exchange instead of a step each.
  size_t giving = 0;
  if (auto found = stepValues.find(shuffle.getVal());
      found != stepValues.end() && found->second.first == phase)
    giving = found->second.second;
  steps[giving].push_back(
      memref::StoreOp::create(b, loc, shuffle.getVal(), slots, thread));
  if (giving == steps.size() - 1)
    steps.emplace_back();
  Type i32 = b.getI32Type();
  auto c32 = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, loc, value, 32);
  };
  Value laneIndex = record(arith::RemUIOp::create(
      b, loc, thread, arith::ConstantIndexOp::create(b, loc, kWarpSize)));
  Value lane = record(arith::IndexCastUIOp::create(b, loc, i32, laneIndex));
  // Only the low five bits of the lane or offset count (bval = b[4:0]).
  Value offset =
      record(arith::AndIOp::create(b, loc, shuffle.getOffset(), c32(0x1f)));
  Value packed = shuffle.getMaskAndClamp();
  Value clamp = record(arith::AndIOp::create(b, loc, packed, c32(0x1f)));
  Value segmask = record(arith::AndIOp::create(
      b, loc, record(arith::ShRUIOp::create(b, loc, packed, c32(8))),
      c32(0x1f)));
  Value minLane = record(arith::AndIOp::create(b, loc, lane, segmask));
  Value notSegmask = record(arith::XOrIOp::create(b, loc, segmask, c32(0x1f)));
  Value maxLane = record(arith::OrIOp::create(
      b, loc, minLane,
      record(arith::AndIOp::create(b, loc, clamp, notSegmask))));
  Value source;
  arith::CmpIPredicate inside = arith::CmpIPredicate::sle;
  switch (shuffle.getKind()) {
  case NVVM::ShflKind::up:
    source = record(arith::SubIOp::create(b, loc, lane, offset));
    inside = arith::CmpIPredicate::sge;
    break;
  case NVVM::ShflKind::down:
    source = record(arith::AddIOp::create(b, loc, lane, offset));
    break;
  case NVVM::ShflKind::bfly:
    source = record(arith::XOrIOp::create(b, loc, lane, offset));
    break;
  case NVVM::ShflKind::idx:
    source = record(arith::OrIOp::create(
        b, loc, minLane,
        record(arith::AndIOp::create(b, loc, offset, notSegmask))));
    break;
  }
  Value valid = record(arith::CmpIOp::create(b, loc, inside, source, maxLane));
  source = record(arith::SelectOp::create(b, loc, valid, source, lane));
  Value warpBase = record(arith::SubIOp::create(b, loc, thread, laneIndex));
  Value from = record(arith::AddIOp::create(
      b, loc, warpBase,
      record(arith::IndexCastOp::create(b, loc, b.getIndexType(), source))));
  Value taken = record(memref::LoadOp::create(b, loc, slots, from));
  llvm::append_range(steps.back(), created);
  shuffle.getResult().replaceAllUsesWith(taken);
  shuffle.erase();
  return success();
}

LogicalResult BlockSplitter::split(Block &block) {
  SmallVector<SmallVector<Operation *>> steps(1);
  ++phase;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      emitPhase(steps, &op);
      break;
    }
    if (isa<gpu::BarrierOp>(op)) {
      emitPhase(steps, &op);
      steps.assign(1, {});
      ++phase;
      op.erase();
      continue;
    }
    if (isa<NVVM::SyncWarpOp>(op)) {
      // Its mask, computed by the threads of the step, dies with it.
      steps.emplace_back();
      op.erase();
      continue;
    }
    if (isa<gpu::ThreadIdOp>(op)) {
      threadValues.insert(op.getResult(0));
      continue;
    }
    if (auto shuffle = dyn_cast<NVVM::ShflOp>(op)) {
      if (failed(exchange(shuffle, steps)))
        return failure();
      continue;
    }
    if (gpu_to_cpu::holdsBarrier(&op)) {
      auto loop = dyn_cast<scf::ForOp>(op);
      auto differs = [&](Value v) { return threadValues.contains(v); };
      if (!loop ||
          llvm::any_of(ValueRange{loop.getLowerBound(), loop.getUpperBound(),
                                  loop.getStep()},
                       differs))
        return op.emitOpError()
               << "holds a barrier or a shuffle that some threads could "
                  "skip: only loops that every thread runs alike may hold "
                  "them";
      // Run alike, but carrying each thread's own values (hunt 34: the
      // message above blamed the trip count).
      if (llvm::any_of(loop.getInitArgs(), differs))
        return op.emitOpError()
               << "carries values that differ between threads across the "
                  "barriers or shuffles it holds, which the CPU lowering "
                  "keeps only in memory: carry them in a buffer";
      emitPhase(steps, &op);
      steps.assign(1, {});
      if (failed(split(*loop.getBody())))
        return failure();
      ++phase;
      continue;
    }
    if (isUniform(&op))
      continue;
    // What a thread computes from its id alone, without touching memory
    // (after CSE, possibly once for several phases), is computed again where
    // a later phase uses it. The op runs unconditionally here, at the top of
    // the kernel, so a copy in a later phase runs no more often than it did:
    // no speculation. What is computed from loaded values stays in its step
    // and is kept for later steps: computed again, it would take with it its
    // whole expression back to the loads, in every step that uses it, and a
    // chain of shuffles would grow quadratically.
    if (isMemoryEffectFree(&op) && !usesStepValue(&op)) {
      rematerializable.insert(&op);
      for (Value result : op.getResults())
        threadValues.insert(result);
      continue;
    }
    op.walk([&](Operation *nested) {
      for (Value result : nested->getResults()) {
        threadValues.insert(result);
        stepValues[result] = {phase, steps.size() - 1};
      }
    });
    steps.back().push_back(&op);
  }
  return success();
}

/// Moves the constant tables of `gpuModule`'s kernels (compact work lists)
/// to the host `module`, renamed where a name is taken; returns their new
/// names by old.
static llvm::StringMap<StringAttr> moveGlobalsToHost(gpu::GPUModuleOp gpuModule,
                                                     ModuleOp module,
                                                     SymbolTable &hostSymbols) {
  llvm::StringMap<StringAttr> globalNames;
  for (auto global :
       llvm::make_early_inc_range(gpuModule.getOps<memref::GlobalOp>())) {
    StringAttr oldName = global.getSymNameAttr();
    global->moveBefore(module.getBody(), module.getBody()->begin());
    globalNames[oldName.getValue()] = hostSymbols.insert(global);
  }
  return globalNames;
}

/// Moves the declarations of the runtime functions `gpuModule`'s kernels
/// call (a scatter's check) to the host `module`, one for the module. Fails,
/// reported, at a function with a body.
static LogicalResult moveDeclarationsToHost(gpu::GPUModuleOp gpuModule,
                                            ModuleOp module) {
  for (auto declaration :
       llvm::make_early_inc_range(gpuModule.getOps<func::FuncOp>())) {
    if (!declaration.isDeclaration())
      return declaration.emitOpError()
             << "is a function with a body in a kernel module: the cpu "
                "target moves only declarations of runtime functions to the "
                "host";
    if (failed(getOrDeclareRuntimeFunction(module, declaration.getSymName(),
                                           declaration.getFunctionType())))
      return failure();
    declaration.erase();
  }
  return success();
}

/// Points the uses in `func` of the globals moved to the host at their new
/// names.
static void renameGlobals(func::FuncOp func,
                          const llvm::StringMap<StringAttr> &globalNames) {
  func.walk([&](memref::GetGlobalOp get) {
    if (StringAttr renamed = globalNames.lookup(get.getName()))
      get.setNameAttr(FlatSymbolRefAttr::get(renamed));
  });
}

/// A private function in the host `module` that runs one block of `kernel`:
/// the kernel's arguments and the block id, and a copy of its body, with an
/// allocation standing for each workgroup buffer (in `blockAllocations`).
static func::FuncOp
cloneAsBlockFunction(gpu::GPUFuncOp kernel, ModuleOp module,
                     SymbolTable &hostSymbols,
                     llvm::DenseSet<Operation *> &blockAllocations) {
  OpBuilder builder(module.getBody(), module.getBody()->end());
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  inputs.push_back(builder.getIndexType());
  auto func = func::FuncOp::create(builder, kernel.getLoc(),
                                   (kernel.getName() + ".block").str(),
                                   builder.getFunctionType(inputs, {}));
  func.setPrivate();
  hostSymbols.insert(func);
  Block *entry = func.addEntryBlock();
  IRMapping mapping;
  builder.setInsertionPointToStart(entry);
  for (unsigned i = 0, e = kernel.getArgumentTypes().size(); i < e; ++i)
    mapping.map(kernel.getArgument(i), entry->getArgument(i));
  // One allocation per block stands for each workgroup buffer.
  for (BlockArgument buffer : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(buffer.getType());
    auto local = MemRefType::get(type.getShape(), type.getElementType());
    auto standIn = memref::AllocaOp::create(builder, kernel.getLoc(), local);
    blockAllocations.insert(standIn);
    mapping.map(buffer, standIn);
  }
  for (Operation &op : kernel.getBody().front())
    builder.clone(op, mapping);
  return func;
}

/// Replaces in `func`, the block function of `kernel` with `threads`
/// threads, the ids and sizes along y and z, the block id, the block and
/// grid sizes, and the kernel's return.
static void replaceIdsAndSizes(func::FuncOp func, gpu::GPUFuncOp kernel,
                               int64_t threads) {
  Value blockId = func.getArguments().back();
  // Launches and blocks are x only (checked by checkRunsOnCPU and at the
  // launch):
  // along y and z every id is 0 and every size 1.
  func.walk([&](Operation *op) {
    OpBuilder b(op);
    auto replaceWith = [&](Value value) {
      op->getResult(0).replaceAllUsesWith(value);
      op->erase();
    };
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(b, op->getLoc(), value);
    };
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      if (id.getDimension() != gpu::Dimension::x)
        replaceWith(constant(0));
    } else if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      replaceWith(id.getDimension() == gpu::Dimension::x ? blockId
                                                         : constant(0));
    } else if (auto dim = dyn_cast<gpu::BlockDimOp>(op)) {
      replaceWith(
          constant(dim.getDimension() == gpu::Dimension::x ? threads : 1));
    } else if (auto dim = dyn_cast<gpu::GridDimOp>(op)) {
      replaceWith(constant(dim.getDimension() == gpu::Dimension::x
                               ? (*kernel.getKnownGridSize())[0]
                               : 1));
    } else if (isa<gpu::ReturnOp>(op)) {
      func::ReturnOp::create(b, op->getLoc());
      op->erase();
    }
  });
}

/// Takes the memory spaces off the memref results in `func`.
static void dropMemorySpaces(func::FuncOp func) {
  // Workgroup memory spaces are gone from the allocations; the casts
  // the body made to them go too.
  func.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (auto type = dyn_cast<MemRefType>(result.getType());
          type && type.getMemorySpace())
        result.setType(MemRefType::get(type.getShape(), type.getElementType()));
  });
}

/// The function that runs a grid of `kernel`'s blocks (its first argument,
/// the grid's size), in `blockOrderOf`, each a call of `callee`, the
/// kernel's block function, with the function's other arguments.
static func::FuncOp buildGridFunction(gpu::GPUFuncOp kernel,
                                      func::FuncOp callee,
                                      ThreadOrder &blockOrderOf,
                                      SymbolTable &hostSymbols) {
  Location loc = kernel.getLoc();
  OpBuilder builder(callee);
  SmallVector<Type> argumentTypes = {builder.getIndexType()};
  llvm::append_range(argumentTypes,
                     callee.getArgumentTypes().drop_back(/*block=*/1));
  auto function =
      func::FuncOp::create(builder, loc, (callee.getSymName() + ".grid").str(),
                           builder.getFunctionType(argumentTypes, {}));
  function.setPrivate();
  hostSymbols.insert(function);
  Block *entry = function.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  Value gridSize = entry->getArgument(0);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  auto blocks = scf::ForOp::create(builder, loc, zero, gridSize, one);
  func::ReturnOp::create(builder, loc);
  builder.setInsertionPoint(blocks.getBody()->getTerminator());
  SmallVector<Value> operands(entry->getArguments().drop_front());
  // The grid is the kernel's known_grid_size (checked by
  // checkLaunchRunsOnCPU), or a size known only at run time.
  Value block = blocks.getInductionVar();
  if (std::optional<ArrayRef<int32_t>> grid = kernel.getKnownGridSize())
    block = blockOrderOf.apply(builder, loc, block, (*grid)[0]);
  else
    block = blockOrderOf.apply(builder, loc, block, gridSize);
  operands.push_back(block);
  func::CallOp::create(builder, loc, callee, operands);
  return function;
}

/// Replaces `launch` by a call of `gridFunction`, which runs the grid's
/// blocks: a host function of a thousand launches (a device sort's levels)
/// stays a thousand calls, not a thousand block loops, for the JIT.
static void lowerLaunch(gpu::LaunchFuncOp launch, func::FuncOp gridFunction) {
  OpBuilder builder(launch);
  SmallVector<Value> operands = {launch.getGridSizeX()};
  llvm::append_range(operands, launch.getKernelOperands());
  func::CallOp::create(builder, launch.getLoc(), gridFunction, operands);
  launch.erase();
}

namespace {
struct ObsGPUToCPUPass : mlir::obs::impl::ObsGPUToCPUBase<ObsGPUToCPUPass> {
  using ObsGPUToCPUBase::ObsGPUToCPUBase;
  void runOnOperation() override;

private:
  /// Converts the kernels of `gpuModule` into block functions of the host
  /// module, recorded in `blockFuncs` by kernel, and moves what they use
  /// to the host.
  LogicalResult
  convertKernelModule(gpu::GPUModuleOp gpuModule, SymbolTable &hostSymbols,
                      ThreadOrder &threadOrder,
                      llvm::DenseMap<Operation *, func::FuncOp> &blockFuncs);
  /// The block function of `kernel`: its body, split at its barriers into
  /// loops over threads in `threadOrder`; or an error.
  FailureOr<func::FuncOp> convertKernel(gpu::GPUFuncOp kernel,
                                        SymbolTable &hostSymbols,
                                        ThreadOrder &threadOrder);
  /// Replaces every launch by a call of its kernel's grid function (added
  /// to `hostSymbols`): a loop over the grid's blocks, each a call of the
  /// kernel's block function, the blocks in `blockOrderOf`.
  LogicalResult
  convertLaunches(ThreadOrder &blockOrderOf, SymbolTable &hostSymbols,
                  const llvm::DenseMap<Operation *, func::FuncOp> &blockFuncs);
};
} // namespace

FailureOr<func::FuncOp>
ObsGPUToCPUPass::convertKernel(gpu::GPUFuncOp kernel, SymbolTable &hostSymbols,
                               ThreadOrder &threadOrder) {
  if (failed(gpu_to_cpu::checkRunsOnCPU(kernel)))
    return failure();
  int64_t threads = (*kernel.getKnownBlockSize())[0];
  llvm::DenseSet<Operation *> blockAllocations;
  func::FuncOp func = cloneAsBlockFunction(kernel, getOperation(), hostSymbols,
                                           blockAllocations);
  replaceIdsAndSizes(func, kernel, threads);
  dropMemorySpaces(func);
  if (failed(gpu_to_cpu::replaceChainAccesses(func)))
    return failure();
  gpu_to_cpu::foldUniformBranches(func, threads);
  BlockSplitter splitter(
      threads, threadOrder, blockAllocations,
      [&] { addToStatistic(*this, numThreadLoops, "thread-loops"); },
      [&] { addToStatistic(*this, numWarpLoops, "warp-loops"); });
  if (failed(splitter.split(func.getBody().front())))
    return failure();
  // Every step now computes what it needs of these itself.
  for (Operation *op : llvm::reverse(splitter.rematerializable))
    if (op->use_empty())
      op->erase();
  func.walk([](gpu::ThreadIdOp id) {
    if (id->use_empty())
      id.erase();
  });
  if (failed(gpu_to_cpu::checkNoValueCrossesABarrier(func)))
    return failure();
  return func;
}

LogicalResult ObsGPUToCPUPass::convertKernelModule(
    gpu::GPUModuleOp gpuModule, SymbolTable &hostSymbols,
    ThreadOrder &threadOrder,
    llvm::DenseMap<Operation *, func::FuncOp> &blockFuncs) {
  ModuleOp module = getOperation();
  llvm::StringMap<StringAttr> globalNames =
      moveGlobalsToHost(gpuModule, module, hostSymbols);
  if (failed(moveDeclarationsToHost(gpuModule, module)))
    return failure();
  for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
    FailureOr<func::FuncOp> func =
        convertKernel(kernel, hostSymbols, threadOrder);
    if (failed(func))
      return failure();
    renameGlobals(*func, globalNames);
    blockFuncs[kernel] = *func;
  }
  return success();
}

LogicalResult ObsGPUToCPUPass::convertLaunches(
    ThreadOrder &blockOrderOf, SymbolTable &hostSymbols,
    const llvm::DenseMap<Operation *, func::FuncOp> &blockFuncs) {
  // Launches become loops over the grid's blocks. A launch names its kernel
  // from the nearest symbol table, so one in a nested module finds that
  // module's kernels, which this pass does not convert.
  SmallVector<gpu::LaunchFuncOp> launches;
  getOperation().walk(
      [&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
  SymbolTableCollection symbolTables;
  llvm::DenseMap<Operation *, func::FuncOp> gridFunctions;
  for (gpu::LaunchFuncOp launch : launches) {
    auto kernel = symbolTables.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        launch, launch.getKernel());
    func::FuncOp callee = kernel ? blockFuncs.lookup(kernel) : nullptr;
    if (!callee)
      return launch.emitOpError()
             << "launches a kernel this pass did not convert";
    if (failed(gpu_to_cpu::checkLaunchRunsOnCPU(launch, kernel)))
      return failure();
    func::FuncOp &gridFunction = gridFunctions[kernel];
    if (!gridFunction)
      gridFunction =
          buildGridFunction(kernel, callee, blockOrderOf, hostSymbols);
    lowerLaunch(launch, gridFunction);
  }
  return success();
}

void ObsGPUToCPUPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Everything this pass adds to the host module is renamed where its name
  // is taken: two gpu.modules may each hold a kernel @k.
  SymbolTable hostSymbols(module);
  ThreadOrder threadOrder(/*block=*/false, order, seed, runTimeOrders,
                          hostSymbols);
  ThreadOrder blockOrderOf(/*block=*/true, blockOrder, blockSeed, runTimeOrders,
                           hostSymbols);
  SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
  llvm::DenseMap<Operation *, func::FuncOp> blockFuncs;
  for (gpu::GPUModuleOp gpuModule : gpuModules)
    if (failed(convertKernelModule(gpuModule, hostSymbols, threadOrder,
                                   blockFuncs)))
      return signalPassFailure();
  if (failed(convertLaunches(blockOrderOf, hostSymbols, blockFuncs)))
    return signalPassFailure();
  for (gpu::GPUModuleOp gpuModule : gpuModules)
    gpuModule.erase();
  module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
}
