//===- BlockCost.cpp - what a block run costs
//-------------------------------===//

#include "Obs/Analysis/BlockRun.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <array>
#include <numeric>

using namespace mlir;
using namespace mlir::obs;

/// For each access, the access that stands for it in the warp accesses:
/// itself, or the first of the accesses its thread makes between the same
/// two barriers to the same aligned 8- or 16-byte chunk of one buffer,
/// shared or global (all reads or all writes), which LLVM's load-store
/// vectorizer makes one vector access; a word read again there is not read
/// again. Shared buffers start at 16-byte boundaries, and so do the
/// pointers a launch passes (convert-obs-to-gpu's llvm.align).
static std::vector<uint32_t> findVectorAccesses(ArrayRef<Access> accesses) {
  std::vector<uint32_t> standsFor(accesses.size());
  std::iota(standsFor.begin(), standsFor.end(), 0);
  auto vectorizable = [&](const Access &access) {
    uint64_t bytes = access.byteEnd - access.byteBegin;
    return access.element >= 0 && !access.atomic &&
           (bytes == 4 || bytes == 8) && access.byteBegin % bytes == 0;
  };
  // A word by memory, direction and byte, as one integer: a word's first
  // access is then found by a binary search in a segment's sorted words,
  // where a hash map of tuples, cleared for every segment, made this most
  // of the cost model's time on a scan tile.
  auto wordKey = [](unsigned memory, bool write, uint64_t byte) {
    assert(memory < (1u << 15) && byte < (uint64_t(1) << 48) &&
           "a word's key holds its memory and byte");
    return (uint64_t(memory) << 49) | (uint64_t(write) << 48) | byte;
  };
  // The first access of each word of the segment, by key.
  std::vector<std::pair<uint64_t, uint32_t>> firstOfWord;
  auto find = [&](uint64_t key) -> std::optional<uint32_t> {
    auto it = llvm::lower_bound(firstOfWord, std::make_pair(key, uint32_t(0)));
    if (it == firstOfWord.end() || it->first != key)
      return std::nullopt;
    return it->second;
  };
  for (size_t begin = 0; begin < accesses.size();) {
    // The accesses of one thread between two barriers.
    size_t end = begin;
    while (end < accesses.size() &&
           accesses[end].thread == accesses[begin].thread &&
           accesses[end].phase == accesses[begin].phase)
      ++end;
    firstOfWord.clear();
    for (size_t i = begin; i < end; ++i)
      if (const Access &access = accesses[i]; vectorizable(access))
        firstOfWord.push_back(
            {wordKey(access.memory, access.write, access.byteBegin),
             static_cast<uint32_t>(i)});
    // By key, each word's first access first; the others go.
    llvm::sort(firstOfWord);
    firstOfWord.erase(std::unique(firstOfWord.begin(), firstOfWord.end(),
                                  [](const auto &a, const auto &b) {
                                    return a.first == b.first;
                                  }),
                      firstOfWord.end());
    for (size_t i = begin; i < end; ++i) {
      const Access &access = accesses[i];
      if (!vectorizable(access))
        continue;
      uint64_t bytes = access.byteEnd - access.byteBegin;
      // The earliest access of each word of the chunk of `chunkBytes`
      // around this one, if the thread accesses all of them.
      auto chunkLeader = [&](uint64_t chunkBytes) -> std::optional<uint32_t> {
        uint64_t first = access.byteBegin / chunkBytes * chunkBytes;
        uint32_t leader = ~uint32_t(0);
        for (uint64_t byte = first; byte < first + chunkBytes; byte += bytes) {
          std::optional<uint32_t> word =
              find(wordKey(access.memory, access.write, byte));
          if (!word || accesses[*word].byteEnd - byte != bytes)
            return std::nullopt;
          leader = std::min(leader, *word);
        }
        return leader;
      };
      if (std::optional<uint32_t> leader = chunkLeader(16))
        standsFor[i] = *leader;
      else if (std::optional<uint32_t> leader =
                   bytes == 4 ? chunkLeader(8) : std::nullopt)
        standsFor[i] = *leader;
      else
        standsFor[i] =
            *find(wordKey(access.memory, access.write, access.byteBegin));
    }
    begin = end;
  }
  return standsFor;
}

SmallVector<BlockCost> mlir::obs::computePhaseCosts(const BlockRun &run,
                                                    unsigned warpSize) {
  return computePhaseCosts(run, run.getAccesses(), warpSize);
}

