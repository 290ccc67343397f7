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
  /// What the search asks of an access of the memory it searches, read
  /// once into an array of its own: the block's accesses are large
  /// records in thread order, and a place's accesses come from many
  /// threads, so reading those at every place missed the cache at every
  /// one. The full Access is read only for what is rare: one thread's own
  /// order, a checked scatter's owner, and a race to report.
  struct PlaceAccess {
    uint32_t index; // Into the run's accesses.
    uint32_t epoch, phase, thread;
    /// The low bits of the access's op, for the report key.
    uint32_t opBits;
    /// The first place it covers.
    uint32_t firstPlace;
    /// Its position in its thread's program order (below the run's
    /// kMaxAccesses): a thread that reads and writes one place in one
    /// stage (an in-place trial, a counter) is judged by it at every
    /// place, where reading it from the full Access missed the cache at
    /// each.
    uint32_t order;
    bool write, atomic, checkedScatter;
    uint8_t atomicKind;
  };
  struct Candidate {
    uint32_t write, other; // Indices into the run's accesses.
    Hazard::Kind kind;
    const Access *first, *second;
  };

  unsigned warpOf(unsigned thread) const {
    // A warp is a power of two threads (32): its index is a shift.
    return powerOfTwo ? thread >> warpShift : thread / warpSize;
  }
  bool sameWarp(unsigned a, unsigned b) const { return warpOf(a) == warpOf(b); }
  /// Accesses with a block barrier between them are ordered: only those
  /// between the same two block barriers (of one epoch) can race.
  unsigned epochOf(const Access &access) const {
    return blockBarriersBefore[access.phase];
  }
  /// Searches one memory's accesses (`indices`, in order); returns whether
  /// the limit is reached.
  bool searchMemory(ArrayRef<unsigned> indices, uint64_t end);
  /// Judges the narrow accesses that cover `place`, given by epoch and in
  /// access order within an epoch, with the races `wide` of wide accesses
  /// judged at this place (judgeWide); returns whether the limit is
  /// reached.
  bool judge(uint32_t place, ArrayRef<PlaceAccess> here,
             ArrayRef<std::pair<uint32_t, Candidate>> wide);
  /// Adds to `candidates` the races among `group`, the accesses of one
  /// epoch that cover `place`.
  void judgeEpoch(uint32_t place, ArrayRef<PlaceAccess> group);
  /// The race between `write` and `other` (another access of its epoch
  /// that covers a place it covers), if they race and it is not reported
  /// yet.
  std::optional<Candidate> judgePair(const PlaceAccess &write,
                                     const PlaceAccess &other) const;
  /// Finds the races of the wide accesses among `epoch` (positions in
  /// `records`, in access order, of one epoch), into `wideCandidates`.
  void judgeWide(ArrayRef<uint32_t> epoch);
  /// The narrow accesses of an epoch by op, phase and kind, each group by
  /// first place (in access order within one): all of a group's races with
  /// one wide access have one report key (but in one thread's own phase,
  /// where order decides which comes first), so only the first needs
  /// finding.
  struct Group {
    uint32_t phase;
    bool write;
    std::vector<uint32_t> byPlace;
    /// The next position in `byPlace` of another warp than this one's.
    std::vector<uint32_t> nextOtherWarp;
  };
  std::vector<Group> groupNarrow(ArrayRef<uint32_t> epoch) const;
  /// Adds `candidate` to the place's candidates, unless one of its report
  /// key comes first (by write, then partner, as they are reported): of
  /// each key only the first is ever reported, and a place read by every
  /// thread of a merged epoch (a broadcast, under a trial of warp scopes)
  /// raced with millions of pairs of a few keys, all kept and sorted.
  void addCandidate(const Candidate &candidate);
  /// Reports `candidates` not reported yet; returns whether the limit is
  /// reached.
  bool reportCandidates();
  /// What one report stands for: one pair of ops and phases is enough.
  static uint32_t opBitsOf(const Access &access) {
    return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(access.op));
  }
  static std::pair<unsigned, unsigned> reportKey(uint32_t firstOpBits,
                                                 uint32_t firstPhase,
                                                 uint32_t secondOpBits,
                                                 uint32_t secondPhase) {
    return {firstOpBits ^ (secondPhase << 8), secondOpBits ^ firstPhase};
  }
  static std::pair<unsigned, unsigned> reportKey(const Access &first,
                                                 const Access &second) {
    return reportKey(opBitsOf(first), first.phase, opBitsOf(second),
                     second.phase);
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
  /// The place's candidate of each report key, by position in `candidates`.
  llvm::DenseMap<std::pair<unsigned, unsigned>, uint32_t> candidateOfKey;
  /// The accesses of the memory being searched, and the place after the
  /// last each covers.
  LargeVector<PlaceAccess> records;
  static_assert(BlockRun::kMaxAccesses <= UINT32_MAX,
                "a thread's order of accesses fits a record's 32 bits");
  LargeVector<uint32_t> placeEnds;
  /// An access that covers more places than this is wide (its index was
  /// not known: it spans its buffer). Putting it at every place it covers
  /// made the search its buffer's size times the wide accesses; their
  /// races are found pair by pair instead (judgeWide).
  static constexpr uint32_t kWideSpan = 8;
  bool isWide(uint32_t position) const {
    return placeEnds[position] - records[position].firstPlace > kWideSpan;
  }
  /// The first race of each report key that involves a wide access, at the
  /// place where it is judged, by place.
  std::vector<std::pair<uint32_t, Candidate>> wideCandidates;
  /// A place's accesses of one epoch (positions in its group), by whether
  /// they begin at the place (lists 0, 1) or before it (2, 3), and whether
  /// they are atomics (1, 3).
  std::array<SmallVector<uint32_t>, 4> partners;
};
} // namespace

