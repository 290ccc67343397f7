//===- BlockAccesses.cpp - where one thread's access of memory lands ------===//
//
// The block run's record of each load, store and atomic (ThreadRunner,
// BlockRun.cpp): the element and bytes it touches in its memory, anywhere
// in its buffer where its place depends on data, and the program's error
// where a thread that runs it places it outside its shared memref.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/ErrorKinds.h"
#include "ThreadRunner.h"

#include <cstring>

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::block_run;

static constexpr uint32_t kWarpLanes = KernelOp::kWarpSize;

LogicalResult ThreadRunner::checkUntrackedPlace(
    Operation *op, const MemoryInstruction &memoryAccess, const Slot *indices,
    uint32_t lane, bool write) {
  // Where a branch on data sent the thread both ways, it may not be there.
  if (dataBranches[lane] != 0)
    return success();
  ArrayRef<int64_t> shape = memoryAccess.shape;
  for (unsigned i = 0; i < shape.size(); ++i) {
    if (!isKnown(indices[i], lane))
      continue;
    int64_t value = valueOf(indices[i], lane);
    if (value >= 0 && (ShapedType::isDynamic(shape[i]) || value < shape[i]))
      continue;
    InFlightDiagnostic diag = op->emitOpError();
    diag << (write ? "writes" : "reads") << " outside its memref in thread "
         << lane << " (warp " << lane / kWarpLanes << "), at index " << value;
    if (shape.size() > 1)
      diag << " of dimension " << i;
    if (!ShapedType::isDynamic(shape[i]))
      diag << " of " << shape[i];
    return tagError(diag, ErrorKind::UnsafeProgram);
  }
  return success();
}

