//===- ThreadRunner.h - the block run's interpreter ------------*- C++ -*-===//
//
// Internal to lib/Analysis: the interpreter of a ThreadProgram over every
// thread of a block (BlockRun.cpp; its integer arithmetic in
// DirectSteps.cpp), which BlockRun befriends.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_ANALYSIS_THREADRUNNER_H
#define OBS_LIB_ANALYSIS_THREADRUNNER_H

#include "ThreadProgram.h"

namespace mlir::obs {

using namespace block_run;

/// Runs every thread of a block through a ThreadProgram at once, an
/// instruction at a time over the threads that run it (those a branch or a
/// loop leaves active): index arithmetic is evaluated with each thread's id
/// known; memory contents stay unknown. Each thread sees exactly what it
/// would see run alone, in its own program order, and the accesses are
/// recorded thread by thread; running the threads together makes the cost
/// of dispatching an instruction once per block rather than once per
/// thread.
class ThreadRunner {
public:
  ThreadRunner(BlockRun &run, const ThreadProgram &program);

  /// Makes `root` point at the start of memory `memory` in every thread;
  /// `rowPadding` elements follow each of its rows (obs.shared_padding).
  void bindMemory(Value root, unsigned memory, Attribute owner,
                  uint32_t rowPadding = 0);
  /// Runs the body in every thread, then orders the accesses by thread.
  LogicalResult runBody();

  /// The barriers each thread passed, in order.
  std::vector<SmallVector<Operation *>> passed;

private:
  /// Where a memref value points: a root memory and a byte offset into it.
  struct Pointer {
    unsigned memory;
    uint64_t byteOffset;
    Attribute owner;
    /// The padding after each row of the buffer this memref stores
    /// (obs.shared_padding): an access's element is its place in the
    /// array, not in the padded memref.
    uint32_t rowPadding = 0;
  };
  using Lanes = ArrayRef<uint32_t>;

