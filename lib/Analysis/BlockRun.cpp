//===- BlockRun.cpp - every access of every thread of a block -------------===//

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Support/IntegerEvaluation.h"
#include "Obs/Support/MemoryBytes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::obs;

StringRef mlir::obs::stringifyHazardKind(Hazard::Kind kind) {
  switch (kind) {
  case Hazard::ReadAfterWrite:
    return "read after write";
  case Hazard::WriteAfterRead:
    return "write after read";
  case Hazard::WriteAfterWrite:
    return "write after write";
  }
  llvm_unreachable("unknown hazard");
}

namespace mlir::obs {

enum class UntrackedMemory { Private, Constant, Unknown };

/// Runs one thread: index arithmetic is folded with the thread id known;
/// memory contents stay unknown.
class ThreadRunner {
public:
  ThreadRunner(BlockRun &run, unsigned thread) : run(run), thread(thread) {
    values.reserve(run.valuesPerThread);
  }
  /// How many values this thread came to know.
  unsigned getKnownCount() const { return values.size(); }

  LogicalResult runRegion(Region &region);

  /// Makes `root` point at the start of memory `memory`.
  void bindMemory(Value root, unsigned memory, Attribute owner) {
    pointers[root] = {memory, 0, owner};
  }

  /// The barriers this thread passed, in order.
  SmallVector<Operation *> passed;

private:
  /// Where a memref value points: a root memory and a byte offset into it.
  struct Pointer {
    unsigned memory;
    uint64_t byteOffset;
    Attribute owner;
  };

  LogicalResult runOp(Operation &op);
  LogicalResult runBlock(Block &block);
  std::optional<int64_t> knownInt(Value value) const {
    auto it = values.find(value);
    if (it == values.end())
      return std::nullopt;
    return it->second;
  }
  /// Records `value` for `result`, wrapped to the result's bit width.
  void setInt(Value result, int64_t value);
  /// Evaluates the integer arithmetic of addresses and conditions.
  void evaluate(Operation &op);
  static int64_t integerValue(IntegerAttr integer) {
    return integer.getType().isInteger(1)
               ? static_cast<int64_t>(integer.getValue().getZExtValue())
               : integer.getValue().getSExtValue();
  }
  /// Fails, with an error at `op`, when `op` may touch memory other than
  /// through the loads and stores the analysis records.
  LogicalResult checkEffects(Operation &op);
  /// The entry a load reads from a constant global at known indices.
  std::optional<int64_t> loadConstant(memref::LoadOp load);
  /// What a memref the analysis does not track is: a thread's own scratch
  /// (allocated in the kernel), a constant global, or memory it cannot
  /// follow (a mutable global, say, which every thread and block shares).
  UntrackedMemory classifyUntracked(Value memref);
  /// Records one access; `wholeBuffer` stands for an access anywhere in
  /// the buffer that is known not to depend on data (a skipped fold).
  LogicalResult recordAccess(Operation *op, Value memref, ValueRange indices,
                             bool write, bool wholeBuffer = false);
  FailureOr<bool> knownCondition(Operation *op, Value condition);
  /// Whether `loop` neither passes a barrier, nor stores to memory the
  /// analysis tracks, nor loads from workgroup memory.
  bool isInvisible(scf::ForOp loop) const;

  BlockRun &run;
  unsigned thread;
  /// The integers (and indices, and booleans) known in this thread.
  llvm::DenseMap<Value, int64_t> values;
  llvm::DenseMap<Value, Pointer> pointers;
  uint64_t order = 0;
};

} // namespace mlir::obs