namespace {
/// Counts a run's warp accesses and what they cost, a warp at a time.
///
/// The k-th execution of an op by a thread: its warp access is the k-th of
/// the op by the thread's warp. An access another stands for joins that
/// one's warp access; where it does so in every thread of the warp, the
/// warp no longer issues its own. (Every count is a sum, whatever the
/// order.) The run's accesses are in thread order (BlockRun::getAccesses),
/// so each warp's are adjacent: they are counted a warp at a time, in
/// arrays of one warp's slots, which stay in the cache, and the executions
/// of an op one thread at a time.
///
/// Each access's op has a dense number, and the k-th execution of an op by
/// a warp's threads a dense slot (`firstSlot` of the op plus k), so that
/// the counts index arrays: three hash lookups per access made this the
/// hottest function of a scan tile's refinement.
class WarpAccessCounter {
public:
  WarpAccessCounter(const BlockRun &run, ArrayRef<Access> accesses,
                    SmallVector<BlockCost> &phases)
      : run(run), accesses(accesses), phases(phases),
        standsFor(findVectorAccesses(accesses)), opOf(accesses.size()),
        execution(accesses.size()) {
    llvm::DenseMap<Operation *, uint32_t> opNumbers;
    for (auto [index, access] : llvm::enumerate(accesses))
      opOf[index] =
          opNumbers.try_emplace(access.op, opNumbers.size()).first->second;
    executionsInThread.assign(opNumbers.size(), 0);
    mostExecutions.assign(opNumbers.size(), 0);
    firstSlot.assign(opNumbers.size(), 0);
  }

  /// Counts the accesses [begin, end), all the accesses of one warp.
  void countWarp(size_t begin, size_t end) {
    uint32_t slots = numberExecutions(begin, end);
    collectWarpAccesses(begin, end, slots);
    for (const WarpAccess &warp : warpAccesses)
      addCost(warp);
    // The warps no longer issue the accesses a vector access took in.
    for (uint32_t slot = 0; slot < slots; ++slot) {
      BlockCost &cost = phases[slotPhase[slot]];
      if (seen[slot] && !issuedAlone[slot] && cost.warpOps)
        --cost.warpOps;
    }
  }

private:
  struct WarpAccess {
    bool workgroup = false;
    bool counted = true;
    unsigned phase = 0;
    /// Its accesses' bytes: a range of `spans`, once they are bucketed.
    uint32_t firstSpan = 0, numSpans = 0;
  };
  static constexpr uint32_t kNone = ~uint32_t(0);

  uint32_t slotOf(size_t index) const {
    return firstSlot[opOf[index]] + execution[index];
  }

  /// Numbers each access's execution of its op by its thread (the accesses
  /// of a thread are adjacent, in its program order), and gives the warp's
  /// executions their slots; returns how many.
  uint32_t numberExecutions(size_t begin, size_t end) {
    opsOfWarp.clear();
    size_t threadBegin = begin;
    auto endThread = [&](size_t threadEnd) {
      for (size_t index = threadBegin; index < threadEnd; ++index)
        executionsInThread[opOf[index]] = 0;
      threadBegin = threadEnd;
    };
    for (size_t index = begin; index < end; ++index) {
      if (accesses[index].thread != accesses[threadBegin].thread)
        endThread(index);
      uint32_t op = opOf[index];
      execution[index] = executionsInThread[op]++;
      if (mostExecutions[op] == 0)
        opsOfWarp.push_back(op);
      mostExecutions[op] = std::max(mostExecutions[op], execution[index] + 1);
    }
    endThread(end);
    uint32_t slots = 0;
    for (uint32_t op : opsOfWarp) {
      firstSlot[op] = slots;
      slots += mostExecutions[op];
      mostExecutions[op] = 0;
    }
    return slots;
  }

  /// Per slot: whether some thread issues it alone, the phase of its first
  /// access, and its warp access. The warp accesses are numbered in the
  /// order they are met, and the byte ranges of their threads' accesses
  /// bucketed by warp access (a counting sort: a warp access's ranges are
  /// read together, and a vector of its own for each was an allocation per
  /// warp access).
  void collectWarpAccesses(size_t begin, size_t end, uint32_t slots) {
    issuedAlone.assign(slots, 0);
    slotPhase.assign(slots, 0);
    warpAccessOfSlot.assign(slots, kNone);
    seen.assign(slots, 0);
    warpAccesses.clear();
    for (size_t index = begin; index < end; ++index) {
      uint32_t slot = slotOf(index);
      if (!seen[slot]) {
        seen[slot] = 1;
        slotPhase[slot] = accesses[index].phase;
      }
      issuedAlone[slot] |= standsFor[index] == index;
    }
    warpAccessOfAccess.resize(end - begin);
    for (size_t index = begin; index < end; ++index) {
      const Access &access = accesses[index];
      uint32_t &number = warpAccessOfSlot[slotOf(standsFor[index])];
      if (number == kNone) {
        number = warpAccesses.size();
        warpAccesses.push_back({false, true, access.phase});
      }
      WarpAccess &warp = warpAccesses[number];
      warp.workgroup = run.getMemories()[access.memory].workgroup;
      if (access.element < 0)
        warp.counted = false;
      ++warp.numSpans;
      warpAccessOfAccess[index - begin] = number;
    }
    uint32_t next = 0;
    for (WarpAccess &warp : warpAccesses) {
      warp.firstSpan = next;
      next += warp.numSpans;
      warp.numSpans = 0;
    }
    spans.resize(end - begin);
    for (size_t index = begin; index < end; ++index) {
      WarpAccess &warp = warpAccesses[warpAccessOfAccess[index - begin]];
      spans[warp.firstSpan + warp.numSpans++] = {accesses[index].byteBegin,
                                                 accesses[index].byteEnd};
    }
  }

