//===- BlockHazards.cpp - races among the accesses of a block run
//-----------===//

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/IntegerEvaluation.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/StableSort.h"
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

namespace {
/// The search for races in a block run's shared memories: every pair of
/// accesses of different threads (or one thread's read of what its own
/// stage wrote) to one place, in one epoch (between the same two block
/// barriers), that no barrier orders.
class SharedHazardSearch {
public:
  SharedHazardSearch(const BlockRun &run, unsigned warpSize, unsigned limit)
      : run(run), accesses(run.getAccesses()),
        blockBarriersBefore(run.countBlockBarriersBefore()), warpSize(warpSize),
        warpShift(llvm::Log2_32(warpSize)),
        powerOfTwo(llvm::isPowerOf2_32(warpSize)), limit(limit) {}

  SmallVector<Hazard> search();

private:
  struct Candidate {
    unsigned write, other;
    Hazard::Kind kind;
    const Access *first, *second;
  };

  bool sameWarp(unsigned a, unsigned b) const {
    // A warp is a power of two threads (32): its index is a shift.
    return powerOfTwo ? (a >> warpShift) == (b >> warpShift)
                      : a / warpSize == b / warpSize;
  }
  /// A block barrier between phases a < b orders everything; any barrier
  /// orders threads of one warp.
  bool ordered(const Access &a, const Access &b) const {
    if (a.phase == b.phase)
      return false;
    const Access &early = a.phase < b.phase ? a : b;
    const Access &late = a.phase < b.phase ? b : a;
    if (blockBarriersBefore[late.phase] - blockBarriersBefore[early.phase] > 0)
      return true;
    return sameWarp(early.thread, late.thread);
  }
  /// Accesses with a block barrier between them are ordered: only those
  /// between the same two block barriers (of one epoch) can race.
  unsigned epochOf(unsigned index) const {
    return blockBarriersBefore[accesses[index].phase];
  }
  /// Searches one memory's accesses (`indices`, in order); returns whether
  /// the limit is reached.
  bool searchMemory(ArrayRef<unsigned> indices);
  /// Judges the accesses that cover one place, which begins at `byte`,
  /// given by epoch and in access order within an epoch; returns whether
  /// the limit is reached.
  bool judge(uint64_t byte, ArrayRef<unsigned> indices);
  /// Adds to `candidates` the races among `group`, the accesses of one
  /// epoch that cover the place at `byte`.
  void judgeEpoch(uint64_t byte, ArrayRef<unsigned> group);
  /// Reports `candidates` not reported yet; returns whether the limit is
  /// reached.
  bool reportCandidates();
  /// What one report stands for: one pair of ops and phases is enough.
  static std::pair<unsigned, unsigned> reportKey(const Access &first,
                                                 const Access &second) {
    return {static_cast<unsigned>(reinterpret_cast<uintptr_t>(first.op) ^
                                  (second.phase << 8)),
            static_cast<unsigned>(reinterpret_cast<uintptr_t>(second.op) ^
                                  first.phase)};
  }

  const BlockRun &run;
  ArrayRef<Access> accesses;
  SmallVector<unsigned> blockBarriersBefore;
  unsigned warpSize, warpShift;
  bool powerOfTwo;
  unsigned limit;
  SmallVector<Hazard> hazards;
  llvm::DenseSet<std::pair<unsigned, unsigned>> reported;
  SmallVector<Candidate> candidates;
  /// A place's accesses of one epoch, by whether they begin at the place
  /// (lists 0, 1) or before it (2, 3), and whether they are atomics (1, 3).
  std::array<SmallVector<unsigned>, 4> partners;
};
} // namespace

SmallVector<Hazard> SharedHazardSearch::search() {
  // The accesses of each shared memory, in order, by memory.
  std::map<unsigned, std::vector<unsigned>> byMemory;
  for (auto [index, access] : llvm::enumerate(accesses))
    if (run.getMemories()[access.memory].workgroup)
      byMemory[access.memory].push_back(index);
  for (auto &[memory, indices] : byMemory)
    if (searchMemory(indices))
      break;
  return std::move(hazards);
}

