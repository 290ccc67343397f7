//===- BlockRun.cpp - every access of every thread of a block -------------===//

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/IntegerEvaluation.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/StableSort.h"
#include "ThreadRunner.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <array>
#include <map>
#include <numeric>
#include <queue>
#include <set>

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::block_run;

/// The lanes of a warp, as shfl.sync sees them (its masks have a bit each).
static constexpr uint32_t kWarpLanes = KernelOp::kWarpSize;

ThreadRunner::ThreadRunner(BlockRun &run, const ThreadProgram &program)
    : passed(run.threads), dataBranches(run.threads, 0), run(run),
      program(program), threads(run.threads),
      values(size_t(program.getNumValueSlots()) * threads),
      known(size_t(program.getNumValueSlots()) * threads, 0),
      pointers(size_t(program.getNumPointerSlots()) * threads),
      pointerKnown(size_t(program.getNumPointerSlots()) * threads, 0),
      order(threads, 0) {}

void ThreadRunner::bindMemory(Value root, unsigned memory, Attribute owner,
                              uint32_t rowPadding) {
  Slot slot = program.slotOf(root);
  for (uint32_t lane = 0; lane < threads; ++lane) {
    pointers[at(slot, lane)] = {memory, 0, owner, rowPadding};
    pointerKnown[at(slot, lane)] = 1;
  }
}

LogicalResult ThreadRunner::runBody() {
  std::vector<uint32_t> all(threads);
  std::iota(all.begin(), all.end(), 0);
  auto [begin, end] = program.getBody();
  // Every thread runs each load and store at most once where the program
  // has no loops (rounds are unrolled): each thread's accesses go to places
  // of their own, so that they come out in thread order. Room for all of
  // them costs nothing until written (UnwrittenLargeVector).
  laneCapacity = program.memoryInstructions.size();
  placedByLane =
      laneCapacity > 0 && laneCapacity * threads <= BlockRun::kMaxAccesses;
  if (placedByLane)
    log.resize(laneCapacity * threads);
  if (failed(runRange(begin, end, all)))
    return failure();
  if (placedByLane)
    closeLaneGaps();
  else
    sortLogByThread();
  assert(run.accesses.empty() && "a run's body runs once");
  run.accesses = std::move(log);
  return success();
}

void ThreadRunner::sortLogByThread() {
  // Some thread made more accesses than the log had places for (a loop),
  // and those since are in the order they were made: a stable counting
  // sort by thread. The sorted vector is gathered in order from the log,
  // so that its reads, random as they are, are independent and overlap;
  // the permutation applied in place by swaps was a chain of cache misses,
  // each swap waiting on the one before. The log's memory is then freed,
  // for the next run's (the tools keep freed large arrays:
  // keepLargeBlocks).
  std::vector<uint32_t> start(threads + 1, 0);
  for (const Access &access : log)
    ++start[access.thread + 1];
  for (uint32_t lane = 0; lane < threads; ++lane)
    start[lane + 1] += start[lane];
  LargeVector<uint32_t> source(log.size());
  for (auto [index, access] : llvm::enumerate(log))
    source[start[access.thread]++] = index;
  UnwrittenLargeVector<Access> sorted;
  sorted.reserve(log.size());
  // How far ahead the log is read: enough misses in flight to hide
  // memory's latency.
  constexpr size_t kAhead = 16;
  for (size_t index = 0; index < source.size(); ++index) {
    if (index + kAhead < source.size())
      __builtin_prefetch(&log[source[index + kAhead]]);
    sorted.push_back(log[source[index]]);
  }
  log = std::move(sorted);
}

Attribute ThreadRunner::integerAttr(Type type, int64_t value) {
  Attribute &attribute = integerAttrs[{type, value}];
  if (!attribute)
    attribute = IntegerAttr::get(type, value);
  return attribute;
}

bool ThreadRunner::isIssued(const Instruction &instruction,
                            uint32_t lane) const {
  if (instruction.foldsAway)
    return false;
  switch (instruction.step) {
  case Step::Load:
  case Step::Store:
  case Step::Atomic:
  case Step::Shuffle:
  case Step::Barrier:
  case Step::If:
  case Step::Unknown:
    return true;
  case Step::Direct:
  case Step::Fold:
    return !isKnown(result(instruction, 0), lane);
  default:
    return false;
  }
}

/// The warps with a thread among `lanes` (in increasing order).
static uint64_t countWarps(ArrayRef<uint32_t> lanes) {
  uint64_t warps = 0;
  uint32_t last = ~uint32_t(0);
  for (uint32_t lane : lanes)
    if (uint32_t warp = lane / kWarpLanes; warp != last) {
      ++warps;
      last = warp;
    }
  return warps;
}