  LogicalResult runRange(uint32_t begin, uint32_t end, Lanes lanes);
  /// Whether `instruction`, just run by `lane` among others, counts as an
  /// op the warps issue: an access, a shuffle, a barrier, a branch, or an
  /// op on data (its result unknown to the run). Arithmetic the run can
  /// evaluate is on thread ids and constants: the lowering emits it
  /// unsimplified, per element, and LLVM folds, shares and hoists most of
  /// it, so counting it would count the lowering's verbosity.
  bool isIssued(const Instruction &instruction, uint32_t lane) const;
  /// The phase `lane` is in: the barriers it passed (every thread passes
  /// the same ones).
  size_t phaseOf(uint32_t lane) const { return passed[lane].size(); }
  /// Counts `ops` warp ops issued in `phase`.
  void addWarpOps(size_t phase, uint64_t ops) {
    if (run.warpOpsByPhase.size() <= phase)
      run.warpOpsByPhase.resize(phase + 1);
    run.warpOpsByPhase[phase] += ops;
  }
  LogicalResult runInstruction(const Instruction &instruction, Lanes lanes);
  // The steps runInstruction dispatches to, by kind of instruction, each in
  // every thread of `lanes` (inlined there: they are the run's inner loop).
  /// Sets the result of `instruction` to `valueOfLane(lane)` in each thread.
  template <typename ValueOfLane>
  void setEach(const Instruction &instruction, Lanes lanes,
               ValueOfLane valueOfLane);
  /// An integer op asked through its folder, where its operands are known.
  void runFold(const Instruction &instruction, Lanes lanes);
  /// A load: records the read, and knows the entry of a constant table.
  LogicalResult runLoad(const Instruction &instruction, Lanes lanes);
  /// A store or an atomic: records the write.
  LogicalResult runStore(const Instruction &instruction, Lanes lanes);
  /// A view: points its result into the memory its source points at.
  LogicalResult runView(const Instruction &instruction, Lanes lanes);
  /// A choice of memref: points its result where the chosen one points.
  LogicalResult runSelectMemref(const Instruction &instruction, Lanes lanes);
  /// A register read check: records a thread that reads an element another
  /// computed (the first for each array), and the owners the shuffles that
  /// follow must take their values from.
  void runRegisterRead(const Instruction &instruction, Lanes lanes);
  /// An integer op computed directly, in every thread of `lanes`.
  void runDirect(const Instruction &instruction, Lanes lanes);
  template <IntegerOpcode Code>
  void runDirect(const Instruction &instruction, Lanes lanes);
  /// runDirect in the threads [first, first + size), whose values of each
  /// slot are contiguous.
  template <IntegerOpcode Code>
  void runDirectOnRange(const Instruction &instruction, const Slot *sources,
                        Slot target, uint32_t first, size_t size);
  LogicalResult runIf(const Instruction &instruction, Lanes lanes);
  LogicalResult runFor(const Instruction &instruction, Lanes lanes);
  /// Skips a loop that touches nothing another thread can see, doing what
  /// `skipped` says it still does.
  LogicalResult skipLoop(const Instruction &instruction,
                         const SkippedAccesses &skipped, Lanes lanes);
  /// Records that thread `lane` read, at `check`, element `element` (-1:
  /// unknown) of an array in registers that thread `owner` computed (-1:
  /// unknown); the first for each array only.
  void recordRegisterViolation(RegisterReadViolation::Kind kind, unsigned sync,
                               Operation *check, uint32_t lane, int64_t owner,
                               int64_t element, int64_t source = -1);
  /// Marks the violation of `sync`'s array in registers as one whose reads
  /// cross warps (RegisterReadViolation::acrossWarps).
  void noteReadAcrossWarps(unsigned sync);
  /// Runs a shuffle in the threads of `lanes`: each warp's lanes there
  /// must be the ones their mask names, and the lanes the values come from
  /// among them; anything else is a violation of the shuffle's sync.
  LogicalResult runShuffle(const Instruction &instruction, Lanes lanes);
  /// Fails, with the error at the obs.index, where a thread of `lanes`
  /// found by the check `instruction` (Step::IndexBounds) that the place
  /// it reads is outside the array, and no branch on data brought it there.
  LogicalResult checkIndexBounds(const Instruction &instruction, Lanes lanes);
  /// For each thread, how many branches it runs because their condition
  /// depends on data (it takes both ways, so what it does there may not
  /// happen).
  std::vector<uint32_t> dataBranches;
  /// The accesses recorded so far. Where every thread's fit in
  /// `laneCapacity` (a program without loops makes at most one access per
  /// load and store), thread t's k-th is at t * laneCapacity + k, so that
  /// they are in thread order once the gaps are closed; past that, in the
  /// order they were made, after those of each thread before (runBody
  /// orders them by thread and hands them to the run).
  UnwrittenLargeVector<Access> log;
  uint64_t laneCapacity = 0;
  bool placedByLane = false;
  /// Adds `access` to the log.
  void appendAccess(const Access &access);
  /// Closes the gaps between the threads' places in the log, which then
  /// holds every access in thread order, and is appended to from then on.
  void closeLaneGaps();
  /// Orders the log by thread, each thread's accesses in their own order
  /// (a stable sort): for a log appended to after closeLaneGaps.
  void sortLogByThread();
  /// How many branches on a condition that is not a constant the run is
  /// inside (a branch on data among them, which some lanes may skip): a
  /// shuffle there is refused even where every lane of its warp takes the
  /// branch, because the cpu target exchanges values only at the top level
  /// of a warp's steps (it would have to prove the condition the same in
  /// every lane, as the run here only observes).
  unsigned branches = 0;
  /// How many loops the run is inside: a shuffle there is refused too,
  /// whatever the trip counts, because the cpu target splits a warp's
  /// steps at each shuffle and a loop's carried values would have to live
  /// across the split (a GPU would run it).
  unsigned loops = 0;
  /// The iterations of loops with known bounds the run has followed, over
  /// all threads: the proof of a loop is running it, so it has a limit, as
  /// accesses do (kMaxLoopIterations), for the loop that touches nothing.
  uint64_t loopIterations = 0;
  static constexpr uint64_t kMaxLoopIterations = uint64_t(1) << 26;
  /// The element each thread last checked a read of, per sync in
  /// shuffles, and its owner (-1: unknown), for the shuffles that follow
  /// the check: each must take its value from that owner's lane.
  struct ShuffleRead {
    int64_t owner = -1, element = -1;
    bool checked = false;
  };
  llvm::DenseMap<unsigned, std::vector<ShuffleRead>> shuffleReads;
  /// Records one access of thread `lane` by `op` through `memoryAccess`, at
  /// the indices in `indices` (slots), or anywhere in the buffer when
  /// `wholeBuffer` (an access known not to depend on data: a skipped
  /// loop's).
  LogicalResult recordAccess(Operation *op,
                             const MemoryInstruction &memoryAccess,
                             const Slot *indices, uint32_t lane, bool write,
                             bool wholeBuffer = false);
  /// Fails, with the error at `op`, where thread `lane` reaches it at
  /// indices (slots) outside the extents of memory no other thread sees
  /// (its own scratch, a constant table), and no branch on data brought it
  /// there: such memory has no hazards, but a place outside it is another
  /// buffer's, or none (a store past a thread's memref.alloca, at its
  /// thread id, was accepted: hunt 34).
  LogicalResult checkUntrackedPlace(Operation *op,
                                    const MemoryInstruction &memoryAccess,
                                    const Slot *indices, uint32_t lane,
                                    bool write);

