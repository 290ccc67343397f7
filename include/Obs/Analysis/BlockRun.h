//===- BlockRun.h - every access of every thread of a block -----*- C++ -*-===//
//
// The exact analysis behind the refinement passes. A kernel's lengths are
// static and its index arithmetic depends only on the thread id, so running
// the gpu.func once per thread, with only its index arithmetic evaluated,
// gives every address each thread reads and writes between each pair of
// barriers. Values read from memory stay unknown; an address computed from
// them is taken to be anywhere in its buffer, and a branch on them to go
// both ways, so what a data-dependent kernel may touch is over-approximated,
// never missed.
//
// findHazards then checks, address by address, that every conflicting pair
// of accesses (read after write, write after read, write after write) by
// different threads is ordered by a barrier that covers both: a block
// barrier, or a warp barrier when the two threads share a warp. Atomic
// read-modify-writes commute with each other and conflict with everything
// else; two stores of one scatter at places that depend on data are left to
// the check the ref and cpu targets make as they run. It also
// reports a stage that reads what it has itself written (an unsafe in-place
// stage): the pull-array semantics reads only earlier stages' values.
//
// The passes decide by simulating the code the lowering would produce; the
// verifier checks the code that will run. Both see exactly what the
// lowering emits (buffer reuse, in-place stores, dropped identity writes,
// repeat loops with their wrap-around), and nothing else.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_ANALYSIS_BLOCKRUN_H
#define OBS_ANALYSIS_BLOCKRUN_H

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/HugePages.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <optional>
#include <string>
#include <tuple>

namespace mlir::obs {

/// A memory the block uses: a kernel argument (global memory) or a
/// workgroup buffer.
struct Memory {
  Value root;
  bool workgroup = false;
  uint64_t bytes = 0;
};

/// One load or store of one thread.
struct Access {
  unsigned phase; // Barriers passed before it.
  unsigned thread;
  uint64_t order; // Position in the thread's own program order.
  bool write;
  /// An atomic read-modify-write (a scatter's combine): two of one kind
  /// (atomicKind) commute, so only a plain access or an atomic of another
  /// kind conflicts with one. Recorded as a write.
  bool atomic;
  /// A store of a scatter without a combine (`obs.checked_scatter`): two
  /// into one scatter's buffer (one owner) whose places the run could not
  /// tell are left to the run time check that no place is written twice.
  bool checkedScatter;
  /// An atomic's arith::AtomicRMWKind.
  uint8_t atomicKind;
  unsigned memory; // Index into BlockRun::getMemories().
  uint64_t byteBegin, byteEnd;
  /// The element accessed, in the memref the op names (or -1 when the index
  /// depends on data and the access stands for the whole buffer).
  int64_t element;
  Operation *op;
  /// Who the accessed buffer belongs to: the location in its `obs.owner`
  /// attribute (set by the lowering on workgroup buffers and views).
  Attribute owner;
};

/// A read of an array kept by its threads that gets a wrong value. In
/// registers (an `obs.register_read` check): the element is not the
/// reading thread's own, but another's (`owner`) or depends on data (-1).
/// In shuffles: the element's owner is not in the reading thread's warp
/// (an `obs.shuffle_read` check), or a shuffle (an nvvm.shfl.sync tagged
/// `obs.shuffle_read`) is not run by exactly the lanes its mask names, or
/// takes its value from a lane that does not run it or did not compute the
/// element.
struct RegisterReadViolation {
  enum Kind {
    /// Registers: another thread computed the element.
    OtherThread,
    /// Shuffles: a thread of another warp computed the element.
    OtherWarp,
    /// Shuffles: the lanes that run the shuffle are not the ones its mask
    /// names (some skip it, or a branch on data may skip it).
    NotTogether,
    /// Shuffles: the lane the value comes from does not run the shuffle.
    NoSource,
    /// Shuffles: the lane the value comes from is not the element's owner
    /// (or no read was checked before the shuffle).
    WrongLane,
  };
  Kind kind;
  Operation *check;
  unsigned thread;
  /// The thread that computed the element (OtherThread, OtherWarp,
  /// WrongLane); -1 when it depends on data or is not known.
  int64_t owner;
  /// The element read, or -1 when it depends on data or is not known.
  int64_t element;
  /// The sync whose array is read (the check's `obs.register_read` or
  /// `obs.shuffle_read`).
  unsigned sync;
  /// The thread a shuffle takes the value from (NoSource, WrongLane).
  int64_t source = -1;
  /// Registers (OtherThread): some read of the array, this one or a later
  /// one, is by a thread of another warp than the element's owner's, or of
  /// an owner not known. In shuffles that read would be wrong too
  /// (OtherWarp), so promote-registers does not try them.
  bool acrossWarps = false;
};

/// A read by obs.index outside its array, known from the thread ids: the
/// check (an arith.cmpi tagged obs.index_bounds, at the obs.index), the
/// thread, the index and the array's length.
struct IndexViolation {
  Operation *check;
  unsigned thread;
  int64_t index, length;
};

/// A barrier the block passes, in the order they are passed.
struct Barrier {
  Operation *op;
  bool block; // A block barrier; otherwise a warp barrier.
};

class BlockRun {
public:
  /// The most memory accesses one block's run records (about 1.2 GB of
  /// them): a kernel whose threads each re-read whole arrays many times is
  /// refused rather than run out of memory.
  static constexpr uint64_t kMaxAccesses = uint64_t(1) << 24;