LogicalResult ThreadRunner::runRange(uint32_t begin, uint32_t end,
                                     Lanes lanes) {
  uint64_t warps = lanes.size() == threads
                       ? llvm::divideCeil(threads, kWarpLanes)
                       : countWarps(lanes);
  for (uint32_t i = begin; i < end; ++i) {
    const Instruction &instruction = program.instructions[i];
    // A barrier counts in the phase it ends.
    size_t phase = phaseOf(lanes.front());
    if (failed(runInstruction(instruction, lanes)))
      return failure();
    if (isIssued(instruction, lanes.front()))
      addWarpOps(phase, warps);
  }
  return success();
}

/// The error for a loop that touches what other threads see and that the
/// analysis cannot follow, because of `what`: a trip count or bounds that
/// depend on data, or a counter too wide.
static LogicalResult emitDataLoopError(Operation *loop, StringRef what) {
  return loop->emitOpError()
         << "is a loop whose " << what
         << ", and it touches shared memory, stores to global "
            "memory or holds a barrier or a warp exchange: the analysis "
            "follows such a loop only where it touches nothing another "
            "thread can see";
}

/// The error for an op the run reports as having memory effects it does not
/// see (Step::UnseenEffects).
static LogicalResult emitUnseenEffectsError(Operation *op) {
  if (!isa<MemoryEffectOpInterface>(op))
    return op->emitOpError()
           << "has memory effects the analysis cannot see, so it cannot "
              "prove the kernel safe";
  return op->emitOpError()
         << "reads or writes memory that the analysis follows only "
            "through memref.load and memref.store, so it cannot prove the "
            "kernel safe";
}

// The steps below run in the interpreter's inner loop, once per instruction
// for all the threads that run it: they are inlined into runInstruction, so
// that splitting the dispatch costs no call.

template <typename ValueOfLane>
LLVM_ATTRIBUTE_ALWAYS_INLINE void
ThreadRunner::setEach(const Instruction &instruction, Lanes lanes,
                      ValueOfLane valueOfLane) {
  Slot slot = result(instruction, 0);
  for (uint32_t lane : lanes)
    setInt(slot, lane, valueOfLane(lane));
}

LLVM_ATTRIBUTE_ALWAYS_INLINE void
ThreadRunner::runFold(const Instruction &instruction, Lanes lanes) {
  Slot target = result(instruction, 0);
  unsigned count = instruction.numOperands;
  SmallVector<int64_t, 3> operandValues(count);
  for (uint32_t lane : lanes) {
    bool allKnown = true;
    for (unsigned i = 0; i < count && allKnown; ++i) {
      allKnown = isKnown(operand(instruction, i), lane);
      operandValues[i] = valueOf(operand(instruction, i), lane);
    }
    std::optional<int64_t> computed;
    if (allKnown)
      computed = foldIntegerOp(
          *instruction.op, operandValues,
          [&](Type type, int64_t value) { return integerAttr(type, value); });
    if (computed)
      setInt(target, lane, wrapToWidth(instruction.resultWidth, *computed));
    else
      known[at(target, lane)] = 0;
  }
}

LLVM_ATTRIBUTE_ALWAYS_INLINE LogicalResult
ThreadRunner::runLoad(const Instruction &instruction, Lanes lanes) {
  const MemoryInstruction &load =
      program.memoryInstructions[instruction.immediate];
  Slot target = result(instruction, 0);
  // A load's indices follow its memref.
  const Slot *indices = &program.slotLists[instruction.firstOperand + 1];
  for (uint32_t lane : lanes) {
    known[at(target, lane)] = 0;
    if (load.table) {
      // An entry of a constant table at known indices is known.
      int64_t linear = 0;
      bool inside = true;
      for (unsigned i = 0; inside && i < load.shape.size(); ++i) {
        inside = isKnown(indices[i], lane) && valueOf(indices[i], lane) >= 0 &&
                 valueOf(indices[i], lane) < load.shape[i];
        if (inside)
          linear = linear * load.shape[i] + valueOf(indices[i], lane);
      }
      if (inside)
        setInt(target, lane,
               wrapToWidth(instruction.resultWidth, (*load.table)[linear]));
    }
    if (failed(recordAccess(instruction.op, load, indices, lane,
                            /*write=*/false)))
      return failure();
  }
  return success();
}