bool SharedHazardSearch::judge(uint64_t byte, ArrayRef<unsigned> indices) {
  // A pair is judged once, at the first byte both access: the byte where
  // the later-starting one begins. The verdict does not depend on the
  // byte, and an access whose index the simulation could not tell spans
  // its whole buffer, so judging at every byte they share would make the
  // work its size times the square of the accesses.
  candidates.clear();
  for (size_t groupBegin = 0; groupBegin < indices.size();) {
    unsigned epoch = epochOf(indices[groupBegin]);
    size_t groupEnd = groupBegin + 1;
    while (groupEnd < indices.size() && epochOf(indices[groupEnd]) == epoch)
      ++groupEnd;
    judgeEpoch(byte, indices.slice(groupBegin, groupEnd - groupBegin));
    groupBegin = groupEnd;
  }
  return reportCandidates();
}

void SharedHazardSearch::judgeEpoch(uint64_t byte, ArrayRef<unsigned> group) {
  // A partner that begins before this place met a write at an earlier
  // one, unless the write itself begins here; and atomics commute. So
  // each write looks only at the partners it can race with here: a
  // histogram's atomics at unknown places, which span their buffer,
  // would otherwise be judged against each other at every place.
  for (SmallVector<unsigned> &list : partners)
    list.clear();
  // Atomics of one kind commute; of two kinds (an add and a max of one
  // place) they do not, which is rare enough to judge pair by pair.
  std::optional<uint8_t> atomicKind;
  bool mixedAtomics = false;
  for (unsigned x : group) {
    const Access &access = accesses[x];
    unsigned list =
        (access.byteBegin == byte ? 0 : 2) + (access.atomic ? 1 : 0);
    partners[list].push_back(x);
    if (access.atomic) {
      mixedAtomics |= atomicKind && *atomicKind != access.atomicKind;
      atomicKind = access.atomicKind;
    }
  }
  for (unsigned w : group) {
    const Access &write = accesses[w];
    if (!write.write)
      continue;
    bool beginsHere = write.byteBegin == byte;
    for (unsigned list = 0; list < 4; ++list) {
      // Lists 0 and 1 begin here, 1 and 3 are atomics, which commute
      // with an atomic write of their kind.
      if ((list >= 2 && !beginsHere) ||
          (list % 2 == 1 && write.atomic && !mixedAtomics))
        continue;
      for (unsigned x : partners[list]) {
        if (x == w)
          continue;
        const Access &other = accesses[x];
        if (write.atomic && other.atomic &&
            write.atomicKind == other.atomicKind)
          continue;
        if (other.write && x < w)
          continue; // Each pair of writes once.
        const Access *first = &write, *second = &other;
        if (other.phase < write.phase ||
            (other.phase == write.phase && other.thread == write.thread &&
             other.order < write.order))
          std::swap(first, second);
        // A scatter's stores at places the run could not tell are
        // checked as the program runs. (Stores into one scatter's
        // buffer are that scatter's: one op per unrolled round.)
        if (first->checkedScatter && second->checkedScatter &&
            first->owner == second->owner &&
            (first->element < 0 || second->element < 0))
          continue;
        if (first->phase == second->phase && first->thread == second->thread) {
          // One thread's own order: only reading what this stage wrote is
          // wrong (the stage must read earlier stages' values).
          if (!(first->write && !second->write))
            continue;
        } else if (ordered(*first, *second)) {
          continue;
        }
        // A race reported at an earlier place is not reported again (one
        // report per pair of ops and phases): a wrong trial choice races at
        // every element, and refineSyncs asks for all the races.
        if (reported.contains(reportKey(*first, *second)))
          continue;
        Hazard::Kind kind = first->write
                                ? (second->write ? Hazard::WriteAfterWrite
                                                 : Hazard::ReadAfterWrite)
                                : Hazard::WriteAfterRead;
        candidates.push_back({w, x, kind, first, second});
      }
    }
  }
}