  /// Runs every thread of one block of `kernel` (whose known_block_size
  /// gives the threads), or reports why it cannot: a barrier that some
  /// threads could skip, a loop whose bounds are not known, more than
  /// kMaxAccesses accesses.
  static FailureOr<BlockRun> simulate(gpu::GPUFuncOp kernel);

  unsigned getThreads() const { return threads; }
  ArrayRef<Memory> getMemories() const { return memories; }
  /// Every access, in thread order, and each thread's in its own program
  /// order (so a warp's accesses are adjacent too).
  ArrayRef<Access> getAccesses() const { return accesses; }
  ArrayRef<Barrier> getBarriers() const { return barriers; }
  /// Element p is how many of the barriers before phase p are block
  /// barriers (p from 0 to the number of barriers): a block barrier
  /// between phases a < b orders everything there.
  SmallVector<unsigned> countBlockBarriersBefore() const;
  /// This run with barrier i a block barrier where `isBlock(i)` says so,
  /// and a warp barrier elsewhere: the run of the same code with other
  /// barrier scopes, which passes the same barriers (of either kind alike)
  /// and makes the same accesses.
  BlockRun withBarrierKinds(llvm::function_ref<bool(unsigned)> isBlock) const;
  /// This run, of another copy of the same function: every op and value it
  /// names taken to the copy's by `mapping` (which must map them all).
  BlockRun inCopy(const IRMapping &mapping) const;
  /// Whether an address depended on data somewhere.
  bool dependsOnData() const { return dataDependent; }
  /// The first wrong read of each array kept by its threads, by sync.
  ArrayRef<RegisterReadViolation> getRegisterViolations() const {
    return registerViolations;
  }
  /// The ops the warps issued: each op the run executes, once per warp
  /// with a thread executing it (constants, views and the read checks,
  /// which compile to nothing, do not count). The ops are those of the
  /// gpu.func before any of LLVM's optimisations.
  uint64_t getWarpOpsIssued() const {
    uint64_t total = 0;
    for (uint64_t ops : warpOpsByPhase)
      total += ops;
    return total;
  }
  /// The same, for the ops issued after `phase` barriers and before the
  /// next.
  uint64_t getWarpOpsIssued(unsigned phase) const {
    return phase < warpOpsByPhase.size() ? warpOpsByPhase[phase] : 0;
  }
  /// Whether some ops were not counted: a loop the run skips (its trip
  /// count depends on data, or it only folds an input).
  bool skippedOps() const { return opsSkipped; }

private:
  friend class ThreadRunner;
  unsigned threads = 0;
  SmallVector<Memory> memories;
  UnwrittenLargeVector<Access> accesses;
  SmallVector<Barrier> barriers;
  bool dataDependent = false;
  SmallVector<RegisterReadViolation> registerViolations;
  /// The first read outside its array.
  std::optional<IndexViolation> indexViolation;
  /// Warp ops issued, by the barriers passed before them.
  SmallVector<uint64_t> warpOpsByPhase;
  bool opsSkipped = false;
};

/// Two accesses that nothing orders.
struct Hazard {
  enum Kind { ReadAfterWrite, WriteAfterRead, WriteAfterWrite };
  Kind kind;
  Access first, second; // In program order (by phase).
  /// Whether both are in one stage (no barrier between them at all).
  bool sameStage() const { return first.phase == second.phase; }
};

StringRef stringifyHazardKind(Hazard::Kind kind);

/// Every conflicting pair of accesses to shared memory that no barrier
/// orders, at most `limit` of them, in a deterministic order.
SmallVector<Hazard> findHazards(const BlockRun &run,
                                unsigned warpSize = KernelOp::kWarpSize,
                                unsigned limit = 16);

/// Two elements of a kernel's global arrays that a launch puts at one place
/// of one block: `readElement` of the memory (a kernel argument) the kernel
/// reads it through, `writtenElement` of the one it is written through.
struct GlobalOverlap {
  unsigned readMemory;
  uint64_t readElement;
  unsigned writtenMemory;
  uint64_t writtenElement;
  bool operator==(const GlobalOverlap &other) const {
    return std::tie(readMemory, readElement, writtenMemory, writtenElement) ==
           std::tie(other.readMemory, other.readElement, other.writtenMemory,
                    other.writtenElement);
  }
};

/// The accesses of global memory that `overlaps` make conflict and that
/// nothing orders, at most `limit` of them: every read of the place must
/// come before its write, earlier in the same thread or across a barrier
/// that orders the two threads (a kernel reads its inputs as they were
/// before the launch). A read after the write is a ReadAfterWrite hazard
/// even within one thread.
SmallVector<Hazard> findGlobalHazards(const BlockRun &run,
                                      ArrayRef<GlobalOverlap> overlaps,
                                      unsigned warpSize = KernelOp::kWarpSize,
                                      unsigned limit = 16);

/// What one block's run costs, from its accesses grouped by warp: the k-th
/// execution of one load or store by the threads of one warp is one warp
/// access. In shared memory a warp access takes one wavefront per distinct
/// 4-byte word in its most used bank (32 banks; one word read by many
/// threads is a broadcast); in global memory it touches some 128-byte
/// lines. Accesses whose place depends on data are not counted
/// (`uncounted`).
///
/// The accesses are counted as LLVM's load-store vectorizer leaves them: a
/// thread's accesses of one buffer between two barriers, all reads or all
/// writes, that cover an aligned 8- or 16-byte chunk are one vector access
/// (`ld.shared.v2`, `ld.global.nc.v4`), and a word read twice there is read
/// once. Shared buffers are placed at 16-byte boundaries, and the pointers
/// a launch passes are aligned to 16 bytes (the contract of the host
/// functions that launch kernels), so the alignment is the offset's.
struct BlockCost {
  uint64_t blockBarriers = 0, warpBarriers = 0;
  uint64_t sharedAccesses = 0, sharedWavefronts = 0;
  /// The fewest wavefronts the shared accesses could take, from the bytes
  /// each touches (a 16-byte vector access of a warp moves 512 bytes: 4
  /// wavefronts of 128 at least). More than these is a bank conflict.
  uint64_t sharedLeastWavefronts = 0;
  uint64_t globalAccesses = 0, globalLines = 0;
  uint64_t uncounted = 0;
  /// Ops issued per warp (BlockRun::getWarpOpsIssued), less the shared
  /// accesses that vector accesses take the place of.
  uint64_t warpOps = 0;
  /// Whether `warpOps` misses a loop the run skipped.
  bool opsSkipped = false;