LogicalResult ThreadRunner::recordAccess(Operation *op, Value memref,
                                         ValueRange indices, bool write,
                                         bool wholeBuffer) {
  auto it = pointers.find(memref);
  if (it == pointers.end()) {
    // Memory no other thread sees: the thread's own scratch, or a constant
    // table it only reads. Any other is memory the proof cannot follow.
    UntrackedMemory kind = classifyUntracked(memref);
    if (kind == UntrackedMemory::Private ||
        (kind == UntrackedMemory::Constant && !write))
      return success();
    return op->emitOpError()
           << (write ? "writes" : "reads")
           << " memory that is neither the kernel's arguments, its shared "
              "buffers, a thread's own scratch nor a constant table, so the "
              "analysis cannot prove the kernel safe";
  }
  if (run.accesses.size() == BlockRun::kMaxAccesses)
    return tagError(op->emitError()
                        << "cannot prove the kernel safe: one block makes "
                           "more than the limit of "
                        << BlockRun::kMaxAccesses
                        << " memory accesses that the analysis follows",
                    ErrorKind::CompilerLimit);
  auto type = cast<MemRefType>(memref.getType());
  uint64_t elementBytes = getElementBytes(type);
  Access access{static_cast<unsigned>(passed.size()),
                thread,
                order++,
                write,
                it->second.memory,
                /*byteBegin=*/0,
                /*byteEnd=*/0,
                /*element=*/-1,
                op,
                it->second.owner};
  // Row-major linearisation of the indices, when they are all known.
  int64_t linear = 0;
  bool allKnown = !wholeBuffer;
  for (auto [index, extent] : llvm::zip(indices, type.getShape())) {
    std::optional<int64_t> value = knownInt(index);
    if (!value) {
      allKnown = false;
      break;
    }
    linear = linear * extent + *value;
  }
  if (allKnown) {
    access.element = linear;
    access.byteBegin = it->second.byteOffset + linear * elementBytes;
    access.byteEnd = access.byteBegin + elementBytes;
  } else {
    // Anywhere in the buffer this memref views.
    run.dataDependent |= !wholeBuffer;
    access.byteBegin = it->second.byteOffset;
    access.byteEnd = access.byteBegin + type.getNumElements() * elementBytes;
  }
  run.accesses.push_back(access);
  return success();
}

FailureOr<bool> ThreadRunner::knownCondition(Operation *op, Value condition) {
  if (std::optional<int64_t> value = knownInt(condition))
    return *value != 0;
  return failure();
}

LogicalResult ThreadRunner::runBlock(Block &block) {
  for (Operation &op : block)
    if (failed(runOp(op)))
      return failure();
  return success();
}

LogicalResult ThreadRunner::runRegion(Region &region) {
  if (region.empty())
    return success();
  return runBlock(region.front());
}

