//===- KernelLowering.cpp - one obs kernel to a gpu.func ------------------===//
//
// A kernel is a sequence of stages, one per sync: every thread computes the
// elements the sync's work assignment gives it, stores them, and waits at a
// barrier. Element code comes from the index functions (ElementEmitter), with
// sources only where memory is: the kernel's arguments (global memory) and
// the arrays stages have stored (workgroup memory). Everything between two
// syncs is therefore inlined into the thread that needs it, as Obsidian's
// code generator does.
//
// Invariant for the CPU target: no SSA value defined in one stage is used in
// another, except the thread id, block id and loop counters (and values
// computed from them alone). Element code is emitted inside each stage.
//
//===----------------------------------------------------------------------===//

#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Dialect/Obs/Storage.h"
#include "Obs/KernelLowering/ElementSet.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/IntegerEvaluation.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/StableSort.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include <map>

using namespace mlir;
using namespace mlir::obs;

static constexpr uint64_t kWarpSize = KernelOp::kWarpSize;

/// Values in each thread of the block, by the structure of the index
/// arithmetic that computes them (see evaluateInEachThread).
using ThreadValuesCache =
    std::map<std::vector<uintptr_t>, std::optional<SmallVector<int64_t>>>;

/// The results whose global scatter counts its writes (see
/// lowerKernelToGPUFunc).
static SmallVector<unsigned> checkedGlobalResults(KernelOp kernel,
                                                  bool runTimeChecks) {
  return runTimeChecks ? getUncombinedGlobalResults(kernel)
                       : SmallVector<unsigned>();
}

/// The memref types of an array for a whole grid: the outermost dimension
/// holds every block's chunk. For a grid known only at run time, the
/// nominal length kDynamicGridLength stands for any.
static SmallVector<Type> gridStorageTypes(ArrType type, int64_t grid,
                                          Attribute memorySpace = {}) {
  SmallVector<Type> types;
  for (MemRefType memref : getStorageTypes(type, memorySpace)) {
    SmallVector<int64_t> shape(memref.getShape());
    shape[0] =
        ShapedType::isDynamic(grid) ? kDynamicGridLength : shape[0] * grid;
    types.push_back(MemRefType::get(shape, memref.getElementType(),
                                    MemRefLayoutAttrInterface(), memorySpace));
  }
  return types;
}

/// `type`, row-major as its identity layout, from an offset known only at
/// run time.
static MemRefType atRunTimeOffset(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset);
  return MemRefType::get(
      type.getShape(), type.getElementType(),
      StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic, strides),
      type.getMemorySpace());
}

/// Rounds of a stage up to this many are unrolled; more are a loop.
static constexpr uint64_t kUnrolledRounds = 8;

/// The most array reads the code of one stage may inline, over all its
/// unrolled rounds (ElementEmitter's read limit), of arrays in memory and
/// arrays computed on the way alike. The papers' kernels inline a few
/// dozen. Each unsynced `odds` triples the reads, so n of them inline
/// (3^n - 1) / 2, each behind the branches that choose it: a stage of
/// 35,000 reads is 300,000 operations, which LLVM takes minutes to compile
/// for the cpu target, where 2^13 take seconds.
static constexpr uint64_t kMaxFusedReads = 1 << 13;

namespace {

/// Where a stage stores its elements: component memrefs, and the offset of
/// this block's chunk in them (for global memory).
struct Destination {
  SmallVector<Value> components;
  /// For global memory, where element i of block b lives: the launch's
  /// layout (b, i) -> index, null when it is i itself.
  AffineMap layout;
  /// For global memory of a launch whose sizes are known at run time, each
  /// component's outermost length: a place at or past it is absent, neither
  /// read nor written. Empty otherwise.
  SmallVector<Value> lengths;
  /// What an absent place of each component reads as (arguments only).
  SmallVector<TypedAttr> absent;
};

class KernelLowering {
public:
  KernelLowering(KernelOp kernel, gpu::GPUFuncOp func, int64_t grid,
                 ArrayRef<AffineMap> layouts,
                 const GPULoweringCounters &counters,
                 ChangedElementsCache *cache, bool runTimeChecks)
      : kernel(kernel), func(func), grid(grid), layouts(layouts),
        blockThreads(kernel.getBlockThreads()), counters(counters),
        cache(cache), runTimeChecks(runTimeChecks), builder(func.getContext()) {
    kernel.walk([&](SyncOp sync) {
      syncIndex[sync] = static_cast<int64_t>(syncIndex.size());
    });
    kernel.walk([&](Operation *op) {
      if (isSharedBufferOwner(op))
        ownerIndex[op] = static_cast<int64_t>(ownerIndex.size());
    });
  }

  LogicalResult lower();

private:
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerSync(SyncOp sync, const Destination *target);
  /// A sync whose array stays in its threads' registers (or shuffles):
  /// the stage computes every round's elements and stores nothing, and a
  /// later stage's read of an element takes the reading thread's value of
  /// that element's round (or, for shuffles, the owner lane's, by one
  /// shfl.sync per round), beside a check the simulation evaluates.
  LogicalResult lowerSyncKeptByThreads(SyncOp sync);
  LogicalResult lowerRepeat(RepeatOp repeat);
  /// The stored array an in-place sync overwrites: the one array in memory
  /// its stage reads, when there is one of the sync's type.
  Value inPlaceTarget(SyncOp sync);