  BlockCost &operator+=(const BlockCost &other) {
    blockBarriers += other.blockBarriers;
    warpBarriers += other.warpBarriers;
    sharedAccesses += other.sharedAccesses;
    sharedWavefronts += other.sharedWavefronts;
    sharedLeastWavefronts += other.sharedLeastWavefronts;
    globalAccesses += other.globalAccesses;
    globalLines += other.globalLines;
    uncounted += other.uncounted;
    warpOps += other.warpOps;
    opsSkipped |= other.opsSkipped;
    return *this;
  }

  /// Barrier waits, in issue slots of each warp: a block barrier holds
  /// every warp until the slowest arrives.
  static constexpr uint64_t kBlockBarrierSlots = 16;
  static constexpr uint64_t kWarpBarrierSlots = 2;

  /// One number to compare one kernel's runs under different choices
  /// (obs-optimize's work strategy), in warp issue slots: each op issued
  /// once, each shared-memory wavefront past an access's first and each
  /// global 128-byte line past its first once more, and each barrier's
  /// wait for each warp.
  uint64_t estimatedSlots(unsigned warps) const {
    return warpOps + (sharedWavefronts - sharedAccesses) +
           (globalLines - std::min(globalLines, globalAccesses)) +
           warps * (blockBarriers * kBlockBarrierSlots +
                    warpBarriers * kWarpBarrierSlots);
  }
};

/// The cost of `run`, with warps of `warpSize` threads.
BlockCost computeBlockCost(const BlockRun &run,
                           unsigned warpSize = KernelOp::kWarpSize);
/// The cost of `run` had it made `accesses` instead of its own, which they
/// stand for one for one, in the same order (the same accesses at other
/// addresses: obs-plan-shared's paddings, tried without running again).
BlockCost computeBlockCost(const BlockRun &run, ArrayRef<Access> accesses,
                           unsigned warpSize = KernelOp::kWarpSize);

/// The cost of `run` phase by phase: element p is what is done after p
/// barriers and before the next (the stage that ends at barrier p, or the
/// last stage), and counts barrier p itself. A warp access belongs to the
/// phase of its first thread's access; their sum is computeBlockCost's.
SmallVector<BlockCost>
computePhaseCosts(const BlockRun &run, unsigned warpSize = KernelOp::kWarpSize);
/// The same, had `run` made `accesses` (as computeBlockCost's).
SmallVector<BlockCost> computePhaseCosts(const BlockRun &run,
                                         ArrayRef<Access> accesses,
                                         unsigned warpSize);

} // namespace mlir::obs

#endif // OBS_ANALYSIS_BLOCKRUN_H
