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
  // The first access of each word, by memory, direction and byte.
  llvm::DenseMap<std::tuple<unsigned, unsigned, uint64_t>, uint32_t>
      firstOfWord;
  for (size_t begin = 0; begin < accesses.size();) {
    // The accesses of one thread between two barriers.
    size_t end = begin;
    while (end < accesses.size() &&
           accesses[end].thread == accesses[begin].thread &&
           accesses[end].phase == accesses[begin].phase)
      ++end;
    firstOfWord.clear();
    auto vectorizable = [&](const Access &access) {
      uint64_t bytes = access.byteEnd - access.byteBegin;
      return access.element >= 0 && !access.atomic &&
             (bytes == 4 || bytes == 8) && access.byteBegin % bytes == 0;
    };
    for (size_t i = begin; i < end; ++i)
      if (vectorizable(accesses[i]))
        firstOfWord.try_emplace({accesses[i].memory,
                                 unsigned(accesses[i].write),
                                 accesses[i].byteBegin},
                                i);
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
          auto it =
              firstOfWord.find({access.memory, unsigned(access.write), byte});
          if (it == firstOfWord.end() ||
              accesses[it->second].byteEnd - byte != bytes)
            return std::nullopt;
          leader = std::min(leader, it->second);
        }
        return leader;
      };
      if (std::optional<uint32_t> leader = chunkLeader(16))
        standsFor[i] = *leader;
      else if (std::optional<uint32_t> leader =
                   bytes == 4 ? chunkLeader(8) : std::nullopt)
        standsFor[i] = *leader;
      else
        standsFor[i] = firstOfWord.lookup(
            {access.memory, unsigned(access.write), access.byteBegin});
    }
    begin = end;
  }
  return standsFor;
}

SmallVector<BlockCost> mlir::obs::computePhaseCosts(const BlockRun &run,
                                                    unsigned warpSize) {
  return computePhaseCosts(run, run.getAccesses(), warpSize);
}

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
  std::vector<uint32_t> standsFor = findVectorAccesses(accesses);
  // The k-th execution of an op by a thread: its warp access is the k-th of
  // the op by the thread's warp. An access another stands for joins that
  // one's warp access; where it does so in every thread of the warp, the
  // warp no longer issues its own. (Hash maps: a block sort's run has a
  // million accesses, and every count below is a sum, whatever the order.)
  // The run's accesses are in thread order (BlockRun::getAccesses), so
  // each warp's are adjacent: they are counted a warp at a time, in maps
  // of one warp's accesses, which stay in the cache, and the executions of
  // an op one thread at a time.
  assert(llvm::is_sorted(accesses,
                         [](const Access &a, const Access &b) {
                           return a.thread < b.thread;
                         }) &&
         "a run's accesses are in thread order");
  std::vector<uint64_t> execution(accesses.size());
  // An op's execution by one warp: the op and the how-manyth.
  using OpExecution = std::pair<Operation *, uint64_t>;
  struct WarpAccess {
    bool workgroup = false;
    bool counted = true;
    unsigned phase = 0;
    /// Its accesses' bytes: a range of `spans`, once they are bucketed.
    uint32_t firstSpan = 0, numSpans = 0;
  };
  llvm::DenseMap<Operation *, uint64_t> executions;
  // Per warp access: whether some thread issues it alone, and its phase.
  llvm::DenseMap<OpExecution, std::pair<bool, unsigned>> issuedAlone;
  // The warp accesses, numbered in the order they are met, and the byte
  // ranges of their threads' accesses, bucketed by warp access (a counting
  // sort: a warp access's ranges are read together, and a vector of its
  // own for each was an allocation per warp access).
  llvm::DenseMap<OpExecution, uint32_t> warpAccessOf;
  std::vector<WarpAccess> warpAccesses;
  std::vector<uint32_t> warpAccessOfAccess;
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  // The distinct units of `unitBytes` bytes that a warp access touches.
  SmallVector<uint64_t> units;
  auto touchedUnits = [&](const WarpAccess &warp, uint64_t unitBytes) {
    units.clear();
    for (auto [begin, end] :
         ArrayRef(spans).slice(warp.firstSpan, warp.numSpans))
      for (uint64_t unit = begin / unitBytes; unit * unitBytes < end; ++unit)
        units.push_back(unit);
    llvm::sort(units);
    units.erase(std::unique(units.begin(), units.end()), units.end());
    return ArrayRef<uint64_t>(units);
  };
  // Counts the accesses [begin, end), all the accesses of one warp.
  auto count = [&](size_t begin, size_t end) {
    executions.clear();
    issuedAlone.clear();
    warpAccessOf.clear();
    warpAccesses.clear();
    unsigned countedThread = accesses[begin].thread;
    for (size_t index = begin; index < end; ++index) {
      const Access &access = accesses[index];
      if (access.thread != countedThread) {
        executions.clear();
        countedThread = access.thread;
      }
      execution[index] = executions[access.op]++;
      auto [it, inserted] = issuedAlone.try_emplace(
          {access.op, execution[index]}, false, access.phase);
      it->second.first |= standsFor[index] == index;
    }
    warpAccessOfAccess.resize(end - begin);
    for (size_t index = begin; index < end; ++index) {
      const Access &access = accesses[index];
      const Access &leader = accesses[standsFor[index]];
      auto [it, inserted] = warpAccessOf.try_emplace(
          {leader.op, execution[standsFor[index]]}, warpAccesses.size());
      if (inserted)
        warpAccesses.push_back({false, true, access.phase});
      WarpAccess &warp = warpAccesses[it->second];
      warp.workgroup = run.getMemories()[access.memory].workgroup;
      if (access.element < 0)
        warp.counted = false;
      ++warp.numSpans;
      warpAccessOfAccess[index - begin] = it->second;
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
    for (const WarpAccess &warp : warpAccesses) {
      BlockCost &cost = phases[warp.phase];
      if (!warp.counted) {
        ++cost.uncounted;
        continue;
      }
      if (warp.workgroup) {
        // Distinct words per bank; the most used bank serialises the
        // access.
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
        continue;
      }
      ++cost.globalAccesses;
      cost.globalLines += touchedUnits(warp, 128).size();
    }
    // The warps no longer issue the accesses a vector access took in.
    for (auto &[key, entry] : issuedAlone) {
      BlockCost &cost = phases[entry.second];
      if (!entry.first && cost.warpOps)
        --cost.warpOps;
    }
  };
  for (size_t begin = 0; begin < accesses.size();) {
    unsigned warp = accesses[begin].thread / warpSize;
    size_t end = begin + 1;
    while (end < accesses.size() && accesses[end].thread / warpSize == warp)
      ++end;
    count(begin, end);
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