  size_t at(Slot slot, uint32_t lane) const {
    return size_t(slot & ~kPointer) * threads + lane;
  }
  bool isKnown(Slot slot, uint32_t lane) const { return known[at(slot, lane)]; }
  int64_t valueOf(Slot slot, uint32_t lane) const {
    return values[at(slot, lane)];
  }
  void setInt(Slot slot, uint32_t lane, int64_t value) {
    values[at(slot, lane)] = value;
    known[at(slot, lane)] = 1;
  }
  bool isPointerKnown(Slot slot, uint32_t lane) const {
    return pointerKnown[at(slot, lane)];
  }
  void forget(Slot slot, Lanes lanes) {
    LargeVector<uint8_t> &flags = slot & kPointer ? pointerKnown : known;
    for (uint32_t lane : lanes)
      flags[at(slot, lane)] = 0;
  }
  Slot operand(const Instruction &instruction, unsigned i) const {
    return program.slotLists[instruction.firstOperand + i];
  }
  Slot result(const Instruction &instruction, unsigned i) const {
    return program.slotLists[instruction.firstResult + i];
  }
  void forgetResults(const Instruction &instruction, Lanes lanes) {
    for (unsigned i = 0; i < instruction.numResults; ++i)
      forget(result(instruction, i), lanes);
  }
  /// `value` as an attribute of `type`, for the ops' folders: cached, since
  /// threads fold the same few values over and over, and uniquing each in
  /// the context is a locked hash lookup.
  Attribute integerAttr(Type type, int64_t value);

  BlockRun &run;
  const ThreadProgram &program;
  uint32_t threads;
  /// Each slot's value in each thread, slot by slot: tens of megabytes
  /// for a big block, fresh in every run (huge pages, as the accesses).
  LargeVector<int64_t> values;
  LargeVector<uint8_t> known;
  LargeVector<Pointer> pointers;
  LargeVector<uint8_t> pointerKnown;
  /// Each thread's count of accesses so far.
  std::vector<uint64_t> order;
  llvm::DenseMap<std::pair<Type, int64_t>, Attribute> integerAttrs;
};

} // namespace mlir::obs

#endif // OBS_LIB_ANALYSIS_THREADRUNNER_H