  /// What a stage does with the leaf at `inner` of its element `element`:
  /// the flattened scalars of that leaf of each array it computes, in order.
  using LeafStore =
      function_ref<void(Value element, ValueRange inner, ValueRange leaf)>;
  /// Emits the stage that computes `array` under `how` (null: the block's
  /// threads sweep it) into `destination`.
  LogicalResult emitStage(Value array, WorkAssignmentAttrInterface how,
                          const Destination &destination,
                          const ElementSet *written = nullptr,
                          bool inPlace = false);
  /// The same for the arrays `arrays`, all of one shape, computed together
  /// element by element and handed to `store`.
  /// With `kept`, nothing is stored (`store` is not called): every round,
  /// unrolled (at most SyncOp::kMostRegisterRounds, of scalar or tuple
  /// elements), is
  /// computed into values, one leaf of scalars per round in `kept`
  /// (poison in a round where the thread has no element).
  LogicalResult emitStage(ArrayRef<Value> arrays,
                          WorkAssignmentAttrInterface how, LeafStore store,
                          const ElementSet *written = nullptr,
                          bool inPlace = false,
                          SmallVectorImpl<SmallVector<Value>> *kept = nullptr);
  /// A scatter's stages: the initial value over its buffer, then the
  /// values written (or merged) at their places, each ending in a block
  /// barrier; a global scatter's one stage writes (or merges) them into
  /// the launch's memref, and needs no barrier (the kernel never reads it).
  LogicalResult lowerScatter(ScatterOp scatter);
  /// Writes `value` at `place` of `buffer` when `isInside`: merged
  /// atomically, or stored, first counting the place's writes in `writes`
  /// (when set) and reporting a second through `report`.
  void emitScatterWrite(ScatterOp scatter, Value buffer, Value writes,
                        func::FuncOp report, Value value, Value place,
                        Value isInside);
  /// The elements of an in-place sync's array that differ from what the
  /// array it overwrites holds at the same place.
  llvm::BitVector changedElements(SyncOp sync, Value overwritten);
  Operation *emitBarrier(SyncScope scope, SyncOp sync);
  /// A workgroup buffer for an array of `type`, owned by `owner`.
  /// Fails, with an error at `owner`, when a shared-memory plan gives its
  /// buffer no place in the arena.
  FailureOr<Destination> allocateShared(ArrType type, Operation *owner);
  Destination globalDestination(ValueRange components, ArrType type,
                                AffineMap layout, ValueRange lengths = {},
                                ArrayRef<TypedAttr> absent = {});
  /// The present elements of the kernel's argument `index` in this block.
  Value emitExtent(OpBuilder &b, Location loc, unsigned index);
  /// Stores `leaf` at `target` of `destination`, leaving out components
  /// whose place is absent.
  void storeGlobal(const Destination &destination, ValueRange leaf,
                   ValueRange target);
  LeafReader readerFor(const Destination &destination);
  Value threadId() {
    return gpu::ThreadIdOp::create(builder, loc(), gpu::Dimension::x);
  }
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc(), value);
  }
  /// The location of what is being lowered: the current stage's sync.
  Location loc() { return currentLoc ? *currentLoc : kernel.getLoc(); }

  KernelOp kernel;
  gpu::GPUFuncOp func;
  int64_t grid;
  /// One per kernel array (arguments, then results), or none for chunks.
  ArrayRef<AffineMap> layouts;
  uint64_t blockThreads;
  /// chooseShuffle's evaluations of owners, thread by thread.
  ThreadValuesCache ownersByStructure;
  const GPULoweringCounters &counters;
  ChangedElementsCache *cache;
  /// Whether the code checks, as it runs, what the proof leaves to run time
  /// (the cpu target's code): that a scatter without a combine writes no
  /// place twice, and that obs.index reads inside its array.
  bool runTimeChecks;
  /// The runner's report of a place an obs.index reads outside its array,
  /// with runTimeChecks.
  func::FuncOp indexReport;
  OpBuilder builder;
  std::optional<Location> currentLoc;
  /// The element the stage being emitted computes, its work assignment
  /// and round: a read of exactly that element of an array in shuffles
  /// under the same work assignment is the reading thread's own, taken
  /// from its registers without a shuffle.
  struct ElementInProgress {
    Value element;
    WorkAssignmentAttrInterface how;
    Value round;
  };
  std::optional<ElementInProgress> inProgress;
  llvm::DenseMap<Operation *, int64_t> syncIndex;
  /// Syncs, repeats and scatters, which own buffers, in program order.
  llvm::DenseMap<Operation *, int64_t> ownerIndex;
  /// The shared-memory arena of a planned kernel, and how many of each
  /// owner's planned offsets are taken.
  Value arena;
  llvm::DenseMap<Operation *, unsigned> nextOffset;
  /// Arrays that live in memory (or registers), and how to read them.
  llvm::DenseMap<Value, LeafReader> sources;
  /// The arrays in shuffles: every element reads them together.
  SmallVector<Value> shuffledArrays;
  /// The kernel's arguments whose readers take any place: obs.global ones
  /// at run-time sizes, whose places past the memref read as absent.
  SmallVector<Value> readsAnyPlace;
  /// Where each array stored by a stage lives (for in-place syncs).
  llvm::DenseMap<Value, Destination> stored;
  /// Syncs whose result is only returned: they write global memory.
  llvm::DenseMap<Operation *, SmallVector<unsigned>> outputSyncs;
  SmallVector<Destination> outputs;
  /// The write counts of checked global scatters, by kernel result.
  llvm::DenseMap<unsigned, Value> globalWriteCounts;
  /// Each argument's global storage.
  SmallVector<Destination> arguments;
};

} // namespace

FailureOr<Destination> KernelLowering::allocateShared(ArrType type,
                                                      Operation *owner) {
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      func.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  Destination destination;
  // With a shared-memory plan (--obs-plan-shared), buffers are views at
  // planned offsets of one arena.
  MLIRContext *context = func.getContext();
  if (IntegerAttr arenaBytes =
          ObsDialect::SharedBytesAttrHelper(context).getAttr(kernel)) {
    if (!arena) {
      auto type = MemRefType::get({arenaBytes.getInt()}, builder.getI8Type(),
                                  MemRefLayoutAttrInterface(), workgroup);
      arena = func.addWorkgroupAttribution(type, kernel.getLoc());
      unsigned index = func.getNumWorkgroupAttributions() - 1;
      func.setWorkgroupAttributionAttr(
          index, ObsDialect::ArenaAttrHelper(context).getName(),
          builder.getUnitAttr());
      // Views of any element type start at planned offsets, which are
      // multiples of 16: so is the arena.
      func.setWorkgroupAttributionAttr(index, "llvm.align",
                                       builder.getI64IntegerAttr(16));
      counters.sharedBytes(arenaBytes.getInt());
    }
    DenseI64ArrayAttr offsets =
        ObsDialect::SharedOffsetsAttrHelper(context).getAttr(owner);
    OpBuilder entryBuilder = OpBuilder::atBlockBegin(&func.getBody().front());
    unsigned &next = nextOffset[owner];
    for (MemRefType memref : getStorageTypes(type, workgroup)) {
      // A plan made for other buffers than the lowering allocates (a pass
      // changed the kernel after obs-plan-shared) is not guessed at.
      if (!offsets || next >= offsets.size() ||
          offsets[next] + static_cast<int64_t>(getTotalBytes(memref)) >
              arenaBytes.getInt())
        return tagError(owner->emitOpError()
                            << "has no place for its buffer in the "
                               "shared-memory plan ("
                            << ObsDialect::SharedOffsetsAttrHelper::getNameStr()
                            << " within the kernel's " << arenaBytes.getInt()
                            << "-byte arena): the plan is stale; run "
                               "obs-plan-shared again",
                        ErrorKind::RejectedChoice);
      int64_t offset = offsets[next];
      ++next;
      Value shift =
          arith::ConstantIndexOp::create(entryBuilder, owner->getLoc(), offset);
      auto view = memref::ViewOp::create(entryBuilder, owner->getLoc(), memref,
                                         arena, shift, ValueRange());
      ObsDialect::OwnerAttrHelper(context).setAttr(view, owner->getLoc());
      destination.components.push_back(view);
    }
    return destination;
  }
  for (MemRefType memref : getStorageTypes(type, workgroup)) {
    destination.components.push_back(
        func.addWorkgroupAttribution(memref, owner->getLoc()));
    unsigned index = func.getNumWorkgroupAttributions() - 1;
    func.setWorkgroupAttributionAttr(
        index, ObsDialect::OwnerAttrHelper(context).getName(), owner->getLoc());
    func.setWorkgroupAttributionAttr(
        index, ObsDialect::OwnerIndexAttrHelper(context).getName(),
        builder.getI64IntegerAttr(ownerIndex.lookup(owner)));
    counters.sharedBytes(getTotalBytes(memref));
  }
  return destination;
}