LLVM_ATTRIBUTE_ALWAYS_INLINE LogicalResult
ThreadRunner::runStore(const Instruction &instruction, Lanes lanes) {
  // A store's (and an atomic's) indices follow its value and memref.
  const Slot *indices = &program.slotLists[instruction.firstOperand + 2];
  for (uint32_t lane : lanes)
    if (failed(recordAccess(instruction.op,
                            program.memoryInstructions[instruction.immediate],
                            indices, lane, /*write=*/true)))
      return failure();
  return success();
}

LLVM_ATTRIBUTE_ALWAYS_INLINE LogicalResult
ThreadRunner::runView(const Instruction &instruction, Lanes lanes) {
  Slot source = operand(instruction, 0), shift = operand(instruction, 1);
  Slot target = result(instruction, 0);
  Attribute owner = ObsDialect::OwnerAttrHelper(instruction.op->getContext())
                        .getAttr(instruction.op);
  IntegerAttr padding =
      ObsDialect::SharedPaddingAttrHelper(instruction.op->getContext())
          .getAttr(instruction.op);
  for (uint32_t lane : lanes) {
    if (!isPointerKnown(source, lane) || !isKnown(shift, lane))
      return instruction.op->emitOpError()
             << "views memory the analysis cannot follow";
    const Pointer &viewed = pointers[at(source, lane)];
    pointers[at(target, lane)] = {
        viewed.memory,
        viewed.byteOffset + static_cast<uint64_t>(valueOf(shift, lane)),
        owner ? owner : viewed.owner,
        padding ? static_cast<uint32_t>(padding.getInt()) : 0};
    pointerKnown[at(target, lane)] = 1;
  }
  return success();
}

LLVM_ATTRIBUTE_ALWAYS_INLINE LogicalResult
ThreadRunner::runSelectMemref(const Instruction &instruction, Lanes lanes) {
  Slot condition = operand(instruction, 0);
  Slot target = result(instruction, 0);
  for (uint32_t lane : lanes) {
    if (!isKnown(condition, lane))
      return instruction.op->emitOpError()
             << "chooses a buffer by a condition the analysis cannot "
                "follow";
    Slot chosen = operand(instruction, valueOf(condition, lane) ? 1 : 2);
    pointerKnown[at(target, lane)] = isPointerKnown(chosen, lane);
    if (isPointerKnown(chosen, lane))
      pointers[at(target, lane)] = pointers[at(chosen, lane)];
  }
  return success();
}

LLVM_ATTRIBUTE_ALWAYS_INLINE void
ThreadRunner::runRegisterRead(const Instruction &instruction, Lanes lanes) {
  Slot owner = operand(instruction, 0);
  const ThreadProgram::RegisterRead &read =
      program.registerReads[instruction.immediate];
  Slot element = read.element;
  // The owner is compared with the thread's own number: the check's
  // other operand is gpu.thread_id x, which is that number here. Within
  // a warp, the owner's warp with the thread's.
  std::vector<ShuffleRead> *checked = nullptr;
  if (read.withinWarp) {
    checked = &shuffleReads[read.sync];
    checked->resize(threads);
  }
  bool recorded = false;
  for (uint32_t lane : lanes) {
    int64_t computedBy = isKnown(owner, lane) ? valueOf(owner, lane) : -1;
    int64_t index = element != ThreadProgram::kNoSlot && isKnown(element, lane)
                        ? valueOf(element, lane)
                        : -1;
    if (checked)
      (*checked)[lane] = {computedBy, index, true};
    bool sameWarp =
        computedBy >= 0 && computedBy / kWarpLanes == lane / kWarpLanes;
    if (computedBy == int64_t(lane) || (read.withinWarp && sameWarp))
      continue;
    // Only the first wrong read of an array is kept; in registers, the
    // lanes after it are still asked whether one reads across warps.
    if (!recorded)
      recordRegisterViolation(
          read.withinWarp ? RegisterReadViolation::OtherWarp
                          : RegisterReadViolation::OtherThread,
          read.sync, instruction.op, lane, computedBy, index);
    recorded = true;
    if (read.withinWarp)
      break;
    if (!sameWarp) {
      noteReadAcrossWarps(read.sync);
      break;
    }
  }
  forgetResults(instruction, lanes);
}

