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
#include "KernelLoweringImpl.h"
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
using namespace mlir::obs::kernel_lowering;

Value mlir::obs::kernel_lowering::placeOf(OpBuilder &b, Location loc,
                                          AffineMap layout, Value element) {
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  return affine::expandAffineExpr(b, loc, layout.getResult(0), {block, element},
                                  {});
}

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

SmallVector<MemRefType>
KernelLowering::getSharedStorageTypes(ArrType type, Operation *owner) {
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      func.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  return getStorageTypes(type, workgroup, getSharedPadding(owner));
}

FailureOr<Destination> KernelLowering::allocateShared(ArrType type,
                                                      Operation *owner) {
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      func.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  Destination destination;
  // With a shared-memory plan (--obs-plan-shared), buffers are views at
  // planned offsets of one arena, and rows may be padded.
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
    for (MemRefType memref : getSharedStorageTypes(type, owner)) {
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
      // The simulation reports an access's element as the array's.
      if (uint64_t padding = getSharedPadding(owner))
        ObsDialect::SharedPaddingAttrHelper(context).setAttr(
            view, builder.getI64IntegerAttr(padding));
      destination.components.push_back(view);
    }
    return destination;
  }
  for (MemRefType memref : getSharedStorageTypes(type, owner)) {
    destination.components.push_back(
        func.addWorkgroupAttribution(memref, owner->getLoc()));
    unsigned index = func.getNumWorkgroupAttributions() - 1;
    func.setWorkgroupAttributionAttr(
        index, ObsDialect::OwnerAttrHelper(context).getName(), owner->getLoc());
    func.setWorkgroupAttributionAttr(
        index, ObsDialect::OwnerIndexAttrHelper(context).getName(),
        builder.getI64IntegerAttr(ownerIndex.lookup(owner)));
    if (uint64_t padding = getSharedPadding(owner))
      func.setWorkgroupAttributionAttr(
          index, ObsDialect::SharedPaddingAttrHelper(context).getName(),
          builder.getI64IntegerAttr(padding));
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
    memref::StoreOp::create(then, loc(), scalar, memref,
                            getStoragePlace(then, loc(), memref, target));
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

SmallVector<Value> KernelLowering::arraysInMemory() const {
  SmallVector<Value> inMemory;
  for (const auto &entry : sources)
    inMemory.push_back(entry.first);
  return inMemory;
}

ChangedElementsCache::Key
KernelLowering::changedElementsKey(SyncOp sync, Value overwritten) {
  // The overwritten array: a buffer owner's result or a block argument.
  int64_t source = -1;
  if (Operation *producer = overwritten.getDefiningOp())
    source = ownerIndex.lookup(producer);
  else
    source = -2 - static_cast<int64_t>(
                      cast<BlockArgument>(overwritten).getArgNumber());
  return {syncIndex.lookup(sync), source};
}

llvm::BitVector KernelLowering::changedElements(SyncOp sync,
                                                Value overwritten) {
  SmallVector<Value> inMemory = arraysInMemory();
  if (!cache)
    return findChangedElements(sync, overwritten, inMemory);
  return cache->getOrCompute(changedElementsKey(sync, overwritten), [&] {
    return findChangedElements(sync, overwritten, inMemory);
  });
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
  return overwritableArray(sync);
}

Value KernelLowering::overwritableArray(SyncOp sync) {
  // The stored arrays the stage reads: its computation's sources.
  llvm::SetVector<Value> read = findStageSources(
      sync.getInput(), [&](Value value) { return stored.count(value) != 0; });
  if (read.size() != 1 || read.front().getType() != sync.getType() ||
      !onlyReadBy(read.front(), sync))
    return {};
  return read.front();
}

void KernelLowering::reportInPlaceProspect(SyncOp sync,
                                           const Destination &own) {
  if (!counters.inPlaceProspect)
    return;
  InPlaceProspect prospect;
  prospect.syncIndex = syncIndex.lookup(sync);
  prospect.overwritten = overwritableArray(sync);
  if (!prospect.overwritten)
    return counters.inPlaceProspect(std::move(prospect));
  // Buffers of their own, a memref per component, laid out alike: element
  // e of one is where element e of the other would go (not views of a
  // shared-memory plan's arena, which in place drops).
  const Destination &target = stored.find(prospect.overwritten)->second;
  auto alike = [](Value own, Value overwritten) {
    return isa<BlockArgument>(own) && isa<BlockArgument>(overwritten) &&
           own.getType() == overwritten.getType();
  };
  if (own.components.size() == target.components.size() &&
      llvm::all_of(llvm::zip_equal(own.components, target.components),
                   [&](auto pair) {
                     return alike(std::get<0>(pair), std::get<1>(pair));
                   })) {
    prospect.buffers = own.components;
    prospect.overwrittenBuffers = target.components;
  }
  // In place and changing every element, the stage is dealt out as now.
  WorkAssignmentAttrInterface how =
      assignmentOrStrided(sync.getWorkAssignment());
  prospect.storesAsItGoes = !computesBeforeStoring(
      sync.getType(), how.getRoundCount(getWorkLength(sync.getType(), how)),
      /*inPlace=*/true, /*kept=*/false);
  prospect.sources = arraysInMemory();
  prospect.changedKey = changedElementsKey(sync, prospect.overwritten);
  counters.inPlaceProspect(std::move(prospect));
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
    reportInPlaceProspect(sync, destination);
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
  // The input's buffer serves only where its rows are padded as the
  // repeat's own buffers are (obs.shared_padding of each owner): both are
  // read through one select.
  auto samePadding = [&](const Destination &buffer) {
    return llvm::equal(getSharedStorageTypes(type, repeat), buffer.components,
                       [](MemRefType a, Value b) { return a == b.getType(); });
  };
  if (stored.count(input) && input.hasOneUse() &&
      !outputSyncs.count(input.getDefiningOp()) &&
      samePadding(stored.lookup(input))) {
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
    if (auto carry = dyn_cast<CarryOp>(op)) {
      if (failed(lowerCarry(carry)))
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
    // The chain is the launch's memref whole, which only a carry uses.
    if (isChainArgument(kernel, argument.getArgNumber())) {
      chain = entry.getArgument(next);
      arguments.emplace_back();
      next += width;
      continue;
    }
    SmallVector<TypedAttr> absent;
    if (dynamic) {
      // The launch verifier asks for it; a pass that made the launch
      // after the verifier ran may not have given it.
      std::optional<SmallVector<TypedAttr>> given =
          getAbsentValues(kernel, argument.getArgNumber());
      if (!given)
        return kernel.emitOpError()
               << "is launched at sizes known only at run time, but argument "
               << argument.getArgNumber()
               << " does not say what its absent elements read as";
      absent = std::move(*given);
    }
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
  // A plan gives each buffer it places one offset per component: more are
  // a plan made for other buffers (as fewer are, above), not to be ignored.
  // In program order, so that the first is always the one reported.
  ObsDialect::SharedOffsetsAttrHelper offsetsOf(kernel.getContext());
  WalkResult stale = kernel.walk([&](Operation *owner) {
    auto used = nextOffset.find(owner);
    DenseI64ArrayAttr offsets = offsetsOf.getAttr(owner);
    if (used == nextOffset.end() || !offsets ||
        static_cast<size_t>(offsets.size()) == used->second)
      return WalkResult::advance();
    tagError(owner->emitOpError()
                 << "holds " << offsets.size() << " offsets in "
                 << ObsDialect::SharedOffsetsAttrHelper::getNameStr()
                 << ", but its buffer has " << used->second
                 << " components: the plan is stale; run obs-plan-shared "
                    "again",
             ErrorKind::RejectedChoice);
    return WalkResult::interrupt();
  });
  return failure(stale.wasInterrupted());
}

FailureOr<gpu::GPUFuncOp> mlir::obs::lowerKernelToGPUFunc(
    KernelOp kernel, gpu::GPUModuleOp module, StringRef name, int64_t grid,
    const GPULoweringCounters &counters, ChangedElementsCache *cache,
    const KernelLayouts *layouts, bool runTimeChecks, bool runTimeOffsets) {
  if (failed(verifyHalosExpanded(kernel)))
    return failure();
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
                                          (isGlobalArgument(kernel, index) ||
                                           isChainArgument(kernel, index)) &&
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
  // The blocks of a kernel with a chain take their tiles as tickets (not
  // in the proofs' code: see GPULoweringCounters::forProof; nor in one
  // block's, which is the first tile whatever its chain holds).
  if (std::optional<unsigned> chain = getChainArgument(kernel);
      chain && !counters.forProof && grid != 1)
    emitTickets(func,
                func.getArgument(
                    getFirstOperandOf(getLaunchOperandArrays(kernel), *chain)),
                kernel.getLoc());
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