bool SharedHazardSearch::reportCandidates() {
  // Reported by write, then partner, in access order: a deterministic
  // order that does not depend on how the place was cut.
  llvm::sort(candidates, [](const Candidate &a, const Candidate &b) {
    return std::tie(a.write, a.other) < std::tie(b.write, b.other);
  });
  for (const Candidate &candidate : candidates) {
    if (!reported.insert(reportKey(*candidate.first, *candidate.second)).second)
      continue;
    hazards.push_back({candidate.kind, *candidate.first, *candidate.second});
    if (hazards.size() >= limit)
      return true;
  }
  return false;
}

bool SharedHazardSearch::searchMemory(ArrayRef<unsigned> indices) {
  // The bytes where an access begins or ends cut the memory into places
  // that every access covers whole or not at all (the elements, when all
  // accesses are of one element type). Each place's accesses, in order,
  // are one slice of `covering`.
  // A shared memory is small: its cuts are marked in a bitmap of its
  // bytes rather than sorted (unless an access lies far outside it).
  uint64_t end = 0;
  for (unsigned index : indices)
    end = std::max(end, accesses[index].byteEnd);
  std::vector<uint64_t> cuts;
  // With the bitmap, the place a byte begins is looked up in a table.
  std::vector<uint32_t> placeAt;
  if (end <= (uint64_t(1) << 20)) {
    llvm::BitVector isCut(end + 1);
    for (unsigned index : indices) {
      isCut.set(accesses[index].byteBegin);
      isCut.set(accesses[index].byteEnd);
    }
    placeAt.assign(end + 1, 0);
    for (unsigned byte : isCut.set_bits()) {
      placeAt[byte] = cuts.size();
      cuts.push_back(byte);
    }
  } else {
    for (unsigned index : indices) {
      cuts.push_back(accesses[index].byteBegin);
      cuts.push_back(accesses[index].byteEnd);
    }
    llvm::sort(cuts);
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  }
  auto placeOf = [&](uint64_t byte) -> size_t {
    if (!placeAt.empty())
      return placeAt[byte];
    return llvm::lower_bound(cuts, byte) - cuts.begin();
  };
  std::vector<uint32_t> start(cuts.size() + 1, 0);
  std::vector<std::pair<uint32_t, uint32_t>> spans;
  spans.reserve(indices.size());
  for (unsigned index : indices) {
    auto span = std::make_pair(
        static_cast<uint32_t>(placeOf(accesses[index].byteBegin)),
        static_cast<uint32_t>(placeOf(accesses[index].byteEnd)));
    spans.push_back(span);
    for (uint32_t place = span.first; place < span.second; ++place)
      ++start[place + 1];
  }
  for (size_t place = 0; place < cuts.size(); ++place)
    start[place + 1] += start[place];
  // Each place's accesses by epoch, and in access order within one: the
  // accesses are taken in that order (a stable counting sort by epoch).
  unsigned epochs = blockBarriersBefore.back() + 1;
  std::vector<uint32_t> epochStart(epochs + 1, 0);
  for (unsigned index : indices)
    ++epochStart[epochOf(index) + 1];
  for (unsigned epoch = 0; epoch < epochs; ++epoch)
    epochStart[epoch + 1] += epochStart[epoch];
  std::vector<uint32_t> byEpoch(indices.size());
  for (auto [position, index] : llvm::enumerate(indices))
    byEpoch[epochStart[epochOf(index)]++] = position;
  std::vector<unsigned> covering(start.back());
  std::vector<uint32_t> filled(start.begin(), start.end() - 1);
  for (uint32_t position : byEpoch) {
    auto span = spans[position];
    for (uint32_t place = span.first; place < span.second; ++place)
      covering[filled[place]++] = indices[position];
  }
  for (size_t place = 0; place + 1 < cuts.size(); ++place) {
    ArrayRef<unsigned> here(covering.data() + start[place],
                            start[place + 1] - start[place]);
    if (!here.empty() && judge(cuts[place], here))
      return true;
  }
  return false;
}

SmallVector<Hazard> mlir::obs::findHazards(const BlockRun &run,
                                           unsigned warpSize, unsigned limit) {
  return SharedHazardSearch(run, warpSize, limit).search();
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
  SmallVector<unsigned> blockBarriersBefore = run.countBlockBarriersBefore();
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