Destination KernelLowering::globalDestination(ValueRange components,
                                              ArrType type, AffineMap layout,
                                              ValueRange lengths,
                                              ArrayRef<TypedAttr> absent) {
  Destination destination;
  destination.components.assign(components.begin(), components.end());
  destination.lengths.assign(lengths.begin(), lengths.end());
  destination.absent.assign(absent.begin(), absent.end());
  if (layout) {
    destination.layout = layout;
  } else if (grid != 1) {
    MLIRContext *context = builder.getContext();
    destination.layout = AffineMap::get(
        2, 0,
        getAffineDimExpr(0, context) * static_cast<int64_t>(type.getLength()) +
            getAffineDimExpr(1, context));
  }
  return destination;
}

/// The index along the outermost dimension where `layout` places `element`
/// of this block's array.
static Value placeOf(OpBuilder &b, Location loc, AffineMap layout,
                     Value element) {
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  return affine::expandAffineExpr(b, loc, layout.getResult(0), {block, element},
                                  {});
}

LeafReader KernelLowering::readerFor(const Destination &destination) {
  AffineMap layout = destination.layout;
  // A place past the end of its memref (at run-time sizes) is absent: not
  // read, but the argument's absent value.
  LeafReader read =
      destination.lengths.empty()
          ? makeStorageReader(destination.components)
          : makePresentStorageReader(destination.components,
                                     destination.lengths, destination.absent);
  if (!layout)
    return read;
  return [read, layout](OpBuilder &b, Location loc, ValueRange path) {
    SmallVector<Value> placed(path);
    placed[0] = placeOf(b, loc, layout, path[0]);
    return read(b, loc, placed);
  };
}

void KernelLowering::storeGlobal(const Destination &destination,
                                 ValueRange leaf, ValueRange target) {
  if (destination.lengths.empty())
    return storeLeaf(builder, loc(), destination.components, leaf, target);
  for (auto [memref, length, scalar] :
       llvm::zip_equal(destination.components, destination.lengths, leaf)) {
    Value present = arith::CmpIOp::create(
        builder, loc(), arith::CmpIPredicate::ult, target[0], length);
    auto ifPresent = scf::IfOp::create(builder, loc(), present,
                                       /*withElseRegion=*/false);
    OpBuilder then = ifPresent.getThenBodyBuilder();
    memref::StoreOp::create(then, loc(), scalar, memref, target);
  }
}

Value KernelLowering::emitExtent(OpBuilder &b, Location loc, unsigned index) {
  // The block's index as the code uses it: the proofs take it to be any
  // block (obs.data), since one plan serves them all.
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  ObsDialect::DataAttrHelper(b.getContext())
      .setAttr(block.getDefiningOp(), b.getUnitAttr());
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  const Destination &argument = arguments[index];
  int64_t length = arrType(kernel.getArgument(index)).getLength();
  // The places before the end of all its memrefs: its own chunk's end for
  // a grid of static sizes (laid out or not, each block's array is whole
  // there; `(start + N) - start` folds to N), the lengths given at run time
  // otherwise.
  // An `obs.global` argument starts at place 0 in every block.
  Value start =
      isGlobalArgument(kernel, index)
          ? constant(0)
          : arith::MulIOp::create(b, loc, block, constant(length)).getResult();
  Value end;
  if (argument.lengths.empty()) {
    end = arith::AddIOp::create(b, loc, start, constant(length));
  } else {
    for (Value memrefLength : argument.lengths)
      end = end ? arith::MinSIOp::create(b, loc, end, memrefLength).getResult()
                : memrefLength;
  }
  Value left = arith::SubIOp::create(b, loc, end, start);
  left = arith::MaxSIOp::create(b, loc, left, constant(0));
  return arith::MinSIOp::create(b, loc, left, constant(length));
}

/// The mask of the threads of the reading thread's warp, for bar.warp.sync
/// and shfl.sync: all 32, or the threads that exist in a last, partial warp.
static Value emitWarpMask(OpBuilder &b, Location loc, uint64_t blockThreads) {
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
        !op->getResult(0).getType().isIntOrIndex())
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
      if (!operandType.isIntOrIndex())
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

Operation *KernelLowering::emitBarrier(SyncScope scope, SyncOp sync) {
  auto index = builder.getI64IntegerAttr(sync ? syncIndex.lookup(sync) : -1);
  if (scope == SyncScope::Block) {
    auto barrier = gpu::BarrierOp::create(builder, loc());
    ObsDialect::SyncIndexAttrHelper(barrier->getContext())
        .setAttr(barrier, index);
    counters.blockBarrier();
    return barrier;
  }
  // bar.warp.sync's mask names exactly the warp's threads.
  auto barrier = NVVM::SyncWarpOp::create(
      builder, loc(), emitWarpMask(builder, loc(), blockThreads));
  ObsDialect::SyncIndexAttrHelper(barrier->getContext())
      .setAttr(barrier, index);
  counters.warpBarrier();
  return barrier;
}

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