static bool holdsBarrier(Region &region) {
  return region
      .walk([](Operation *op) {
        return isa<gpu::BarrierOp, NVVM::SyncWarpOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult ThreadRunner::runOp(Operation &op) {
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
    values[id.getResult()] = id.getDimension() == gpu::Dimension::x ? thread : 0;
    return success();
  }
  if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
    values[id.getResult()] = 0;
    return success();
  }
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op)) {
    values[dim.getResult()] =
        dim.getDimension() == gpu::Dimension::x ? run.threads : 1;
    return success();
  }
  if (isa<gpu::BarrierOp, NVVM::SyncWarpOp>(op)) {
    passed.push_back(&op);
    return success();
  }
  if (isa<gpu::ReturnOp, scf::YieldOp>(op))
    return success();
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    // A constant table (compact's positions, a shuffle) is known data.
    if (std::optional<int64_t> entry = loadConstant(load))
      setInt(load.getResult(), *entry);
    return recordAccess(&op, load.getMemRef(), load.getIndices(),
                        /*write=*/false);
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    return recordAccess(&op, store.getMemRef(), store.getIndices(),
                        /*write=*/true);
  }
  if (auto view = dyn_cast<memref::ViewOp>(op)) {
    auto source = pointers.find(view.getSource());
    std::optional<int64_t> shift = knownInt(view.getByteShift());
    if (source == pointers.end() || !shift)
      return op.emitOpError() << "views memory the analysis cannot follow";
    Attribute owner = ObsDialect::OwnerAttrHelper(op.getContext()).getAttr(&op);
    Pointer viewed{source->second.memory,
                   source->second.byteOffset + static_cast<uint64_t>(*shift),
                   owner ? owner : source->second.owner};
    pointers[view.getResult()] = viewed;
    return success();
  }
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && isa<MemRefType>(select.getType())) {
    FailureOr<bool> condition = knownCondition(&op, select.getCondition());
    if (failed(condition))
      return op.emitOpError()
             << "chooses a buffer by a condition the analysis cannot follow";
    Value chosen =
        *condition ? select.getTrueValue() : select.getFalseValue();
    // Copied out first: inserting the result may grow the map under `it`.
    auto it = pointers.find(chosen);
    if (it != pointers.end()) {
      Pointer pointer = it->second;
      pointers[select.getResult()] = pointer;
    }
    return success();
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    FailureOr<bool> condition = knownCondition(&op, ifOp.getCondition());
    if (succeeded(condition)) {
      Region &taken = *condition ? ifOp.getThenRegion() : ifOp.getElseRegion();
      if (failed(runRegion(taken)))
        return failure();
      if (!taken.empty())
        for (auto [result, yielded] : llvm::zip_equal(
                 ifOp.getResults(),
                 taken.front().getTerminator()->getOperands()))
          if (std::optional<int64_t> value = knownInt(yielded))
            values[result] = *value;
      return success();
    }
    // A condition on data: either branch may run, so both are counted. A
    // barrier in either would be skipped by some threads.
    if (holdsBarrier(ifOp.getThenRegion()) ||
        holdsBarrier(ifOp.getElseRegion()))
      return op.emitOpError()
             << "holds a barrier under a condition that depends on data";
    if (failed(runRegion(ifOp.getThenRegion())) ||
        failed(runRegion(ifOp.getElseRegion())))
      return failure();
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    std::optional<int64_t> lower = knownInt(loop.getLowerBound());
    std::optional<int64_t> upper = knownInt(loop.getUpperBound());
    std::optional<int64_t> step = knownInt(loop.getStep());
    if (!lower || !upper || !step || *step <= 0)
      return op.emitOpError()
             << "is a loop whose bounds the analysis cannot follow";
    // A loop that only computes from global memory and private scratch (a
    // fold over an input, a thread's tree) touches nothing another thread
    // can see: it is skipped, its results unknown. Running it would cost
    // its whole trip count per thread.
    // Its reads of global memory still count, once each, as reads of
    // anywhere in their buffer: a launch whose output is a view of its input
    // must order them before the output's writes.
    if (!loop.getInitArgs().empty() && isInvisible(loop)) {
      WalkResult recorded = loop.getBody()->walk([&](memref::LoadOp load) {
        if (pointers.count(load.getMemRef()) &&
            failed(recordAccess(load, load.getMemRef(), {}, /*write=*/false,
                                /*wholeBuffer=*/true)))
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (recorded.wasInterrupted())
        return failure();
      for (Value result : loop.getResults())
        values.erase(result);
      return success();
    }
    // Values a loop carries (a fold's accumulator, a rank) are data: an
    // access indexed by one counts as data-dependent.
    for (int64_t i = *lower; i < *upper; i += *step) {
      values[loop.getInductionVar()] = i;
      for (Value carried : loop.getRegionIterArgs())
        values.erase(carried);
      if (failed(runRegion(loop.getRegion())))
        return failure();
    }
    for (Value result : loop.getResults())
      values.erase(result);
    return success();
  }

  if (op.getNumRegions())
    return op.emitOpError() << "has regions the analysis cannot follow";
  if (failed(checkEffects(op)))
    return failure();
  evaluate(op);
  return success();
}

LogicalResult ThreadRunner::checkEffects(Operation &op) {
  // The proof sees memory only through the loads and stores above: any
  // other op that may touch memory another thread sees is an error, not
  // something to skip. Private memory (a thread's own scratch) is free.
  if (run.effectsChecked.contains(&op) || isMemoryEffectFree(&op))
    return success();
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return op.emitOpError()
           << "has memory effects the analysis cannot see, so it cannot "
              "prove the kernel safe";
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &instance : instances) {
    Value value = instance.getValue();
    if (value && isa<MemRefType>(value.getType()) && !pointers.count(value)) {
      UntrackedMemory kind = classifyUntracked(value);
      if (kind == UntrackedMemory::Private ||
          (kind == UntrackedMemory::Constant &&
           isa<MemoryEffects::Read>(instance.getEffect())))
        continue;
    }
    return op.emitOpError()
           << "reads or writes memory that the analysis follows only "
              "through memref.load and memref.store, so it cannot prove the "
              "kernel safe";
  }
  run.effectsChecked.insert(&op);
  return success();
}