SmallVector<Hazard> SharedHazardSearch::search() {
  // The accesses of each shared memory, in order, by memory, and the
  // byte after the last any of them touches.
  std::map<unsigned, std::pair<std::vector<unsigned>, uint64_t>> byMemory;
  for (auto [index, access] : llvm::enumerate(accesses))
    if (run.getMemories()[access.memory].workgroup) {
      auto &[indices, end] = byMemory[access.memory];
      indices.push_back(index);
      end = std::max(end, access.byteEnd);
    }
  for (auto &[memory, found] : byMemory)
    if (searchMemory(found.first, found.second))
      break;
  return std::move(hazards);
}

bool SharedHazardSearch::judge(uint32_t place, ArrayRef<PlaceAccess> here,
                               ArrayRef<std::pair<uint32_t, Candidate>> wide) {
  // A pair is judged once, at the first place both access: the place
  // where the later-starting one begins. The verdict does not depend on
  // the place, and an access whose index the simulation could not tell
  // spans its whole buffer, so judging at every place they share would
  // make the work its size times the square of the accesses.
  candidates.clear();
  candidateOfKey.clear();
  for (size_t groupBegin = 0; groupBegin < here.size();) {
    unsigned epoch = here[groupBegin].epoch;
    size_t groupEnd = groupBegin + 1;
    bool anyWrite = here[groupBegin].write;
    while (groupEnd < here.size() && here[groupEnd].epoch == epoch)
      anyWrite |= here[groupEnd++].write;
    // Only a write races, and with another access.
    if (anyWrite && groupEnd - groupBegin > 1)
      judgeEpoch(place, here.slice(groupBegin, groupEnd - groupBegin));
    groupBegin = groupEnd;
  }
  for (const auto &[widePlace, candidate] : wide)
    addCandidate(candidate);
  return reportCandidates();
}

void SharedHazardSearch::judgeEpoch(uint32_t place,
                                    ArrayRef<PlaceAccess> group) {
  // A partner that begins before this place met a write at an earlier
  // one, unless the write itself begins here (a narrow access covers up to
  // kWideSpan places: an i64 over places cut at i32); and atomics commute.
  // So each write looks only at the partners it can race with here.
  for (SmallVector<uint32_t> &list : partners)
    list.clear();
  // Atomics of one kind commute; of two kinds (an add and a max of one
  // place) they do not, which is rare enough to judge pair by pair.
  std::optional<uint8_t> atomicKind;
  bool mixedAtomics = false;
  for (auto [position, access] : llvm::enumerate(group)) {
    unsigned list =
        (access.firstPlace == place ? 0 : 2) + (access.atomic ? 1 : 0);
    partners[list].push_back(position);
    if (access.atomic) {
      mixedAtomics |= atomicKind && *atomicKind != access.atomicKind;
      atomicKind = access.atomicKind;
    }
  }
  for (auto [w, write] : llvm::enumerate(group)) {
    if (!write.write)
      continue;
    bool beginsHere = write.firstPlace == place;
    for (unsigned list = 0; list < 4; ++list) {
      // Lists 0 and 1 begin here, 1 and 3 are atomics, which commute
      // with an atomic write of their kind.
      if ((list >= 2 && !beginsHere) ||
          (list % 2 == 1 && write.atomic && !mixedAtomics))
        continue;
      for (uint32_t x : partners[list]) {
        if (x == w)
          continue;
        const PlaceAccess &other = group[x];
        if (other.write && other.index < write.index)
          continue; // Each pair of writes once.
        if (std::optional<Candidate> candidate = judgePair(write, other))
          addCandidate(*candidate);
      }
    }
  }
}