LogicalResult ThreadRunner::runInstruction(const Instruction &instruction,
                                           Lanes lanes) {
  switch (instruction.step) {
  case Step::Nothing:
    return success();
  case Step::Unknown:
    forgetResults(instruction, lanes);
    return success();
  case Step::Constant:
    setEach(instruction, lanes,
            [&](uint32_t) { return instruction.immediate; });
    return success();
  case Step::Direct:
    runDirect(instruction, lanes);
    return success();
  case Step::IndexBounds:
    runDirect(instruction, lanes);
    return checkIndexBounds(instruction, lanes);
  case Step::Fold:
    runFold(instruction, lanes);
    return success();
  case Step::ThreadIdX:
    setEach(instruction, lanes, [](uint32_t lane) { return int64_t(lane); });
    return success();
  case Step::Zero:
    setEach(instruction, lanes, [](uint32_t) { return int64_t(0); });
    return success();
  case Step::BlockDimX:
    setEach(instruction, lanes, [&](uint32_t) { return int64_t(threads); });
    return success();
  case Step::One:
    setEach(instruction, lanes, [](uint32_t) { return int64_t(1); });
    return success();
  case Step::Barrier:
    for (uint32_t lane : lanes)
      passed[lane].push_back(instruction.op);
    return success();
  case Step::Load:
    return runLoad(instruction, lanes);
  case Step::Atomic:
    forgetResults(instruction, lanes);
    [[fallthrough]];
  case Step::Store:
    return runStore(instruction, lanes);
  case Step::View:
    return runView(instruction, lanes);
  case Step::SelectMemref:
    return runSelectMemref(instruction, lanes);
  case Step::RegisterRead:
    runRegisterRead(instruction, lanes);
    return success();
  case Step::Shuffle:
    return runShuffle(instruction, lanes);
  case Step::If:
    return runIf(instruction, lanes);
  case Step::For:
    return runFor(instruction, lanes);
  case Step::SkippedLoop:
    return skipLoop(instruction, program.skippedLoops[instruction.immediate],
                    lanes);
  case Step::DataLoop:
    return emitDataLoopError(instruction.op, "trip count depends on data");
  case Step::CannotFollow:
    return instruction.op->emitOpError()
           << "has regions the analysis cannot follow";
  case Step::UnseenEffects:
    return emitUnseenEffectsError(instruction.op);
  }
  llvm_unreachable("unknown step");
}

LogicalResult ThreadRunner::runIf(const Instruction &instruction, Lanes lanes) {
  const IfInstruction &ifInstruction = program.ifs[instruction.immediate];
  Slot condition = operand(instruction, 0);
  // A thread whose condition depends on data may take either branch, so it
  // runs both, and a barrier in either would be skipped by some threads.
  SmallVector<uint32_t> thenLanes, elseLanes;
  bool anyUnknown = false;
  for (uint32_t lane : lanes) {
    bool isKnownHere = isKnown(condition, lane);
    anyUnknown |= !isKnownHere;
    if (!isKnownHere || valueOf(condition, lane))
      thenLanes.push_back(lane);
    if (!isKnownHere || !valueOf(condition, lane))
      elseLanes.push_back(lane);
  }
  if (anyUnknown && ifInstruction.holdsBarrier)
    return instruction.op->emitOpError()
           << "holds a barrier under a condition that depends on data";
  bool branch = !ifInstruction.constantCondition;
  branches += branch;
  SmallVector<uint32_t> onData;
  for (uint32_t lane : lanes)
    if (!isKnown(condition, lane))
      onData.push_back(lane);
  for (uint32_t lane : onData)
    ++dataBranches[lane];
  llvm::scope_exit leave([&] {
    branches -= branch;
    for (uint32_t lane : onData)
      --dataBranches[lane];
  });
  if (!thenLanes.empty() && failed(runRange(ifInstruction.thenBegin,
                                            ifInstruction.thenEnd, thenLanes)))
    return failure();
  if (!elseLanes.empty() && failed(runRange(ifInstruction.elseBegin,
                                            ifInstruction.elseEnd, elseLanes)))
    return failure();
  // Results: what the branch a thread took yields; nothing is known of a
  // branch on data. Memrefs a branch yields are not followed.
  for (unsigned i = 0; i < instruction.numResults; ++i) {
    Slot target = result(instruction, i);
    if (target & kPointer) {
      forget(target, lanes);
      continue;
    }
    for (uint32_t lane : lanes) {
      known[at(target, lane)] = 0;
      if (!isKnown(condition, lane))
        continue;
      const SmallVector<Slot> &yields = valueOf(condition, lane)
                                            ? ifInstruction.thenYields
                                            : ifInstruction.elseYields;
      if (i < yields.size() && !(yields[i] & kPointer) &&
          isKnown(yields[i], lane))
        setInt(target, lane, valueOf(yields[i], lane));
    }
  }
  return success();
}