UntrackedMemory ThreadRunner::classifyUntracked(Value memref) {
  Value root = memref;
  while (Operation *producer = root.getDefiningOp()) {
    if (isa<memref::AllocaOp, memref::AllocOp>(producer))
      return UntrackedMemory::Private;
    if (auto get = dyn_cast<memref::GetGlobalOp>(producer)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      return global && global.getConstant() ? UntrackedMemory::Constant
                                            : UntrackedMemory::Unknown;
    }
    auto view = dyn_cast<ViewLikeOpInterface>(producer);
    if (!view || pointers.count(view.getViewSource()))
      return UntrackedMemory::Unknown;
    root = view.getViewSource();
  }
  return UntrackedMemory::Unknown;
}

std::optional<int64_t> ThreadRunner::loadConstant(memref::LoadOp load) {
  auto get = load.getMemRef().getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return std::nullopt;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  if (!global || !global.getConstant())
    return std::nullopt;
  auto values =
      dyn_cast_if_present<DenseIntElementsAttr>(global.getInitialValueAttr());
  if (!values)
    return std::nullopt;
  auto type = cast<MemRefType>(load.getMemRef().getType());
  int64_t linear = 0;
  for (auto [index, extent] : llvm::zip_equal(load.getIndices(),
                                               type.getShape())) {
    std::optional<int64_t> value = knownInt(index);
    if (!value || *value < 0 || *value >= extent)
      return std::nullopt;
    linear = linear * extent + *value;
  }
  APInt entry = values.isSplat() ? values.getSplatValue<APInt>()
                                 : *(values.value_begin<APInt>() + linear);
  return entry.getSExtValue();
}

bool ThreadRunner::isInvisible(scf::ForOp loop) const {
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    if (isa<gpu::BarrierOp, NVVM::SyncWarpOp>(op))
      return WalkResult::interrupt();
    Value memref;
    bool store = false;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef();
    else if (auto storeOp = dyn_cast<memref::StoreOp>(op))
      memref = storeOp.getMemRef(), store = true;
    else if (op->getNumRegions() == 0 && !isMemoryEffectFree(op) &&
             !isa<memref::AllocaOp>(op))
      return WalkResult::interrupt(); // Run it: its effects get checked.
    else
      return WalkResult::advance();
    if (loop->isAncestor(memref.getParentRegion()->getParentOp()))
      return WalkResult::interrupt(); // A view made inside: run it.
    auto it = pointers.find(memref);
    if (it == pointers.end())
      return WalkResult::advance(); // Private scratch.
    if (store || run.memories[it->second.memory].workgroup)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

void ThreadRunner::setInt(Value result, int64_t value) {
  values[result] = wrapToInteger(result.getType(), value);
}

void ThreadRunner::evaluate(Operation &op) {
  if (op.getNumResults() != 1 || !op.getResult(0).getType().isIntOrIndex())
    return;
  Value result = op.getResult(0);
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto integer = dyn_cast<IntegerAttr>(constant.getValue()))
      setInt(result, integerValue(integer));
    return;
  }
  SmallVector<int64_t, 3> operands;
  for (Value operand : op.getOperands()) {
    std::optional<int64_t> value = knownInt(operand);
    if (!value || !operand.getType().isIntOrIndex())
      return;
    operands.push_back(*value);
  }
  // Folding asks for attributes, which the run caches.
  if (std::optional<int64_t> computed =
          evaluateIntegerOp(op, operands, [&](Type type, int64_t value) {
            return run.integerAttr(type, value);
          }))
    values[result] = *computed;
}

Attribute BlockRun::integerAttr(Type type, int64_t value) {
  Attribute &attribute = integerAttrs[{type, value}];
  if (!attribute)
    attribute = IntegerAttr::get(type, value);
  return attribute;
}