std::optional<SharedHazardSearch::Candidate>
SharedHazardSearch::judgePair(const PlaceAccess &write,
                              const PlaceAccess &other) const {
  if (write.atomic && other.atomic && write.atomicKind == other.atomicKind)
    return std::nullopt;
  // In one epoch no block barrier lies between the two: a barrier of any
  // scope orders them only within a warp.
  bool sameThreadAndPhase =
      other.phase == write.phase && other.thread == write.thread;
  if (other.phase != write.phase && sameWarp(other.thread, write.thread))
    return std::nullopt;
  // Program order: by phase, and within one thread's phase by its own
  // order.
  bool writeFirst = !(other.phase < write.phase);
  if (sameThreadAndPhase)
    writeFirst = write.order <= other.order;
  const PlaceAccess &first = writeFirst ? write : other;
  const PlaceAccess &second = writeFirst ? other : write;
  // A scatter's stores at places the run could not tell are checked as the
  // program runs. (Stores into one scatter's buffer are that scatter's: one
  // op per unrolled round.)
  if (write.checkedScatter && other.checkedScatter) {
    const Access &a = accesses[write.index], &b = accesses[other.index];
    if (a.owner == b.owner && (a.element < 0 || b.element < 0))
      return std::nullopt;
  }
  // One thread's own order: only reading what this stage wrote is wrong
  // (the stage must read earlier stages' values).
  if (sameThreadAndPhase && !(first.write && !second.write))
    return std::nullopt;
  // A race reported at an earlier place is not reported again (one report
  // per pair of ops and phases): a wrong trial choice races at every
  // element, and refineSyncs asks for all the races.
  if (reported.contains(
          reportKey(first.opBits, first.phase, second.opBits, second.phase)))
    return std::nullopt;
  Hazard::Kind kind = first.write ? (second.write ? Hazard::WriteAfterWrite
                                                  : Hazard::ReadAfterWrite)
                                  : Hazard::WriteAfterRead;
  return Candidate{write.index, other.index, kind, &accesses[first.index],
                   &accesses[second.index]};
}

std::vector<SharedHazardSearch::Group>
SharedHazardSearch::groupNarrow(ArrayRef<uint32_t> epoch) const {
  std::vector<Group> groups;
  llvm::DenseMap<std::tuple<uint32_t, uint32_t, uint32_t>, unsigned> groupOf;
  for (uint32_t position : epoch) {
    if (isWide(position))
      continue;
    const PlaceAccess &record = records[position];
    auto [it, inserted] = groupOf.try_emplace(
        {record.opBits, record.phase, uint32_t(record.write)}, groups.size());
    if (inserted)
      groups.push_back({record.phase, record.write, {}, {}});
    groups[it->second].byPlace.push_back(position);
  }
  for (Group &group : groups) {
    stableSort(group.byPlace, [&](uint32_t a, uint32_t b) {
      return records[a].firstPlace < records[b].firstPlace;
    });
    size_t size = group.byPlace.size();
    group.nextOtherWarp.resize(size);
    for (size_t i = size; i-- > 0;)
      group.nextOtherWarp[i] =
          i + 1 < size && sameWarp(records[group.byPlace[i]].thread,
                                   records[group.byPlace[i + 1]].thread)
              ? group.nextOtherWarp[i + 1]
              : i + 1;
  }
  return groups;
}