LogicalResult ThreadRunner::checkIndexBounds(const Instruction &instruction,
                                             Lanes lanes) {
  if (run.indexViolation)
    return success();
  Slot inside = result(instruction, 0), index = operand(instruction, 0),
       length = operand(instruction, 1);
  for (uint32_t lane : lanes) {
    if (!isKnown(inside, lane) || valueOf(inside, lane) ||
        dataBranches[lane] != 0)
      continue;
    run.indexViolation = {instruction.op, lane, valueOf(index, lane),
                          valueOf(length, lane)};
    return success();
  }
  return success();
}

void ThreadRunner::noteReadAcrossWarps(unsigned sync) {
  for (RegisterReadViolation &known : run.registerViolations)
    if (known.sync == sync)
      known.acrossWarps = true;
}

void ThreadRunner::recordRegisterViolation(RegisterReadViolation::Kind kind,
                                           unsigned sync, Operation *check,
                                           uint32_t lane, int64_t owner,
                                           int64_t element, int64_t source) {
  if (llvm::any_of(run.registerViolations,
                   [&](const RegisterReadViolation &known) {
                     return known.sync == sync;
                   }))
    return;
  run.registerViolations.push_back(
      {kind, check, lane, owner, element, sync, source});
}

/// The lane a shfl.sync of `kind` takes its value from, for lane `lane`
/// with source lane or offset `b` and packed clamp and segment mask `c`
/// (the PTX ISA's definition); the lane itself where the source is out of
/// its segment.
static int64_t shuffleSource(NVVM::ShflKind kind, int64_t lane, int64_t b,
                             int64_t c) {
  // Only the low five bits of the lane or offset count (bval = b[4:0]).
  b &= 0x1f;
  int64_t clamp = c & 0x1f, segmask = (c >> 8) & 0x1f;
  int64_t minLane = lane & segmask;
  int64_t maxLane = minLane | (clamp & ~segmask);
  int64_t source = lane;
  bool inside = false;
  switch (kind) {
  case NVVM::ShflKind::up:
    source = lane - b;
    inside = source >= maxLane;
    break;
  case NVVM::ShflKind::down:
    source = lane + b;
    inside = source <= maxLane;
    break;
  case NVVM::ShflKind::bfly:
    source = lane ^ b;
    inside = source <= maxLane;
    break;
  case NVVM::ShflKind::idx:
    source = minLane | (b & ~segmask & 0x1f);
    inside = source <= maxLane;
    break;
  }
  return inside ? source : lane;
}

LogicalResult ThreadRunner::runShuffle(const Instruction &instruction,
                                       Lanes lanes) {
  auto shuffle = cast<NVVM::ShflOp>(instruction.op);
  // What a lane receives is data, whether or not the shuffle is right: a
  // slot must not keep what it held before (a wrong shuffle is reported
  // after the run, and what follows it still runs).
  forgetResults(instruction, lanes);
  Slot mask = operand(instruction, 0), offset = operand(instruction, 2),
       clamp = operand(instruction, 3);
  auto wrong = [&](RegisterReadViolation::Kind kind, uint32_t lane,
                   int64_t source, int64_t owner = -1,
                   int64_t element = -1) -> LogicalResult {
    if (instruction.immediate < 0)
      return shuffle.emitOpError()
             << "is a shuffle that not every lane its mask names runs "
                "together with a value to give, so the analysis cannot "
                "prove the kernel safe";
    recordRegisterViolation(kind, instruction.immediate, instruction.op, lane,
                            owner, element, source);
    return success();
  };
  // The element each lane reads, by its check before the shuffle: its
  // owner must be the lane the shuffle takes from (whatever the kind),
  // except in a lane that computed the element itself where the read
  // keeps its own value (obs.own_lanes_kept): the shuffle's is not used.
  bool ownLanesKept =
      ObsDialect::OwnLanesKeptAttrHelper(instruction.op->getContext())
          .isAttrPresent(instruction.op);
  const std::vector<ShuffleRead> *checked = nullptr;
  if (instruction.immediate >= 0)
    if (auto found = shuffleReads.find(instruction.immediate);
        found != shuffleReads.end())
      checked = &found->second;
  // The lanes come in increasing order: each warp's are consecutive.
  for (size_t first = 0; first < lanes.size();) {
    size_t last = first;
    uint32_t warp = lanes[first] / kWarpLanes;
    uint64_t running = 0;
    while (last < lanes.size() && lanes[last] / kWarpLanes == warp)
      running |= uint64_t(1) << (lanes[last++] % kWarpLanes);
    for (uint32_t lane : lanes.slice(first, last - first)) {
      if (branches || loops || !isKnown(mask, lane) || !isKnown(offset, lane) ||
          !isKnown(clamp, lane) ||
          (uint64_t(valueOf(mask, lane)) & 0xffffffff) != running)
        return wrong(RegisterReadViolation::NotTogether, lane, -1);
      int64_t source =
          shuffleSource(shuffle.getKind(), lane % kWarpLanes,
                        valueOf(offset, lane), valueOf(clamp, lane));
      if (source < 0 || source >= int64_t(kWarpLanes) ||
          !(running >> source & 1))
        return wrong(RegisterReadViolation::NoSource, lane,
                     warp * kWarpLanes + source);
      if (instruction.immediate < 0)
        continue;
      // A read whose owner is unknown or in another warp is reported at
      // its check already.
      if (!checked || !(*checked)[lane].checked)
        return wrong(RegisterReadViolation::WrongLane, lane,
                     warp * kWarpLanes + source);
      const ShuffleRead &read = (*checked)[lane];
      if (ownLanesKept && read.owner == int64_t(lane))
        continue;
      if (read.owner >= 0 && read.owner / kWarpLanes == warp &&
          read.owner != int64_t(warp * kWarpLanes + source))
        return wrong(RegisterReadViolation::WrongLane, lane,
                     warp * kWarpLanes + source, read.owner, read.element);
    }
    first = last;
  }
  return success();
}