LogicalResult
KernelLowering::emitStage(ArrayRef<Value> arrays,
                          WorkAssignmentAttrInterface how, LeafStore store,
                          const ElementSet *written, bool inPlace,
                          SmallVectorImpl<SmallVector<Value>> *kept) {
  counters.stage();
  Value array = arrays.front();
  ArrType type = arrType(array);
  uint64_t length = type.getLength();
  if (!how)
    how = StridedAttr::get(builder.getContext(), blockThreads);
  // compact deals out only the written elements; the others give each
  // element to its thread and skip the ones an in-place stage leaves alone.
  bool compact = isa<CompactAttr>(how);
  uint64_t positions = compact && written ? written->size() : length;
  uint64_t rounds = how.getRoundCount(positions);
  SmallVector<uint64_t> shape = type.getShape();
  bool failed = false;
  // Array reads the stage's code inlines so far, over its rounds.
  uint64_t fusedReads = 0;
  // Whether a failure other than the read limit's was reported.
  bool reportedError = false;
  bool skipsIdentity = !compact && written && !written->isAll();
  // What a round known when lowering writes, where identity writes are
  // skipped: nothing (the round is not emitted), everything (no thread
  // asks the set), or some of it.
  enum class RoundWrites { Nothing, Everything, Some };
  auto roundWrites = [&](uint64_t round) {
    if (!skipsIdentity)
      return RoundWrites::Everything;
    bool any = false, all = true;
    for (uint64_t thread = 0; thread < blockThreads; ++thread)
      if (std::optional<uint64_t> element =
              how.getElement(thread, round, positions)) {
        bool changes = written->contains(*element);
        any |= changes;
        all &= changes;
      }
    return !any  ? RoundWrites::Nothing
           : all ? RoundWrites::Everything
                 : RoundWrites::Some;
  };
  // Whether the round being emitted asks the set of written elements.
  bool asksWritten = skipsIdentity;
  // Whether thread `thread` works on `position` in a round; the pipelines
  // fold this where the thread id's range decides it. Where arrays in
  // shuffles may be read, a round in which every thread of the block works
  // is `true` here already: its shuffles are then under no branch, which
  // the proof requires (and the cpu target's exchange, at the top level of
  // a warp's steps).
  auto worksOn = [&](Value thread, Value position, Value round) -> Value {
    // Under strided and blocked assignments a thread works in a round only
    // if every thread before it does: the block's last thread decides.
    APInt constantRound;
    if (!shuffledArrays.empty() && !compact &&
        matchPattern(round, m_ConstantInt(&constantRound)) &&
        how.getElement(blockThreads - 1, constantRound.getZExtValue(),
                       positions))
      return arith::ConstantIntOp::create(builder, loc(), 1, 1);
    Value works =
        arith::CmpIOp::create(builder, loc(), arith::CmpIPredicate::ult,
                              position, constant(positions));
    uint64_t threadsUsed = how.getThreadCount(positions);
    if (!isa<BlockedAttr>(how))
      threadsUsed = isa<StridedAttr>(how) ? cast<StridedAttr>(how).getThreads()
                                          : cast<CompactAttr>(how).getThreads();
    if (threadsUsed < blockThreads)
      works = arith::AndIOp::create(
          builder, loc(), works,
          arith::CmpIOp::create(builder, loc(), arith::CmpIPredicate::ult,
                                thread, constant(threadsUsed)));
    return works;
  };
  // The flattened scalars of the leaf at `inner` of the element `element`,
  // which the thread computes in round `round`.
  auto emitLeafOf = [&](Value element, ValueRange inner, Value round) {
    std::optional<ElementInProgress> outer = inProgress;
    inProgress = ElementInProgress{element, how, round};
    llvm::scope_exit restore([&] { inProgress = outer; });
    ElementEmitter emitter(builder, loc());
    emitter.setReadLimit(kMaxFusedReads - std::min(fusedReads, kMaxFusedReads));
    for (const auto &[value, reader] : sources)
      emitter.setSource(value, reader);
    for (Value shuffled : shuffledArrays)
      emitter.setReadEverywhere(shuffled);
    for (Value guarded : readsAnyPlace)
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
              APInt::getZero(width), APInt(width, blockThreads - 1));
        });
    emitter.setBlockPosition(
        kernel,
        [](OpBuilder &b, Location loc) -> Value {
          auto block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
          ObsDialect::DataAttrHelper(b.getContext())
              .setAttr(block, b.getUnitAttr());
          return block;
        },
        [this](OpBuilder &b, Location loc, unsigned index) {
          return emitExtent(b, loc, index);
        });
    if (indexReport)
      emitter.setIndexReport([this](OpBuilder &b, Location loc, Value inside,
                                    Value index, uint64_t length) {
        emitIndexOutsideReport(
            b, loc, indexReport, inside,
            gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), index, length);
      });
    SmallVector<Value> path{element};
    path.append(inner.begin(), inner.end());
    SmallVector<Value> leaf;
    for (Value computed : arrays)
      llvm::append_range(leaf, emitter.emitLeaf(computed, path));
    fusedReads += emitter.getFusedReads();
    failed |= emitter.failed();
    reportedError |= emitter.reportedError();
    return leaf;
  };
  auto emitRound = [&](Value round) {
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
                         store(element, inner,
                               emitLeafOf(element, inner, round));
                       });
  };
  // An in-place stage overwrites what it reads, so a thread computes the
  // elements of all its rounds before it stores any: one that owns both
  // elements of a pair (a compare-and-swap under blocked<2>) must not read
  // back, for the second, what it stored for the first. Unrolled rounds of
  // scalar or tuple elements only; elsewhere each round stores as it goes,
  // and a thread that reads its own stores is an error of the proof.
  bool computeThenStore = kept || (inPlace && shape.size() == 1 && rounds > 1 &&
                                   rounds <= kUnrolledRounds);
  struct Computed {
    Value store, element;
    SmallVector<Value> leaf;
  };
  SmallVector<Computed> computed;
  auto computeRound = [&](Value round) {
    Value thread = threadId();
    Value position = how.buildElementIndex(builder, loc(), thread, round);
    Value works = worksOn(thread, position, round);
    Value store = works;
    if (asksWritten) {
      // Whether the element changes, asked only where the thread works (a
      // table of changed elements has no entry past the array).
      auto changes = scf::IfOp::create(builder, loc(), builder.getI1Type(),
                                       works, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(changes.thenBlock());
      scf::YieldOp::create(builder, loc(),
                           written->emitContains(builder, loc(), position));
      builder.setInsertionPointToStart(changes.elseBlock());
      scf::YieldOp::create(
          builder, loc(),
          arith::ConstantIntOp::create(builder, loc(), 0, 1).getResult());
      store = changes.getResult(0);
    }
    SmallVector<Type> types;
    for (Value computed : arrays)
      flattenElementType(arrType(computed).getLeafType(), types);
    types.push_back(builder.getIndexType());
    auto ifOp = scf::IfOp::create(builder, loc(), types, store,
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
    Computed result{store, ifOp.getResults().back(), {}};
    llvm::append_range(result.leaf, ifOp.getResults().drop_back());
    computed.push_back(std::move(result));
  };
  auto storeRounds = [&] {
    for (const Computed &round : computed) {
      auto ifOp = scf::IfOp::create(builder, loc(), round.store,
                                    /*withElse=*/false);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(ifOp.thenBlock());
      store(round.element, {}, round.leaf);
    }
  };
  auto emitLoop = [&] {
    auto loop = scf::ForOp::create(builder, loc(), constant(0),
                                   constant(rounds), constant(1));
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    emitRound(loop.getInductionVar());
  };
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
    Block *block = builder.getInsertionBlock();
    Block::iterator start = builder.getInsertionPoint();
    Operation *before = start == block->begin() ? nullptr : &*std::prev(start);
    // A round in which no thread changes an element of an in-place stage
    // is not emitted at all, and one in which every working thread does
    // needs no test: neither is left for LLVM to find.
    for (uint64_t round = 0; round < rounds && !failed; ++round) {
      RoundWrites writes = roundWrites(round);
      if (writes == RoundWrites::Nothing)
        continue;
      asksWritten = writes == RoundWrites::Some;
      if (computeThenStore)
        computeRound(constant(round));
      else
        emitRound(constant(round));
    }
    asksWritten = skipsIdentity;
    if (computeThenStore && !failed)
      storeRounds();
    if (rounds > 1 && fusedReads > kMaxFusedReads && !reportedError) {
      Block::iterator end = builder.getInsertionPoint();
      Block::iterator first =
          before ? std::next(before->getIterator()) : block->begin();
      SmallVector<Operation *> emitted;
      for (Block::iterator it = first; it != end; ++it)
        emitted.push_back(&*it);
      for (Operation *op : llvm::reverse(emitted))
        op->erase();
      failed = false;
      fusedReads = 0;
      emitLoop();
    }
  }
  if (fusedReads > kMaxFusedReads && !reportedError)
    return tagError(
        emitError(array.getLoc())
            << "the code that computes this array inlines more than the "
               "limit of "
            << kMaxFusedReads
            << " reads of the arrays it is computed from (each step since "
               "the last sync multiplies them); an obs.sync between the "
               "steps materializes an array and ends the chain",
        ErrorKind::CompilerLimit);
  return failure(failed);
}

