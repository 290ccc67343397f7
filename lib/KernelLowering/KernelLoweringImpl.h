//===- KernelLoweringImpl.h - the lowering of one kernel -------*- C++ -*-===//
//
// Internal to lib/KernelLowering: the class that lowers one flat kernel to a
// gpu.func (KernelLowering.cpp drives it: buffers, syncs, repeats, the
// kernel's body), and what its other files share: StageLowering.cpp emits a
// stage's rounds, RegisterLowering.cpp keeps arrays in registers and
// shuffles, ScatterLowering.cpp writes scatters.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_KERNELLOWERING_KERNELLOWERINGIMPL_H
#define OBS_LIB_KERNELLOWERING_KERNELLOWERINGIMPL_H

#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Dialect/Obs/Storage.h"
#include "Obs/KernelLowering/ElementSet.h"
#include "Obs/KernelLowering/KernelLowering.h"
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

namespace mlir::obs::kernel_lowering {

inline constexpr uint64_t kWarpSize = KernelOp::kWarpSize;

/// Values in each thread of the block, by the structure of the index
/// arithmetic that computes them (see evaluateInEachThread).
using ThreadValuesCache =
    std::map<std::vector<uintptr_t>, std::optional<SmallVector<int64_t>>>;

/// Rounds of a stage up to this many are unrolled; more are a loop.
inline constexpr uint64_t kUnrolledRounds = 8;

/// The most ops a stage's unrolled rounds may take, estimated from its
/// first round; a stage whose rounds would take more is a loop where it
/// may be one. Unrolling specialises each round (a branch that depends only
/// on the round folds away), which pays for a round of a few dozen ops; a
/// round of a hundred or more (a compare-and-swap of tuples by a custom
/// order, a merge's search) specialises little, and unrolled eight times
/// it is most of what every pass after the lowering, and the simulations
/// of the proof, then handle. LLVM unrolls the loop again where it pays.
inline constexpr uint64_t kMostUnrolledOps = 512;

/// Whether a stage of `type` dealt out in `rounds` rounds, in place or kept
/// by its threads, has each thread compute all its rounds before it stores
/// any. An in-place stage overwrites what it reads: a thread that owns both
/// elements of a pair (a compare-and-swap under blocked<2>) must not read
/// back, for the second, what it stored for the first. Unrolled rounds of
/// scalar or tuple elements only; elsewhere each round stores as it goes,
/// and a thread that reads its own stores is an error of the proof.
inline bool computesBeforeStoring(ArrType type, uint64_t rounds, bool inPlace,
                                  bool kept) {
  return kept || (inPlace && type.getShape().size() == 1 && rounds > 1 &&
                  rounds <= kUnrolledRounds);
}

/// The most array reads the code of one stage may inline, over all its
/// unrolled rounds (ElementEmitter's read limit), of arrays in memory and
/// arrays computed on the way alike. The papers' kernels inline a few
/// dozen. Each unsynced `odds` triples the reads, so n of them inline
/// (3^n - 1) / 2, each behind the branches that choose it: a stage of
/// 35,000 reads is 300,000 operations, which LLVM takes minutes to compile
/// for the cpu target, where 2^13 take seconds.
inline constexpr uint64_t kMaxFusedReads = 1 << 13;

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
  /// The array `sync` would overwrite in place (inPlaceTarget, whatever its
  /// placement); null when there is none.
  Value overwritableArray(SyncOp sync);
  /// Tells the counters' inPlaceProspect about `sync`, stored fresh in
  /// `own`.
  void reportInPlaceProspect(SyncOp sync, const Destination &own);
  /// `how`, or, where a stage has none, the block's threads sweeping it.
  WorkAssignmentAttrInterface
  assignmentOrStrided(WorkAssignmentAttrInterface how) {
    return how ? how : StridedAttr::get(builder.getContext(), blockThreads);
  }

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
  /// The emission of one stage's rounds, and what it knows of the stage
  /// (StageLowering.cpp).
  class StageEmitter;
  /// A scatter's stages: the initial value over its buffer, then the
  /// values written (or merged) at their places, each ending in a block
  /// barrier; a global scatter's one stage writes (or merges) them into
  /// the launch's memref, and needs no barrier (the kernel never reads it).
  LogicalResult lowerScatter(ScatterOp scatter);
  /// A carry's stage: each element of its value computed by a thread,
  /// which looks back over that element's words of the launch's chain
  /// (CarryLowering.cpp) and stores what comes before in a shared buffer;
  /// then a block barrier.
  LogicalResult lowerCarry(CarryOp carry);
  /// Writes `value` at `place` of `buffer` when `isInside`: merged
  /// atomically, or stored, first counting the place's writes in `writes`
  /// (when set) and reporting a second through `report`.
  void emitScatterWrite(ScatterOp scatter, Value buffer, Value writes,
                        func::FuncOp report, Value value, Value place,
                        Value isInside);
  /// The elements of an in-place sync's array that differ from what the
  /// array it overwrites holds at the same place.
  llvm::BitVector changedElements(SyncOp sync, Value overwritten);
  /// The arrays in memory so far, which a stage's code may read.
  SmallVector<Value> arraysInMemory() const;
  /// Where `cache` keeps changedElements(sync, overwritten).
  ChangedElementsCache::Key changedElementsKey(SyncOp sync, Value overwritten);
  Operation *emitBarrier(SyncScope scope, SyncOp sync);
  /// A workgroup buffer for an array of `type`, owned by `owner`.
  /// Fails, with an error at `owner`, when a shared-memory plan gives its
  /// buffer no place in the arena.
  FailureOr<Destination> allocateShared(ArrType type, Operation *owner);
  /// The workgroup memrefs `owner`'s buffer of an array of `type` has,
  /// its rows padded as the owner says (getSharedPadding).
  SmallVector<MemRefType> getSharedStorageTypes(ArrType type, Operation *owner);
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
  /// The launch's chain (an `obs.chain` argument's memref), or null.
  Value chain;
  /// The write counts of checked global scatters, by kernel result.
  llvm::DenseMap<unsigned, Value> globalWriteCounts;
  /// Each argument's global storage.
  SmallVector<Destination> arguments;
};

/// The mask of the threads of the reading thread's warp, for bar.warp.sync
/// and shfl.sync: all 32, or the threads that exist in a last, partial warp.
Value emitWarpMask(OpBuilder &b, Location loc, uint64_t blockThreads);

/// The index along the outermost dimension where `layout` places `element`
/// of this block's array.
Value placeOf(OpBuilder &b, Location loc, AffineMap layout, Value element);

/// Makes `func`'s blocks take their tiles as tickets from word 0 of
/// `chain` (the memref of a kernel's `obs.chain` argument): thread 0 adds
/// one, shared memory and a block barrier hand the count to the block, and
/// it replaces every block index of the func (CarryLowering.cpp).
void emitTickets(gpu::GPUFuncOp func, Value chain, Location loc);

} // namespace mlir::obs::kernel_lowering

#endif // OBS_LIB_KERNELLOWERING_KERNELLOWERINGIMPL_H