FailureOr<BlockRun> BlockRun::simulate(gpu::GPUFuncOp kernel) {
  BlockRun run;
  std::optional<ArrayRef<int32_t>> blockSize = kernel.getKnownBlockSize();
  if (!blockSize)
    return kernel.emitOpError() << "needs known_block_size to be analysed";
  run.threads = (*blockSize)[0];

  llvm::DenseMap<Value, unsigned> roots;
  llvm::DenseMap<Value, Attribute> owners;
  auto addMemory = [&](Value value, bool workgroup) {
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type)
      return;
    roots[value] = run.memories.size();
    run.memories.push_back({value, workgroup, getTotalBytes(type)});
  };
  for (unsigned i = 0, e = kernel.getArgumentTypes().size(); i < e; ++i)
    addMemory(kernel.getArgument(i), /*workgroup=*/false);
  for (auto [index, buffer] :
       llvm::enumerate(kernel.getWorkgroupAttributions())) {
    addMemory(buffer, /*workgroup=*/true);
    owners[buffer] = kernel.getWorkgroupAttributionAttr(
        index, ObsDialect::OwnerAttrHelper(kernel.getContext()).getName());
  }

  SmallVector<Operation *> reference;
  for (unsigned thread = 0; thread < run.threads; ++thread) {
    ThreadRunner runner(run, thread);
    for (auto [value, memory] : roots)
      runner.bindMemory(value, memory, owners.lookup(value));
    if (failed(runner.runRegion(kernel.getBody())))
      return failure();
    run.valuesPerThread = std::max(run.valuesPerThread, runner.getKnownCount());
    // Every thread must pass the same barriers in the same order.
    if (thread == 0) {
      reference = runner.passed;
      for (Operation *op : reference)
        run.barriers.push_back({op, isa<gpu::BarrierOp>(op)});
    } else if (runner.passed != reference) {
      Operation *culprit = kernel;
      for (auto [a, b] : llvm::zip(runner.passed, reference))
        if (a != b) {
          culprit = a;
          break;
        }
      return culprit->emitOpError()
             << "is a barrier that threads 0 and " << thread
             << " do not pass alike: some threads could skip it";
    }
  }
  return run;
}

SmallVector<Hazard> mlir::obs::findHazards(const BlockRun &run,
                                           unsigned warpSize,
                                           unsigned limit) {
  // Prefix counts of block barriers: a block barrier between phases a < b
  // orders everything; any barrier orders threads of one warp.
  ArrayRef<Barrier> barriers = run.getBarriers();
  SmallVector<unsigned> blockBarriersBefore(barriers.size() + 1, 0);
  for (auto [index, barrier] : llvm::enumerate(barriers))
    blockBarriersBefore[index + 1] =
        blockBarriersBefore[index] + (barrier.block ? 1 : 0);
  auto ordered = [&](const Access &a, const Access &b) {
    if (a.phase == b.phase)
      return false;
    const Access &early = a.phase < b.phase ? a : b;
    const Access &late = a.phase < b.phase ? b : a;
    if (blockBarriersBefore[late.phase] - blockBarriersBefore[early.phase] > 0)
      return true;
    return early.thread / warpSize == late.thread / warpSize;
  };

  // Accesses to shared memory, by byte.
  std::map<std::pair<unsigned, uint64_t>, SmallVector<unsigned, 4>> byByte;
  ArrayRef<Access> accesses = run.getAccesses();
  for (auto [index, access] : llvm::enumerate(accesses)) {
    if (!run.getMemories()[access.memory].workgroup)
      continue;
    for (uint64_t byte = access.byteBegin; byte < access.byteEnd; ++byte)
      byByte[{access.memory, byte}].push_back(index);
  }

  SmallVector<Hazard> hazards;
  llvm::DenseSet<std::pair<unsigned, unsigned>> reported;
  for (auto &[location, indices] : byByte) {
    // A pair is judged once, at the first byte both access: the byte where
    // the later-starting one begins. The verdict does not depend on the
    // byte, and an access whose index the simulation could not tell spans
    // its whole buffer, so judging every shared byte made the work its
    // size times the square of the accesses (found by obs-fuzz: 6 * 10^10
    // pairs and three minutes for a 997-element kernel). Partners are
    // taken in list order, so hazards come out in the same order as
    // before.
    uint64_t byte = location.second;
    SmallVector<unsigned, 4> startingHere;
    for (unsigned index : indices)
      if (accesses[index].byteBegin == byte)
        startingHere.push_back(index);
    for (unsigned w : indices) {
      const Access &write = accesses[w];
      if (!write.write)
        continue;
      ArrayRef<unsigned> partners =
          write.byteBegin == byte ? ArrayRef<unsigned>(indices)
                                  : ArrayRef<unsigned>(startingHere);
      for (unsigned x : partners) {
        if (x == w)
          continue;
        const Access &other = accesses[x];
        if (other.write && x < w)
          continue; // Each pair of writes once.
        const Access *first = &write, *second = &other;
        if (other.phase < write.phase ||
            (other.phase == write.phase && other.thread == write.thread &&
             other.order < write.order))
          std::swap(first, second);
        if (first->phase == second->phase && first->thread == second->thread) {
          // One thread's own order: only reading what this stage wrote is
          // wrong (the stage must read earlier stages' values).
          if (!(first->write && !second->write))
            continue;
        } else if (ordered(*first, *second)) {
          continue;
        }
        Hazard::Kind kind = first->write
                                ? (second->write ? Hazard::WriteAfterWrite
                                                 : Hazard::ReadAfterWrite)
                                : Hazard::WriteAfterRead;
        // One report per pair of ops and phase is enough.
        auto key = std::make_pair(
            static_cast<unsigned>(reinterpret_cast<uintptr_t>(first->op) ^
                                  (second->phase << 8)),
            static_cast<unsigned>(reinterpret_cast<uintptr_t>(second->op) ^
                                  first->phase));
        if (!reported.insert(key).second)
          continue;
        hazards.push_back({kind, *first, *second});
        if (hazards.size() >= limit)
          return hazards;
      }
    }
  }
  return hazards;
}