LogicalResult ThreadRunner::skipLoop(const Instruction &instruction,
                                     const SkippedAccesses &skipped,
                                     Lanes lanes) {
  // A loop that only computes from global memory and private scratch (a
  // fold over an input, a thread's tree, an escape loop) touches nothing
  // another thread can see: it is skipped, its results unknown, whatever
  // its trip count. Its reads of global memory still count, once each, as
  // reads of anywhere in their buffer: a launch whose output is a view of
  // its input must order them before the output's writes. Its register
  // read checks cannot be evaluated: each is a wrong read. Its ops are not
  // counted.
  run.opsSkipped |= !lanes.empty();
  if (!lanes.empty())
    for (uint32_t check : skipped.registerReads) {
      const ThreadProgram::RegisterRead &read = program.registerReads[check];
      recordRegisterViolation(read.withinWarp
                                  ? RegisterReadViolation::OtherWarp
                                  : RegisterReadViolation::OtherThread,
                              read.sync, read.check, lanes.front(),
                              /*owner=*/-1, /*element=*/-1);
      // Its owner is not known: no warp of it is.
      if (!read.withinWarp)
        noteReadAcrossWarps(read.sync);
    }
  for (uint32_t lane : lanes)
    for (auto [load, index] : skipped.loads) {
      const MemoryInstruction &read = program.memoryInstructions[index];
      if (isPointerKnown(read.memref, lane) &&
          failed(recordAccess(load, read, nullptr, lane, /*write=*/false,
                              /*wholeBuffer=*/true)))
        return failure();
    }
  forgetResults(instruction, lanes);
  return success();
}

/// Whether `counter` is below `upper` as `loop` compares its counter: in
/// its width (values are held sign-extended), signed or unsigned.
static bool isCounterBelow(const ForInstruction &loop, int64_t counter,
                           int64_t upper) {
  if (!loop.isUnsigned)
    return llvm::SignExtend64(counter, loop.width) <
           llvm::SignExtend64(upper, loop.width);
  uint64_t mask = llvm::maskTrailingOnes<uint64_t>(loop.width);
  return (uint64_t(counter) & mask) < (uint64_t(upper) & mask);
}

/// `counter` + `step` as `loop`'s lowered counter holds it (sign-extended
/// from its width), or none where the sum leaves the width's range: there
/// the lowered loop wraps.
static std::optional<int64_t> stepCounter(const ForInstruction &loop,
                                          int64_t counter, int64_t step) {
  unsigned width = loop.width;
  if (loop.isUnsigned) {
    uint64_t mask = llvm::maskTrailingOnes<uint64_t>(width);
    uint64_t from = uint64_t(counter) & mask;
    uint64_t sum = from + (uint64_t(step) & mask);
    if (sum < from || (sum & ~mask))
      return std::nullopt;
    return llvm::SignExtend64(sum, width);
  }
  int64_t sum;
  if (llvm::AddOverflow(llvm::SignExtend64(counter, width),
                        llvm::SignExtend64(step, width), sum) ||
      !llvm::isIntN(width, sum))
    return std::nullopt;
  return sum;
}

