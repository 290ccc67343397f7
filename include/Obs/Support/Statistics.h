//===- Statistics.h - pass statistics that always report --------*- C++ -*-===//
//
// obs passes declare their statistics in TableGen, and count them there too.
// Those counters print with --mlir-pass-statistics only where LLVM was built
// with statistics; Debian's LLVM is not. So every count also goes into obs's
// own report, printed by obs-opt and obs-run under --obs-statistics.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_STATISTICS_H
#define OBS_SUPPORT_STATISTICS_H

#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace mlir::obs {

/// Adds `amount` to the pass's statistic `statistic`, named `name` as in its
/// TableGen declaration.
void addToStatistic(Pass &pass, Pass::Statistic &statistic, StringRef name,
                    uint64_t amount = 1);

/// Raises the pass's statistic `statistic`, named `name`, to `value` when it
/// is below it.
void maxStatistic(Pass &pass, Pass::Statistic &statistic, StringRef name,
                  uint64_t value);

/// Counts made on a scratch copy, kept to be reported where the copy is
/// kept.
class RecordedStatistics {
public:
  /// Adds every count to the report, under the pass that made it.
  void report() const;
  /// The sum of the counts named `name`, over every pass.
  uint64_t total(StringRef name) const {
    uint64_t sum = 0;
    for (const Entry &entry : entries)
      if (entry.name == name)
        sum += entry.value;
    return sum;
  }
  /// Records one count (`isMax`: a maximum, not an amount to add).
  void add(StringRef pass, StringRef name, unsigned declared, uint64_t value,
           bool isMax) {
    entries.push_back({pass.str(), name.str(), declared, value, isMax});
  }

private:
  struct Entry {
    std::string pass, name;
    unsigned declared;
    uint64_t value;
    bool isMax;
  };
  std::vector<Entry> entries;
};

/// While one lives, the counts passes make on this thread go to `recorded`
/// instead of the report: a pass that runs other passes on a scratch copy
/// of its op (obs-assign-work's cost strategy, which refines a copy per
/// strategy on the thread that runs it) reports only what it did to the op
/// itself, and what it did to a copy it keeps (RecordedStatistics::report).
class ScratchStatistics {
public:
  explicit ScratchStatistics(RecordedStatistics &recorded);
  ~ScratchStatistics();
  ScratchStatistics(const ScratchStatistics &) = delete;
  ScratchStatistics &operator=(const ScratchStatistics &) = delete;

private:
  /// Where the enclosing one records, restored when this one ends.
  RecordedStatistics *outer;
};

/// Whether --obs-statistics was given.
bool statisticsRequested();

/// Prints the counts gathered so far, by pass, in the order passes ran.
void printStatistics(llvm::raw_ostream &os);

} // namespace mlir::obs

#endif // OBS_SUPPORT_STATISTICS_H