llvm::BitVector KernelLowering::changedElements(SyncOp sync,
                                                Value overwritten) {
  SmallVector<Value> inMemory;
  for (const auto &entry : sources)
    inMemory.push_back(entry.first);
  if (!cache)
    return findChangedElements(sync, overwritten, inMemory);
  // The overwritten array: a buffer owner's result or a block argument.
  int64_t source = -1;
  if (Operation *producer = overwritten.getDefiningOp())
    source = ownerIndex.lookup(producer);
  else
    source = -2 - static_cast<int64_t>(
                      cast<BlockArgument>(overwritten).getArgNumber());
  auto key = std::make_pair(syncIndex.lookup(sync), source);
  if (const llvm::BitVector *known = cache->lookup(key))
    return *known;
  llvm::BitVector changed = findChangedElements(sync, overwritten, inMemory);
  cache->insert(key, changed);
  return changed;
}

/// Whether `array` is read by `stage` alone: its uses (and those of the
/// arrays computed from it), reach no other sync, no return and no
/// repeat's next iteration. Only then may `stage` overwrite it.
static bool onlyReadBy(Value array, SyncOp stage) {
  llvm::DenseSet<Value> visited;
  SmallVector<Value> worklist{array};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      // The op at program level that the use belongs to.
      while (user->getParentOp() &&
             !isa<KernelOp, RepeatOp>(user->getParentOp()))
        user = user->getParentOp();
      if (user == stage.getOperation())
        continue;
      if (isa<SyncOp, ReturnOp, YieldOp>(user) || !user->getParentOp())
        return false;
      llvm::append_range(worklist, user->getResults());
    }
  }
  return true;
}

/// The array that `sync`, in place in `body` (a repeat's), overwrites as
/// far as the code shows: the one array its stage reads, when nothing else
/// reads it. Null otherwise.
static Value overwrittenInBody(SyncOp sync, Block &body) {
  if (sync.getPlacementOrDefault() != Placement::InPlace)
    return {};
  Value array = body.getArgument(0);
  // Any array a sync or repeat stores is where the stage's reads stop.
  llvm::SetVector<Value> read =
      findStageSources(sync.getInput(), [&](Value value) {
        return value == array ||
               isa_and_present<SyncOp, RepeatOp>(value.getDefiningOp());
      });
  if (read.size() != 1 || read.front().getType() != sync.getType() ||
      !onlyReadBy(read.front(), sync))
    return {};
  return read.front();
}

/// Where the array `sync`, yielded by `body` (a repeat's) and in place,
/// ends up, followed through the in-place syncs before it: the repeat's
/// own array (the iteration's buffer, which the next iteration then reads
/// again: one buffer), or the array of a sync in `body` stored fresh
/// (which is then stored in the buffer the next iteration reads instead).
/// Null otherwise: the yielded array must go to that buffer, and its stage
/// cannot both read and overwrite another.
static Value yieldedInPlaceTarget(SyncOp sync, Block &body) {
  Value overwritten = overwrittenInBody(sync, body);
  while (overwritten && overwritten != body.getArgument(0)) {
    auto stored = overwritten.getDefiningOp<SyncOp>();
    if (!stored || stored->getBlock() != &body || stored.isKeptByThreads())
      return {};
    if (stored.getPlacementOrDefault() != Placement::InPlace)
      return overwritten;
    overwritten = overwrittenInBody(stored, body);
  }
  return overwritten;
}

Value KernelLowering::inPlaceTarget(SyncOp sync) {
  if (sync.getPlacementOrDefault() != Placement::InPlace)
    return {};
  // The stored arrays the stage reads: its computation's sources.
  llvm::SetVector<Value> read = findStageSources(
      sync.getInput(), [&](Value value) { return stored.count(value) != 0; });
  if (read.size() != 1 || read.front().getType() != sync.getType() ||
      !onlyReadBy(read.front(), sync))
    return {};
  return read.front();
}