void SharedHazardSearch::judgeWide(ArrayRef<uint32_t> epoch) {
  SmallVector<uint32_t> wide;
  // The wide writes by kind: plain ones (-1), and atomics by their kind,
  // which commute with an atomic of their kind (a histogram's thousands of
  // atomics at places from data are not paired with each other at all).
  std::map<int, SmallVector<uint32_t>> wideWrites;
  for (uint32_t position : epoch) {
    if (!isWide(position))
      continue;
    wide.push_back(position);
    const PlaceAccess &record = records[position];
    if (record.write)
      wideWrites[record.atomic ? int(record.atomicKind) : -1].push_back(
          position);
  }
  // Nearly every epoch has no wide access: its narrow ones are not
  // grouped at all.
  if (wide.empty())
    return;
  std::vector<Group> groups = groupNarrow(epoch);
  // The first race of each report key: by place, then write, then other.
  llvm::DenseMap<std::pair<unsigned, unsigned>, size_t> firstOfKey;
  // Judges wide access `a` with `b`, which overlaps it; returns whether
  // they race.
  auto consider = [&](uint32_t a, uint32_t b) {
    const PlaceAccess *write = &records[a], *other = &records[b];
    if (write->write && other->write ? other->index < write->index
                                     : !write->write)
      std::swap(write, other);
    std::optional<Candidate> candidate = judgePair(*write, *other);
    if (!candidate)
      return false;
    uint32_t place = std::max(records[a].firstPlace, records[b].firstPlace);
    auto [it, inserted] =
        firstOfKey.try_emplace(reportKey(*candidate->first, *candidate->second),
                               wideCandidates.size());
    if (inserted) {
      wideCandidates.push_back({place, *candidate});
      return true;
    }
    auto &[keptPlace, kept] = wideCandidates[it->second];
    if (std::tie(place, candidate->write, candidate->other) <
        std::tie(keptPlace, kept.write, kept.other))
      wideCandidates[it->second] = {place, *candidate};
    return true;
  };
  // The wide accesses met so far by op, phase, kind, places and warp.
  llvm::DenseSet<
      std::tuple<Operation *, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>>
      classes;
  for (uint32_t a : wide) {
    const PlaceAccess &access = records[a];
    uint32_t end = placeEnds[a];
    // A narrow access that overlaps this one begins at most kWideSpan
    // places before it.
    uint32_t from =
        access.firstPlace > kWideSpan ? access.firstPlace - kWideSpan : 0;
    // A wide access like an earlier one of its warp (one op, phase, kind,
    // places, and whether its element is known, which a checked scatter's
    // exemption reads) races with the groups of the other phases as that
    // one does: there a barrier orders its warp, and nothing else of its
    // thread counts. So its races there are that one's, partner for
    // partner and place for place, and come after them in report order:
    // none is kept.
    // (A chain of stages that read at places from data, all in one epoch
    // under a trial of warp scopes, paired every thread's read with every
    // stage's group.)
    bool likeAnEarlier =
        !classes
             .insert({accesses[access.index].op, access.phase,
                      uint32_t(access.write) | uint32_t(access.atomic) << 1 |
                          uint32_t(accesses[access.index].element >= 0) << 2 |
                          uint32_t(access.atomicKind) << 3,
                      access.firstPlace, end, warpOf(access.thread)})
             .second;
    for (const Group &group : groups) {
      if (!access.write && !group.write)
        continue;
      if (likeAnEarlier && group.phase != access.phase)
        continue;
      ArrayRef<uint32_t> byPlace = group.byPlace;
      size_t i = llvm::partition_point(
                     byPlace,
                     [&](uint32_t b) { return records[b].firstPlace < from; }) -
                 byPlace.begin();
      // Past the first race's place, another has a later place and the
      // same key: in another phase, where the phases order the two; and
      // where only one of them writes, since then the write comes first
      // in every pair that races (across threads by the rule of one
      // epoch, within a thread by its own order). Only two writes of one
      // phase are ordered by their positions, pair by pair. (A wide read
      // of a stage that merges runs met thousands of writes of its
      // buffer, each a race of one key, when obs-inplace tried it.)
      bool keyFixed =
          group.phase != access.phase || !(access.write && group.write);
      std::optional<uint32_t> racedAt;
      while (i < byPlace.size()) {
        const PlaceAccess &other = records[byPlace[i]];
        if (other.firstPlace >= end ||
            (racedAt && keyFixed && other.firstPlace > *racedAt))
          break;
        if (placeEnds[byPlace[i]] <= access.firstPlace) {
          ++i;
          continue;
        }
        // A barrier orders the two within a warp.
        if (group.phase != access.phase &&
            sameWarp(other.thread, access.thread)) {
          i = group.nextOtherWarp[i];
          continue;
        }
        if (consider(a, byPlace[i]) && !racedAt)
          racedAt = std::max(access.firstPlace, other.firstPlace);
        ++i;
      }
    }
    // The wide writes, each pair of wide writes once.
    for (const auto &[kind, writes] : wideWrites) {
      if (access.atomic && kind == int(access.atomicKind))
        continue;
      for (uint32_t b : writes) {
        if (b == a || (access.write && b < a))
          continue;
        if (records[b].firstPlace < end && access.firstPlace < placeEnds[b])
          consider(a, b);
      }
    }
  }
}