LogicalResult ThreadRunner::runFor(const Instruction &instruction,
                                   Lanes lanes) {
  const ForInstruction &loop = program.fors[instruction.immediate];
  // Running it would cost its whole trip count per thread.
  if (loop.skipped)
    return skipLoop(instruction, loop.whenSkipped, lanes);
  for (uint32_t lane : lanes)
    if (!isKnown(loop.lower, lane) || !isKnown(loop.upper, lane) ||
        !isKnown(loop.step, lane) ||
        (loop.isUnsigned ? valueOf(loop.step, lane) == 0
                         : valueOf(loop.step, lane) <= 0)) {
      // Bounds that depend on data: any number of iterations.
      if (loop.skippable)
        return skipLoop(instruction, loop.whenSkipped, lanes);
      // The run holds 64-bit values: a wider counter is never known, even
      // between constant bounds, and is said so.
      if (auto forOp = dyn_cast<scf::ForOp>(instruction.op)) {
        auto counter = dyn_cast<IntegerType>(forOp.getInductionVar().getType());
        if (counter && counter.getWidth() > 64)
          return emitDataLoopError(instruction.op,
                                   "counter is wider than the 64 bits the "
                                   "analysis holds");
      }
      return emitDataLoopError(instruction.op, "bounds depend on data");
    }
  // Each thread runs its own iterations; those still iterating run the
  // body together. Values a loop carries (a fold's accumulator, a rank) are
  // data: an access indexed by one counts as data-dependent.
  SmallVector<int64_t> counter;
  for (uint32_t lane : lanes)
    counter.push_back(valueOf(loop.lower, lane));
  SmallVector<uint32_t> iterating;
  ++loops;
  llvm::scope_exit leave([&] { --loops; });
  SmallVector<bool> ran(lanes.size());
  while (true) {
    iterating.clear();
    for (auto [index, lane] : llvm::enumerate(lanes)) {
      ran[index] =
          isCounterBelow(loop, counter[index], valueOf(loop.upper, lane));
      if (ran[index]) {
        iterating.push_back(lane);
        setInt(loop.inductionVar, lane, counter[index]);
      }
    }
    if (iterating.empty())
      break;
    loopIterations += iterating.size();
    if (loopIterations > kMaxLoopIterations)
      return tagError(instruction.op->emitError()
                          << "cannot prove the kernel safe: its loops run "
                             "more than the limit of "
                          << kMaxLoopIterations
                          << " iterations (over all of a block's threads) "
                             "that the analysis follows",
                      ErrorKind::CompilerLimit);
    for (Slot carried : loop.iterArgs)
      forget(carried, iterating);
    // The iteration's compare and branch.
    addWarpOps(phaseOf(iterating.front()), 2 * countWarps(iterating));
    if (failed(runRange(loop.bodyBegin, loop.bodyEnd, iterating)))
      return failure();
    for (auto [index, lane] : llvm::enumerate(lanes)) {
      if (!ran[index])
        continue;
      // A step past the counter's largest value wraps in the lowered loop,
      // which then goes on where MLIR's loop would stop.
      std::optional<int64_t> next =
          stepCounter(loop, counter[index], valueOf(loop.step, lane));
      if (!next)
        return tagError(instruction.op->emitOpError()
                            << "is a loop whose counter steps past the "
                               "largest value of its "
                            << loop.width << " bits in thread " << lane
                            << ", where its lowering wraps and goes on",
                        ErrorKind::UnsafeProgram);
      counter[index] = *next;
    }
  }
  forgetResults(instruction, lanes);
  return success();
}

/// A scatter without a combine writes each place at most once. Two of its
/// stores of one known place in shared memory by one thread, between the
/// same barriers, are two of its values sent there, whatever the plan: an
/// error at the store (the scatter's). Two by different threads are a
/// hazard of the stage, which findHazards reports with the stage.
static LogicalResult checkScatterWritesOfEachThread(const BlockRun &run) {
  llvm::DenseSet<std::tuple<unsigned, unsigned, uint64_t>> written;
  unsigned thread = ~0u;
  for (const Access &access : run.getAccesses()) {
    if (!access.write || !access.checkedScatter || access.element < 0 ||
        !run.getMemories()[access.memory].workgroup)
      continue;
    if (access.thread != thread) {
      written.clear();
      thread = access.thread;
    }
    if (written.insert({access.memory, access.phase, access.byteBegin}).second)
      continue;
    return tagError(mlir::emitError(access.op->getLoc())
                        << "'obs.scatter' op writes place " << access.element
                        << " twice in thread " << thread << " (warp "
                        << thread / kWarpLanes
                        << "): without a combine, each place is written at "
                           "most once",
                    ErrorKind::UnsafeProgram);
  }
  return success();
}