LogicalResult ThreadRunner::recordAccess(Operation *op,
                                         const MemoryInstruction &memoryAccess,
                                         const Slot *indices, uint32_t lane,
                                         bool write, bool wholeBuffer) {
  if (!isPointerKnown(memoryAccess.memref, lane)) {
    // Memory no other thread sees: the thread's own scratch, or a constant
    // table it only reads. Any other is memory the proof cannot follow.
    UntrackedMemory kind = memoryAccess.untracked;
    if (kind == UntrackedMemory::Private ||
        (kind == UntrackedMemory::Constant && !write))
      return wholeBuffer
                 ? success()
                 : checkUntrackedPlace(op, memoryAccess, indices, lane, write);
    return op->emitOpError()
           << (write ? "writes" : "reads")
           << " memory that is neither the kernel's arguments, its shared "
              "buffers, a thread's own scratch nor a constant table, so the "
              "analysis cannot prove the kernel safe";
  }
  // While the accesses are placed by thread, they fit the log's places,
  // which are at most the limit.
  if (!placedByLane && log.size() == BlockRun::kMaxAccesses)
    return tagError(op->emitError()
                        << "cannot prove the kernel safe: one block makes "
                           "more than the limit of "
                        << BlockRun::kMaxAccesses
                        << " memory accesses that the analysis follows",
                    ErrorKind::CompilerLimit);
  const Pointer &pointer = pointers[at(memoryAccess.memref, lane)];
  Access access{static_cast<unsigned>(passed[lane].size()),
                lane,
                order[lane]++,
                write,
                memoryAccess.atomic,
                memoryAccess.checkedScatter,
                memoryAccess.atomicKind,
                pointer.memory,
                /*byteBegin=*/0,
                /*byteEnd=*/0,
                /*element=*/-1,
                op,
                pointer.owner};
  // Row-major linearisation of the indices, when they are all known (and
  // every extent but the first is static, which the linearisation needs).
  int64_t linear = 0;
  bool allKnown = !wholeBuffer, outside = false;
  ArrayRef<int64_t> shape = memoryAccess.shape;
  for (unsigned i = 0; allKnown && i < shape.size(); ++i) {
    Slot index = indices[i];
    if (!isKnown(index, lane) || (i > 0 && ShapedType::isDynamic(shape[i]))) {
      allKnown = false;
      continue;
    }
    int64_t value = valueOf(index, lane);
    outside |=
        value < 0 || (!ShapedType::isDynamic(shape[i]) && value >= shape[i]);
    linear = linear * shape[i] + value;
  }
  // Shared memory is the block's to prove; global memory's places are the
  // launch proof's.
  const Memory &memory = run.memories[pointer.memory];
  bool shared = memory.workgroup;
  // An index outside its memref: the program's error (a negative place
  // crashed the hazard search, hunt 28), or where a branch on data sent the
  // thread both ways, where it lands, or anywhere outside its memory.
  bool anywhereInMemory = false;
  if (allKnown && outside && shared) {
    if (dataBranches[lane] == 0)
      return tagError(op->emitOpError()
                          << (write ? "writes" : "reads")
                          << " outside its memref in thread " << lane
                          << " (warp " << lane / kWarpLanes << "), at place "
                          << linear,
                      ErrorKind::UnsafeProgram);
    __int128 begin = __int128(pointer.byteOffset) +
                     __int128(linear) * memoryAccess.elementBytes;
    if (begin < 0 || begin + memoryAccess.elementBytes > memory.bytes) {
      allKnown = false;
      anywhereInMemory = true;
    }
  }
  if (allKnown) {
    // In a padded buffer, the element is the array's: its rows are
    // `rowPadding` shorter than the memref's.
    access.element = linear;
    if (int64_t padding = pointer.rowPadding;
        padding && memoryAccess.shape.size() >= 2) {
      int64_t width = memoryAccess.shape.back();
      access.element = linear / width * (width - padding) + linear % width;
    }
    access.byteBegin = pointer.byteOffset + linear * memoryAccess.elementBytes;
    access.byteEnd = access.byteBegin + memoryAccess.elementBytes;
  } else {
    // Anywhere in the buffer this memref views: to its memory's end where
    // its extents are known only at run time (their product counted no
    // bytes, and a view of run-time size hid its threads' races, hunt 28).
    run.dataDependent |= !wholeBuffer;
    access.byteBegin = anywhereInMemory ? 0 : pointer.byteOffset;
    access.byteEnd = shared && (anywhereInMemory ||
                                llvm::is_contained(shape, ShapedType::kDynamic))
                         ? memory.bytes
                         : access.byteBegin + memoryAccess.numElements *
                                                  memoryAccess.elementBytes;
  }
  // A memref past its memory's end (a view the proof does not bound): the
  // program's error, or anywhere in it under a branch on data (hunt 29).
  if (shared &&
      (access.byteBegin > access.byteEnd || access.byteEnd > memory.bytes)) {
    if (dataBranches[lane] == 0)
      return tagError(op->emitOpError()
                          << (write ? "writes" : "reads") << " bytes "
                          << access.byteBegin << " to " << access.byteEnd
                          << " of a buffer of " << memory.bytes
                          << " bytes in thread " << lane,
                      ErrorKind::UnsafeProgram);
    access.byteBegin = 0;
    access.byteEnd = memory.bytes;
    access.element = -1;
  }
  appendAccess(access);
  return success();
}

void ThreadRunner::appendAccess(const Access &access) {
  if (placedByLane) {
    // access.order is how many accesses the thread made before this one.
    if (access.order < laneCapacity) {
      log[access.thread * laneCapacity + access.order] = access;
      return;
    }
    closeLaneGaps();
  }
  log.push_back(access);
}

void ThreadRunner::closeLaneGaps() {
  assert(placedByLane && "the accesses are placed by thread");
  placedByLane = false;
  // Each thread's accesses move down to follow the threads' before; a
  // place is only ever moved to one at or below it.
  uint64_t end = 0;
  for (uint32_t lane = 0; lane < threads; ++lane) {
    uint64_t count = std::min<uint64_t>(order[lane], laneCapacity);
    if (end != lane * laneCapacity)
      std::memmove(&log[end], &log[lane * laneCapacity],
                   count * sizeof(Access));
    end += count;
  }
  log.resize(end);
}
