//===- Statistics.cpp - pass statistics that always report ----------------===//

#include "Obs/Support/Statistics.h"
#include "Obs/Support/StableSort.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Mutex.h"

using namespace mlir;

static llvm::cl::opt<bool> showStatistics(
    "obs-statistics",
    llvm::cl::desc("Print what each obs pass counted (syncs downgraded, "
                   "identity writes dropped, shared bytes, ...) at exit"),
    llvm::cl::init(false));

namespace {
/// Counts by pass and by name, each in the order first seen (a handful of
/// entries: linear search is fine).
template <typename Value>
using OrderedMap = std::vector<std::pair<std::string, Value>>;

template <typename Value> Value &lookup(OrderedMap<Value> &map, StringRef key) {
  for (auto &[name, value] : map)
    if (name == key)
      return value;
  map.emplace_back(key.str(), Value());
  return map.back().second;
}

/// One count, with its statistic's position among the pass's declared
/// statistics: counts print in the order the pass declares them, whatever
/// order kernels touch them in.
struct Count {
  uint64_t value = 0;
  unsigned declared = 0;
};

struct Report {
  llvm::sys::SmartMutex<true> mutex;
  OrderedMap<OrderedMap<Count>> counts;
};
} // namespace

/// Not a ManagedStatic: MlirOptMain shuts LLVM down before obs-opt prints.
static Report &getReport() {
  static Report report;
  return report;
}

/// How many ScratchStatistics live on this thread, and where the innermost
/// records counts (null: they are dropped).
static thread_local unsigned scratchDepth = 0;
static thread_local obs::RecordedStatistics *recording = nullptr;

mlir::obs::ScratchStatistics::ScratchStatistics() : outer(recording) {
  ++scratchDepth;
  recording = nullptr;
}
mlir::obs::ScratchStatistics::ScratchStatistics(RecordedStatistics &recorded)
    : outer(recording) {
  ++scratchDepth;
  recording = &recorded;
}
mlir::obs::ScratchStatistics::~ScratchStatistics() {
  --scratchDepth;
  recording = outer;
}

/// The position of `statistic` among `pass`'s declared statistics.
static unsigned declaredIndex(Pass &pass, Pass::Statistic &statistic) {
  ArrayRef<Pass::Statistic *> declared = pass.getStatistics();
  return llvm::find(declared, &statistic) - declared.begin();
}

/// The count of `statistic` of `pass` (the report's mutex held).
static Count &countOf(Pass &pass, Pass::Statistic &statistic, StringRef name) {
  Count &count = lookup(lookup(getReport().counts, pass.getArgument()), name);
  count.declared = declaredIndex(pass, statistic);
  return count;
}

void mlir::obs::addToStatistic(Pass &pass, Pass::Statistic &statistic,
                               StringRef name, uint64_t amount) {
  if (scratchDepth) {
    if (recording)
      recording->entries.push_back({pass.getArgument().str(), name.str(),
                                    declaredIndex(pass, statistic), amount,
                                    /*isMax=*/false});
    return;
  }
  statistic += amount;
  llvm::sys::SmartScopedLock<true> lock(getReport().mutex);
  countOf(pass, statistic, name).value += amount;
}

void mlir::obs::maxStatistic(Pass &pass, Pass::Statistic &statistic,
                             StringRef name, uint64_t value) {
  if (scratchDepth) {
    if (recording)
      recording->entries.push_back({pass.getArgument().str(), name.str(),
                                    declaredIndex(pass, statistic), value,
                                    /*isMax=*/true});
    return;
  }
  statistic.updateMax(value);
  llvm::sys::SmartScopedLock<true> lock(getReport().mutex);
  Count &count = countOf(pass, statistic, name);
  count.value = std::max(count.value, value);
}

void mlir::obs::RecordedStatistics::report() const {
  if (scratchDepth) {
    if (recording)
      llvm::append_range(recording->entries, entries);
    return;
  }
  llvm::sys::SmartScopedLock<true> lock(getReport().mutex);
  for (const Entry &entry : entries) {
    Count &count = lookup(lookup(getReport().counts, entry.pass), entry.name);
    count.declared = entry.declared;
    count.value = entry.isMax ? std::max(count.value, entry.value)
                              : count.value + entry.value;
  }
}

bool mlir::obs::statisticsRequested() { return showStatistics; }

void mlir::obs::printStatistics(llvm::raw_ostream &os) {
  Report &report = getReport();
  llvm::sys::SmartScopedLock<true> lock(report.mutex);
  os << "===- obs pass statistics -===\n";
  for (auto &[pass, counts] : report.counts) {
    os << pass << "\n";
    OrderedMap<Count> ordered = counts;
    stableSort(ordered, [](const auto &a, const auto &b) {
      return a.second.declared < b.second.declared;
    });
    for (auto &[name, count] : ordered)
      os << "  " << count.value << " " << name << "\n";
  }
}