BlockRun
BlockRun::withBarrierKinds(llvm::function_ref<bool(unsigned)> isBlock) const {
  BlockRun rescoped = *this;
  for (auto [index, barrier] : llvm::enumerate(rescoped.barriers))
    barrier.block = isBlock(index);
  return rescoped;
}

BlockRun BlockRun::inCopy(const IRMapping &mapping) const {
  BlockRun copy = *this;
  for (Memory &memory : copy.memories)
    memory.root = mapping.lookup(memory.root);
  for (Access &access : copy.accesses)
    access.op = mapping.lookup(access.op);
  for (Barrier &barrier : copy.barriers)
    barrier.op = mapping.lookup(barrier.op);
  for (RegisterReadViolation &wrong : copy.registerViolations)
    wrong.check = mapping.lookup(wrong.check);
  if (copy.indexViolation)
    copy.indexViolation->check = mapping.lookup(copy.indexViolation->check);
  return copy;
}

SmallVector<unsigned> BlockRun::countBlockBarriersBefore() const {
  SmallVector<unsigned> before(barriers.size() + 1, 0);
  for (auto [index, barrier] : llvm::enumerate(barriers))
    before[index + 1] = before[index] + (barrier.block ? 1 : 0);
  return before;
}

FailureOr<BlockRun> BlockRun::simulate(gpu::GPUFuncOp kernel) {
  BlockRun run;
  std::optional<ArrayRef<int32_t>> blockSize = kernel.getKnownBlockSize();
  if (!blockSize)
    return kernel.emitOpError() << "needs known_block_size to be analysed";
  run.threads = (*blockSize)[0];

  ThreadProgram program(kernel);
  ThreadRunner runner(run, program);
  auto addMemory = [&](Value value, bool workgroup, Attribute owner,
                       uint32_t rowPadding) {
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type)
      return;
    runner.bindMemory(value, run.memories.size(), owner, rowPadding);
    run.memories.push_back({value, workgroup, getTotalBytes(type)});
  };
  for (unsigned i = 0, e = kernel.getArgumentTypes().size(); i < e; ++i)
    addMemory(kernel.getArgument(i), /*workgroup=*/false, {}, 0);
  MLIRContext *context = kernel.getContext();
  for (auto [index, buffer] :
       llvm::enumerate(kernel.getWorkgroupAttributions())) {
    auto padding =
        dyn_cast_or_null<IntegerAttr>(kernel.getWorkgroupAttributionAttr(
            index, ObsDialect::SharedPaddingAttrHelper(context).getName()));
    addMemory(buffer, /*workgroup=*/true,
              kernel.getWorkgroupAttributionAttr(
                  index, ObsDialect::OwnerAttrHelper(context).getName()),
              padding ? static_cast<uint32_t>(padding.getInt()) : 0);
  }

  if (failed(runner.runBody()))
    return failure();
  // Every thread must pass the same barriers in the same order.
  ArrayRef<Operation *> reference = runner.passed.front();
  for (Operation *op : reference)
    run.barriers.push_back({op, isa<gpu::BarrierOp>(op)});
  for (unsigned thread = 1; thread < run.threads; ++thread) {
    ArrayRef<Operation *> passed = runner.passed[thread];
    if (passed == reference)
      continue;
    // The first barrier where they part, or the first one only the
    // thread with more barriers passes.
    Operation *culprit = nullptr;
    for (auto [a, b] : llvm::zip(passed, reference))
      if (a != b) {
        culprit = a;
        break;
      }
    if (!culprit)
      culprit = passed.size() > reference.size() ? passed[reference.size()]
                                                 : reference[passed.size()];
    return culprit->emitOpError()
           << "is a barrier that threads 0 and " << thread
           << " do not pass alike: some threads could skip it";
  }
  // A read outside its array is the program's error, whatever the plan,
  // unless a read of an array in registers or shuffles went wrong first:
  // then the values after it are not the program's (a refinement takes
  // that choice back and runs again).
  if (run.indexViolation && run.registerViolations.empty()) {
    const IndexViolation &outside = *run.indexViolation;
    return tagError(mlir::emitError(outside.check->getLoc())
                        << "'obs.index' op reads index " << outside.index
                        << " of an array of " << outside.length
                        << " elements in thread " << outside.thread << " (warp "
                        << outside.thread / kWarpLanes
                        << "): the index is outside the array",
                    ErrorKind::UnsafeProgram);
  }
  if (failed(checkScatterWritesOfEachThread(run)))
    return failure();
  return run;
}