SmallVector<Hazard>
mlir::obs::findGlobalHazards(const BlockRun &run,
                             ArrayRef<GlobalOverlap> overlaps,
                             unsigned warpSize, unsigned limit) {
  SmallVector<Hazard> hazards;
  if (overlaps.empty())
    return hazards;
  // The accesses of each global element, and those anywhere in a memory.
  ArrayRef<Access> accesses = run.getAccesses();
  std::map<std::pair<unsigned, int64_t>, SmallVector<unsigned, 2>> byElement;
  llvm::DenseMap<unsigned, SmallVector<unsigned, 2>> anywhere;
  for (auto [index, access] : llvm::enumerate(accesses)) {
    if (run.getMemories()[access.memory].workgroup)
      continue;
    if (access.element < 0)
      anywhere[access.memory].push_back(index);
    else
      byElement[{access.memory, access.element}].push_back(index);
  }
  auto of = [&](unsigned memory, uint64_t element, bool write) {
    SmallVector<const Access *> found;
    auto add = [&](ArrayRef<unsigned> indices) {
      for (unsigned index : indices)
        if (accesses[index].write == write)
          found.push_back(&accesses[index]);
    };
    auto it = byElement.find({memory, static_cast<int64_t>(element)});
    if (it != byElement.end())
      add(it->second);
    auto any = anywhere.find(memory);
    if (any != anywhere.end())
      add(any->second);
    return found;
  };
  ArrayRef<Barrier> barriers = run.getBarriers();
  SmallVector<unsigned> blockBarriersBefore(barriers.size() + 1, 0);
  for (auto [index, barrier] : llvm::enumerate(barriers))
    blockBarriersBefore[index + 1] =
        blockBarriersBefore[index] + (barrier.block ? 1 : 0);
  std::set<std::pair<Operation *, Operation *>> reported;
  for (const GlobalOverlap &overlap : overlaps)
    for (const Access *read :
         of(overlap.readMemory, overlap.readElement, /*write=*/false))
      for (const Access *write :
           of(overlap.writtenMemory, overlap.writtenElement, /*write=*/true)) {
        bool before;
        if (read->thread == write->thread)
          before = read->phase < write->phase ||
                   (read->phase == write->phase && read->order < write->order);
        else
          before = read->phase < write->phase &&
                   (blockBarriersBefore[write->phase] >
                        blockBarriersBefore[read->phase] ||
                    read->thread / warpSize == write->thread / warpSize);
        if (before || !reported.insert({read->op, write->op}).second)
          continue;
        // A read that certainly follows the write (in its thread, or in a
        // later phase) reads the new value; otherwise the two race.
        if (read->thread == write->thread || read->phase > write->phase)
          hazards.push_back({Hazard::ReadAfterWrite, *write, *read});
        else
          hazards.push_back({Hazard::WriteAfterRead, *read, *write});
        if (hazards.size() >= limit)
          return hazards;
      }
  return hazards;
}