  /// The distinct units of `unitBytes` bytes that a warp access touches.
  ArrayRef<uint64_t> touchedUnits(const WarpAccess &warp, uint64_t unitBytes) {
    units.clear();
    for (auto [begin, end] :
         ArrayRef(spans).slice(warp.firstSpan, warp.numSpans))
      for (uint64_t unit = begin / unitBytes; unit * unitBytes < end; ++unit)
        units.push_back(unit);
    llvm::sort(units);
    units.erase(std::unique(units.begin(), units.end()), units.end());
    return units;
  }

  void addCost(const WarpAccess &warp) {
    BlockCost &cost = phases[warp.phase];
    if (!warp.counted) {
      ++cost.uncounted;
      return;
    }
    if (!warp.workgroup) {
      ++cost.globalAccesses;
      cost.globalLines += touchedUnits(warp, 128).size();
      return;
    }
    // Distinct words per bank; the most used bank serialises the access.
    std::array<uint64_t, 32> wordsInBank = {};
    ArrayRef<uint64_t> words = touchedUnits(warp, 4);
    for (uint64_t word : words)
      ++wordsInBank[word % 32];
    // A wavefront moves one word from each bank at most: 128 bytes.
    cost.sharedLeastWavefronts += std::max<uint64_t>(
        1, llvm::divideCeil(words.size(), wordsInBank.size()));
    ++cost.sharedAccesses;
    cost.sharedWavefronts +=
        *std::max_element(wordsInBank.begin(), wordsInBank.end());
  }

  const BlockRun &run;
  ArrayRef<Access> accesses;
  SmallVector<BlockCost> &phases;
  std::vector<uint32_t> standsFor, opOf, execution;
  /// Per op: the executions of the thread being counted, the most of any
  /// thread of the warp, and the op's first slot.
  std::vector<uint32_t> executionsInThread, mostExecutions, firstSlot;
  SmallVector<uint32_t> opsOfWarp;
  std::vector<uint8_t> seen, issuedAlone;
  std::vector<unsigned> slotPhase;
  std::vector<uint32_t> warpAccessOfSlot, warpAccessOfAccess;
  std::vector<WarpAccess> warpAccesses;
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  SmallVector<uint64_t> units;
};
} // namespace

SmallVector<BlockCost> mlir::obs::computePhaseCosts(const BlockRun &run,
                                                    ArrayRef<Access> accesses,
                                                    unsigned warpSize) {
  ArrayRef<Barrier> barriers = run.getBarriers();
  SmallVector<BlockCost> phases(barriers.size() + 1);
  for (auto [phase, barrier] : llvm::enumerate(barriers))
    ++(barrier.block ? phases[phase].blockBarriers
                     : phases[phase].warpBarriers);
  for (auto [phase, cost] : llvm::enumerate(phases)) {
    cost.warpOps = run.getWarpOpsIssued(phase);
    cost.opsSkipped = run.skippedOps();
  }
  assert(llvm::is_sorted(accesses,
                         [](const Access &a, const Access &b) {
                           return a.thread < b.thread;
                         }) &&
         "a run's accesses are in thread order");
  WarpAccessCounter counter(run, accesses, phases);
  for (size_t begin = 0; begin < accesses.size();) {
    unsigned warp = accesses[begin].thread / warpSize;
    size_t end = begin + 1;
    while (end < accesses.size() && accesses[end].thread / warpSize == warp)
      ++end;
    counter.countWarp(begin, end);
    begin = end;
  }
  return phases;
}

BlockCost mlir::obs::computeBlockCost(const BlockRun &run, unsigned warpSize) {
  return computeBlockCost(run, run.getAccesses(), warpSize);
}

BlockCost mlir::obs::computeBlockCost(const BlockRun &run,
                                      ArrayRef<Access> accesses,
                                      unsigned warpSize) {
  BlockCost total;
  total.opsSkipped = run.skippedOps();
  for (const BlockCost &phase : computePhaseCosts(run, accesses, warpSize))
    total += phase;
  return total;
}