void SharedHazardSearch::addCandidate(const Candidate &candidate) {
  auto [it, inserted] = candidateOfKey.try_emplace(
      reportKey(*candidate.first, *candidate.second), candidates.size());
  if (inserted) {
    candidates.push_back(candidate);
    return;
  }
  Candidate &kept = candidates[it->second];
  if (std::tie(candidate.write, candidate.other) <
      std::tie(kept.write, kept.other))
    kept = candidate;
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

bool SharedHazardSearch::searchMemory(ArrayRef<unsigned> indices,
                                      uint64_t end) {
  // The bytes where an access begins or ends cut the memory into places
  // that every access covers whole or not at all (the elements, when all
  // accesses are of one element type). Each place's accesses, in order,
  // are one slice of `covering`.
  // A shared memory is small: its cuts are marked in a bitmap of its
  // bytes rather than sorted (unless an access lies far outside it).
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
  // Each access's places and epoch, read once, in order. Only a write
  // races, and only with accesses of its epoch: an epoch in which nothing
  // writes the memory is left out whole (a merge's binary searches read
  // at places from data, each spanning the buffer, where nothing writes).
  unsigned epochCount = blockBarriersBefore.back() + 1;
  llvm::BitVector writtenIn(epochCount);
  records.clear();
  records.reserve(indices.size());
  placeEnds.clear();
  placeEnds.reserve(indices.size());
  for (unsigned index : indices) {
    const Access &access = accesses[index];
    unsigned epoch = epochOf(access);
    if (access.write)
      writtenIn.set(epoch);
    records.push_back(
        {index, epoch, access.phase, access.thread, opBitsOf(access),
         static_cast<uint32_t>(placeOf(access.byteBegin)),
         static_cast<uint32_t>(access.order), access.write, access.atomic,
         access.checkedScatter, access.atomicKind});
    placeEnds.push_back(placeOf(access.byteEnd));
  }
  std::vector<uint32_t> start(cuts.size() + 1, 0);
  // The accesses put at each place they cover: the narrow ones of epochs
  // that write the memory.
  auto isPlaced = [&](uint32_t position) {
    return writtenIn.test(records[position].epoch) && !isWide(position);
  };
  for (auto [position, record] : llvm::enumerate(records)) {
    if (!isPlaced(position))
      continue;
    for (uint32_t place = record.firstPlace; place < placeEnds[position];
         ++place)
      ++start[place + 1];
  }
  for (size_t place = 0; place < cuts.size(); ++place)
    start[place + 1] += start[place];
  // Each place's accesses by epoch, and in access order within one: the
  // accesses are taken in that order (a stable counting sort by epoch).
  std::vector<uint32_t> epochStart(epochCount + 1, 0);
  for (const PlaceAccess &record : records)
    ++epochStart[record.epoch + 1];
  for (unsigned epoch = 0; epoch < epochCount; ++epoch)
    epochStart[epoch + 1] += epochStart[epoch];
  LargeVector<uint32_t> byEpoch(records.size());
  std::vector<uint32_t> epochBegin(epochStart.begin(), epochStart.end());
  for (auto [position, record] : llvm::enumerate(records))
    byEpoch[epochStart[record.epoch]++] = position;
  wideCandidates.clear();
  for (unsigned epoch : writtenIn.set_bits())
    judgeWide(ArrayRef<uint32_t>(byEpoch).slice(
        epochBegin[epoch], epochBegin[epoch + 1] - epochBegin[epoch]));
  stableSort(wideCandidates,
             [](const auto &a, const auto &b) { return a.first < b.first; });
  // Each place's accesses are copied next to each other: the search
  // then reads them in order, where reading them through their positions
  // missed the cache at every one (the accesses are in thread order).
  LargeVector<PlaceAccess> covering(start.back());
  std::vector<uint32_t> filled(start.begin(), start.end() - 1);
  for (uint32_t position : byEpoch) {
    if (!isPlaced(position))
      continue;
    for (uint32_t place = records[position].firstPlace;
         place < placeEnds[position]; ++place)
      covering[filled[place]++] = records[position];
  }
  ArrayRef<std::pair<uint32_t, Candidate>> wideLeft = wideCandidates;
  for (size_t place = 0; place + 1 < cuts.size(); ++place) {
    ArrayRef<PlaceAccess> here(covering.data() + start[place],
                               start[place + 1] - start[place]);
    size_t wideHere = 0;
    while (wideHere < wideLeft.size() && wideLeft[wideHere].first == place)
      ++wideHere;
    if ((!here.empty() || wideHere) &&
        judge(place, here, wideLeft.take_front(wideHere)))
      return true;
    wideLeft = wideLeft.drop_front(wideHere);
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