LogicalResult KernelLowering::lowerSync(SyncOp sync,
                                        const Destination *target) {
  std::optional<Location> outerLoc = currentLoc;
  currentLoc = sync.getLoc();
  llvm::scope_exit restore([&] { currentLoc = outerLoc; });
  if (sync.isKeptByThreads())
    return lowerSyncKeptByThreads(sync);
  auto outputIt = outputSyncs.find(sync);
  if (outputIt != outputSyncs.end()) {
    // Only returned: the stage writes each output it is returned as.
    for (unsigned index : outputIt->second)
      if (failed(emitStage(sync.getInput(), sync.getWorkAssignment(),
                           outputs[index])))
        return failure();
    return success();
  }
  Destination destination;
  std::optional<ElementSet> written;
  bool inPlace = false;
  if (target) {
    destination = *target;
  } else if (Value overwritten = inPlaceTarget(sync)) {
    destination = stored.lookup(overwritten);
    inPlace = true;
    // In place, identity writes are dropped.
    llvm::BitVector changed = changedElements(sync, overwritten);
    counters.identityWrites(changed.size() - changed.count());
    written.emplace(std::move(changed),
                    func->getParentOfType<gpu::GPUModuleOp>());
  } else {
    FailureOr<Destination> allocated = allocateShared(sync.getType(), sync);
    if (failed(allocated))
      return failure();
    destination = *allocated;
  }
  if (!written && isa_and_present<CompactAttr>(sync.getHowAttr()))
    written.emplace(llvm::BitVector(sync.getType().getLength(), true),
                    func->getParentOfType<gpu::GPUModuleOp>());
  if (failed(emitStage(sync.getInput(), sync.getWorkAssignment(), destination,
                       written ? &*written : nullptr, inPlace)))
    return failure();
  Operation *barrier = emitBarrier(sync.getScopeOrDefault(), sync);
  if (inPlace)
    ObsDialect::InPlaceAttrHelper(barrier->getContext())
        .setAttr(barrier, builder.getUnitAttr());
  sources[sync.getResult()] = readerFor(destination);
  stored[sync.getResult()] = destination;
  return success();
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
  WorkAssignmentAttrInterface how = sync.getWorkAssignment();
  if (!how)
    how = StridedAttr::get(builder.getContext(), blockThreads);
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
  if (shuffles)
    shuffledArrays.push_back(sync.getResult());
  sources[sync.getResult()] =
      [this, shuffles, how, index, values = std::move(rounds)](
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
    // The value of `round` among each round's.
    auto ofRound = [&](ArrayRef<SmallVector<Value>> byRound) {
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

LogicalResult KernelLowering::lowerRepeat(RepeatOp repeat) {
  ArrType type = arrType(repeat.getInput());
  Block &body = repeat.getBody().front();
  Value yielded = body.getTerminator()->getOperand(0);

  // The first buffer starts as the input: the input's own buffer when
  // nothing else reads it, a copy otherwise.
  std::optional<Location> outerLoc = currentLoc;
  currentLoc = repeat.getLoc();
  llvm::scope_exit restore([&] { currentLoc = outerLoc; });
  Value input = repeat.getInput();
  Destination first;
  if (stored.count(input) && input.hasOneUse() &&
      !outputSyncs.count(input.getDefiningOp())) {
    first = stored.lookup(input);
  } else {
    FailureOr<Destination> allocated = allocateShared(type, repeat);
    if (failed(allocated))
      return failure();
    first = *allocated;
    if (failed(emitStage(input, {}, first)))
      return failure();
    emitBarrier(SyncScope::Block, {});
  }
  // The sync that makes the yielded array writes it into the next buffer.
  // In place (syncIP ending repE's body), it overwrites what its stage
  // reads: the repeat's own array, so that one buffer serves every
  // iteration, or a sync's array in the body, which that sync then writes
  // into the next buffer instead.
  auto yieldingSync = yielded.getDefiningOp<SyncOp>();
  if (yieldingSync && yieldingSync->getBlock() != &body)
    yieldingSync = nullptr;
  Value overwritten =
      yieldingSync ? yieldedInPlaceTarget(yieldingSync, body) : Value();
  bool oneBuffer = overwritten && overwritten == body.getArgument(0);
  Operation *intoNext = oneBuffer || !overwritten ? yieldingSync.getOperation()
                                                  : overwritten.getDefiningOp();
  Destination second = first;
  if (!oneBuffer) {
    FailureOr<Destination> allocatedSecond = allocateShared(type, repeat);
    if (failed(allocatedSecond))
      return failure();
    second = *allocatedSecond;
  }

  auto loop = scf::ForOp::create(builder, loc(), constant(0),
                                 constant(repeat.getCount()), constant(1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  // Even iterations read the first buffer and write the second; odd ones
  // the other way round.
  Destination current = first, next = second;
  if (!oneBuffer) {
    Value parity = arith::RemUIOp::create(builder, loc(),
                                          loop.getInductionVar(), constant(2));
    Value even = arith::CmpIOp::create(builder, loc(), arith::CmpIPredicate::eq,
                                       parity, constant(0));
    current.components.clear();
    next.components.clear();
    for (auto [a, b] : llvm::zip_equal(first.components, second.components)) {
      current.components.push_back(
          arith::SelectOp::create(builder, loc(), even, a, b));
      next.components.push_back(
          arith::SelectOp::create(builder, loc(), even, b, a));
    }
  }
  sources[body.getArgument(0)] = readerFor(current);
  stored[body.getArgument(0)] = current;

  for (Operation &op : body.without_terminator()) {
    if (auto sync = dyn_cast<SyncOp>(op)) {
      bool toNext = sync == intoNext && !oneBuffer;
      if (failed(lowerSync(sync, toNext ? &next : nullptr)))
        return failure();
      continue;
    }
    if (auto nested = dyn_cast<RepeatOp>(op); nested && holdsSync(nested)) {
      if (failed(lowerRepeat(nested)))
        return failure();
      continue;
    }
    if (isa<TwoOp, IlvOp, OneOp>(op) && holdsSync(&op))
      return op.emitOpError() << "holds syncs: run --obs-flatten first";
  }
  if (!yieldingSync) {
    if (failed(emitStage(yielded, {}, next)))
      return failure();
    emitBarrier(SyncScope::Block, {});
  } else if (overwritten &&
             stored.lookup(yielded).components != next.components) {
    // An in-place sync on the way did not take (the proof's verifier says
    // which): the array is not where the next iteration reads.
    return tagError(yieldingSync.emitOpError()
                        << "in place cannot apply: the syncs in place before "
                           "it do not all overwrite what their stages read, "
                           "so its array is not in the buffer the next "
                           "iteration reads",
                    ErrorKind::RejectedChoice);
  }
  const Destination &result = repeat.getCount() % 2 == 0 ? first : second;
  sources[repeat.getResult()] = readerFor(result);
  stored[repeat.getResult()] = result;
  return success();
}

LogicalResult KernelLowering::lowerScatter(ScatterOp scatter) {
  std::optional<Location> outerLoc = currentLoc;
  currentLoc = scatter.getLoc();
  llvm::scope_exit restore([&] { currentLoc = outerLoc; });
  ArrType type = scatter.getType();
  bool global = scatter.getGlobal();
  // Where the values go: the launch's memref for a global scatter (up to
  // its length, where that is known only at run time), or a shared buffer.
  Destination destination;
  unsigned result = 0;
  if (global) {
    result = scatter.getResult().use_begin()->getOperandNumber();
    destination = outputs[result];
  } else {
    FailureOr<Destination> allocated = allocateShared(type, scatter);
    if (failed(allocated))
      return failure();
    destination = *allocated;
  }
  Value buffer = destination.components.front();
  Value length =
      destination.lengths.empty() ? Value() : destination.lengths.front();
  // Without a combine, the cpu target's code counts the writes of each
  // place, and reports the second: a global scatter's counts are the
  // launch's, a shared one's a buffer of the block's own (outside any
  // shared-memory plan: the proofs never see it).
  Value writes;
  func::FuncOp report;
  if (runTimeChecks && !scatter.getCombine()) {
    FailureOr<func::FuncOp> declared = getScatterCollisionReport(func);
    if (failed(declared))
      return failure();
    report = *declared;
    if (global) {
      writes = globalWriteCounts.lookup(result);
    } else {
      auto workgroup = gpu::AddressSpaceAttr::get(
          func.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
      writes = func.addWorkgroupAttribution(
          MemRefType::get({static_cast<int64_t>(type.getLength())},
                          builder.getI32Type(), MemRefLayoutAttrInterface(),
                          workgroup),
          scatter.getLoc());
      func.setWorkgroupAttributionAttr(
          func.getNumWorkgroupAttributions() - 1,
          ObsDialect::CheckedScatterAttrHelper(func.getContext()).getName(),
          builder.getUnitAttr());
    }
  }

  // A shared buffer starts as the initial value (and no writes), the
  // block's threads sweeping it; a global memref keeps what it holds.
  if (!global) {
    counters.stage();
    Value initial =
        arith::ConstantOp::create(builder, loc(), scatter.getInitialAttr());
    Value zero =
        writes ? arith::ConstantIntOp::create(builder, loc(), 0, 32) : Value();
    uint64_t rounds = llvm::divideCeil(type.getLength(), blockThreads);
    auto sweep = scf::ForOp::create(builder, loc(), constant(0),
                                    constant(rounds), constant(1));
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(sweep.getBody()->getTerminator());
      Value place = arith::AddIOp::create(
          builder, loc(), threadId(),
          arith::MulIOp::create(builder, loc(), sweep.getInductionVar(),
                                constant(blockThreads)));
      auto inside = scf::IfOp::create(
          builder, loc(),
          arith::CmpIOp::create(builder, loc(), arith::CmpIPredicate::ult,
                                place, constant(type.getLength())),
          /*withElseRegion=*/false);
      builder.setInsertionPointToStart(inside.thenBlock());
      memref::StoreOp::create(builder, loc(), initial, buffer, place);
      if (writes)
        memref::StoreOp::create(builder, loc(), zero, writes, place);
    }
    emitBarrier(SyncScope::Block, {});
  }

  // Each value at its place: merged atomically, or stored.
  auto writeAt = [&](Value, ValueRange, ValueRange leaf) {
    auto [place, isInside] =
        length ? scatter.buildPlace(builder, loc(), leaf[1], length)
               : scatter.buildPlace(builder, loc(), leaf[1]);
    emitScatterWrite(scatter, buffer, writes, report, leaf[0], place, isInside);
  };
  if (failed(
          emitStage({scatter.getValues(), scatter.getPlaces()}, {}, writeAt)))
    return failure();
  // The kernel never reads a global scatter's memref; it reads a shared
  // one's buffer after a barrier.
  if (global)
    return success();
  emitBarrier(SyncScope::Block, {});
  sources[scatter.getResult()] = readerFor(destination);
  stored[scatter.getResult()] = destination;
  return success();
}

void KernelLowering::emitScatterWrite(ScatterOp scatter, Value buffer,
                                      Value writes, func::FuncOp report,
                                      Value value, Value place,
                                      Value isInside) {
  auto inside =
      scf::IfOp::create(builder, loc(), isInside, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(inside.thenBlock());
  if (scatter.getCombine()) {
    memref::AtomicRMWOp::create(builder, loc(), scatter.getAtomicKind(), value,
                                buffer, place);
    return;
  }
  if (writes) {
    Value one = arith::ConstantIntOp::create(builder, loc(), 1, 32);
    Value before = memref::AtomicRMWOp::create(
        builder, loc(), arith::AtomicRMWKind::addi, one, writes, place);
    Value zero = arith::ConstantIntOp::create(builder, loc(), 0, 32);
    auto again = scf::IfOp::create(
        builder, loc(),
        arith::CmpIOp::create(builder, loc(), arith::CmpIPredicate::ne, before,
                              zero),
        /*withElseRegion=*/false);
    OpBuilder::InsertionGuard reportGuard(builder);
    builder.setInsertionPointToStart(again.thenBlock());
    emitScatterCollisionReport(
        builder, loc(), report,
        gpu::BlockIdOp::create(builder, loc(), gpu::Dimension::x), place);
  }
  auto store = memref::StoreOp::create(builder, loc(), value, buffer, place);
  ObsDialect::CheckedScatterAttrHelper(builder.getContext())
      .setAttr(store, builder.getUnitAttr());
}

LogicalResult KernelLowering::lowerBlock(Block &block) {
  for (Operation &op : block.without_terminator()) {
    if (auto sync = dyn_cast<SyncOp>(op)) {
      if (failed(lowerSync(sync, nullptr)))
        return failure();
      continue;
    }
    if (auto scatter = dyn_cast<ScatterOp>(op)) {
      if (failed(lowerScatter(scatter)))
        return failure();
      continue;
    }
    if (auto repeat = dyn_cast<RepeatOp>(op); repeat && holdsSync(repeat)) {
      if (failed(lowerRepeat(repeat)))
        return failure();
      continue;
    }
    if (isa<TwoOp, IlvOp, OneOp>(op) && holdsSync(&op))
      return op.emitOpError() << "holds syncs: run --obs-flatten first";
    // Everything else is an index function, emitted where it is needed.
  }
  return success();
}

bool mlir::obs::isLoweredBarrier(Operation *op) {
  return isa<gpu::BarrierOp, NVVM::SyncWarpOp>(op);
}

LogicalResult KernelLowering::lower() {
  Block &entry = func.getBody().front();
  builder.setInsertionPointToStart(&entry);
  bool readsByIndex =
      kernel.walk([](IndexOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (runTimeChecks && readsByIndex) {
    FailureOr<func::FuncOp> report = getIndexOutsideReport(func);
    if (failed(report))
      return failure();
    indexReport = *report;
  }

  // Arguments, then outputs, each as its components; for sizes known at
  // run time, the components' lengths follow them all.
  unsigned next = 0, arrayIndex = 0;
  auto layoutOf = [&]() {
    unsigned index = arrayIndex++;
    return layouts.empty() ? AffineMap() : layouts[index];
  };
  bool dynamic = ShapedType::isDynamic(grid);
  unsigned numMemrefs = getLaunchOperandArrays(kernel).size();
  auto lengthsOf = [&](unsigned first, unsigned width) -> ValueRange {
    if (!dynamic)
      return {};
    return entry.getArguments().slice(numMemrefs + first, width);
  };
  for (BlockArgument argument : kernel.getArguments()) {
    unsigned width = getFlattenedSize(arrType(argument).getLeafType());
    SmallVector<TypedAttr> absent;
    if (dynamic)
      absent = *getAbsentValues(kernel, argument.getArgNumber());
    // An `obs.global` argument is the launch's memref whole: place i is
    // element i in every block (and, at run-time sizes, absent past its
    // end, which only a layout's reader checks).
    AffineMap layout = layoutOf();
    if (isGlobalArgument(kernel, argument.getArgNumber()))
      layout = AffineMap::get(2, 0, builder.getAffineDimExpr(1));
    Destination global = globalDestination(
        entry.getArguments().slice(next, width), arrType(argument), layout,
        lengthsOf(next, width), absent);
    sources[argument] = readerFor(global);
    if (dynamic && isGlobalArgument(kernel, argument.getArgNumber()))
      readsAnyPlace.push_back(argument);
    arguments.push_back(global);
    next += width;
  }
  for (auto [index, result] : llvm::enumerate(kernel.getResultTypes())) {
    auto type = cast<ArrType>(result);
    unsigned width = getFlattenedSize(type.getLeafType());
    AffineMap layout = layoutOf();
    ValueRange components = entry.getArguments().slice(next, width);
    if (kernel.getGlobalScatter(index)) {
      // The launch's whole memref: place i is element i, in every block.
      Destination whole;
      whole.components.assign(components.begin(), components.end());
      llvm::append_range(whole.lengths, lengthsOf(next, width));
      outputs.push_back(whole);
    } else {
      outputs.push_back(
          globalDestination(components, type, layout, lengthsOf(next, width)));
    }
    next += width;
  }
  // The write counts of checked global scatters follow everything else.
  unsigned nextCount = numMemrefs * (dynamic ? 2 : 1);
  for (unsigned index : checkedGlobalResults(kernel, runTimeChecks))
    globalWriteCounts[index] = entry.getArgument(nextCount++);

  // Syncs whose result is only returned write global memory directly.
  auto ret = cast<ReturnOp>(kernel.getBody().front().getTerminator());
  for (auto [index, value] : llvm::enumerate(ret.getResults())) {
    auto sync = value.getDefiningOp<SyncOp>();
    if (sync && sync.isOutputOnly())
      outputSyncs[sync].push_back(index);
  }

  if (failed(lowerBlock(kernel.getBody().front())))
    return failure();
  for (auto [index, value] : llvm::enumerate(ret.getResults())) {
    auto sync = value.getDefiningOp<SyncOp>();
    if ((sync && outputSyncs.count(sync)) || kernel.getGlobalScatter(index))
      continue;
    if (failed(emitStage(value, {}, outputs[index])))
      return failure();
  }
  gpu::ReturnOp::create(builder, loc());
  return success();
}

FailureOr<gpu::GPUFuncOp> mlir::obs::lowerKernelToGPUFunc(
    KernelOp kernel, gpu::GPUModuleOp module, StringRef name, int64_t grid,
    const GPULoweringCounters &counters, ChangedElementsCache *cache,
    const KernelLayouts *layouts, bool runTimeChecks, bool runTimeOffsets) {
  uint64_t threads = kernel.getBlockThreads();
  if (threads > KernelOp::kMaxThreads)
    return tagError(kernel.emitOpError()
                        << "needs " << threads
                        << " threads, more than a block's "
                        << KernelOp::kMaxThreads
                        << ": set `threads` and give its syncs work "
                           "assignments",
                    ErrorKind::RejectedChoice);
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  SmallVector<Type> arguments;
  if (layouts) {
    arguments.assign(layouts->memrefTypes.begin(), layouts->memrefTypes.end());
  } else {
    // An `obs.global` argument, and a global scatter's result, are one
    // array for the whole grid.
    for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes()))
      llvm::append_range(arguments,
                         gridStorageTypes(cast<ArrType>(type),
                                          isGlobalArgument(kernel, index) &&
                                                  !ShapedType::isDynamic(grid)
                                              ? 1
                                              : grid));
    for (auto [index, type] : llvm::enumerate(kernel.getResultTypes()))
      llvm::append_range(arguments,
                         gridStorageTypes(cast<ArrType>(type),
                                          kernel.getGlobalScatter(index) &&
                                                  !ShapedType::isDynamic(grid)
                                              ? 1
                                              : grid));
    // Sizes known at run time: each memref's outermost length.
    if (ShapedType::isDynamic(grid))
      arguments.append(arguments.size(), builder.getIndexType());
  }
  for (unsigned index : checkedGlobalResults(kernel, runTimeChecks)) {
    auto type = cast<ArrType>(kernel.getResultTypes()[index]);
    llvm::append_range(
        arguments,
        gridStorageTypes(ArrType::get(type.getLength(), builder.getI32Type()),
                         ShapedType::isDynamic(grid) ? grid : 1));
  }
  // Each memref's offset, last: the kernel's pointers are bare (a GPU
  // kernel's memrefs have static places), so the offsets travel apart.
  unsigned numMemrefs = getLaunchOperandArrays(kernel).size();
  unsigned firstOffset = arguments.size();
  if (runTimeOffsets)
    arguments.append(numMemrefs, builder.getIndexType());
  SymbolTable symbols(module);
  auto func = gpu::GPUFuncOp::create(builder, kernel.getLoc(), name,
                                     builder.getFunctionType(arguments, {}));
  // Renamed when the name is taken: by another kernel's instance (a kernel
  // may be called k_grid4) or by a constant table.
  symbols.insert(func);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(
      builder.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  if (!ShapedType::isDynamic(grid))
    func.setKnownGridSizeAttr(
        builder.getDenseI32ArrayAttr({static_cast<int32_t>(grid), 1, 1}));
  if (cache)
    cache->validate(kernel);
  KernelLowering lowering(kernel, func, grid,
                          layouts ? ArrayRef<AffineMap>(layouts->arrays)
                                  : ArrayRef<AffineMap>(),
                          counters, cache, runTimeChecks);
  if (failed(lowering.lower())) {
    func.erase();
    return failure();
  }
  // The code reads and writes each memref at its offset: a view of the
  // bare pointer's memref from there, row-major as before.
  if (runTimeOffsets) {
    Block &entry = func.front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    for (unsigned index = 0; index < numMemrefs; ++index) {
      BlockArgument memref = entry.getArgument(index);
      auto type = cast<MemRefType>(memref.getType());
      SmallVector<int64_t> strides;
      int64_t offset;
      (void)type.getStridesAndOffset(strides, offset);
      auto view = memref::ReinterpretCastOp::create(
          b, kernel.getLoc(), atRunTimeOffset(type), memref,
          OpFoldResult(entry.getArgument(firstOffset + index)),
          getAsIndexOpFoldResult(b.getContext(), type.getShape()),
          getAsIndexOpFoldResult(b.getContext(), strides));
      memref.replaceAllUsesExcept(view, view);
    }
  }
  return func;
}
