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

/// Where the counts made on this thread go while a ScratchStatistics
/// lives; null: to the report.
static thread_local obs::RecordedStatistics *recording = nullptr;

mlir::obs::ScratchStatistics::ScratchStatistics(RecordedStatistics &recorded)
    : outer(recording) {
  recording = &recorded;
}
mlir::obs::ScratchStatistics::~ScratchStatistics() { recording = outer; }

/// The position of `statistic` among `pass`'s declared statistics.
static unsigned declaredIndex(Pass &pass, Pass::Statistic &statistic) {
  ArrayRef<Pass::Statistic *> declared = pass.getStatistics();
  return llvm::find(declared, &statistic) - declared.begin();
}

/// Counts `value` (added, or a maximum) for `name` of `pass`, into this
/// thread's recording or the report.
static void count(StringRef pass, StringRef name, unsigned declared,
                  uint64_t value, bool isMax) {
  if (recording)
    return recording->add(pass, name, declared, value, isMax);
  llvm::sys::SmartScopedLock<true> lock(getReport().mutex);
  Count &counted = lookup(lookup(getReport().counts, pass), name);
  counted.declared = declared;
  counted.value =
      isMax ? std::max(counted.value, value) : counted.value + value;
}

void mlir::obs::addToStatistic(Pass &pass, Pass::Statistic &statistic,
                               StringRef name, uint64_t amount) {
  if (!recording)
    statistic += amount;
  count(pass.getArgument(), name, declaredIndex(pass, statistic), amount,
        /*isMax=*/false);
}

void mlir::obs::maxStatistic(Pass &pass, Pass::Statistic &statistic,
                             StringRef name, uint64_t value) {
  if (!recording)
    statistic.updateMax(value);
  count(pass.getArgument(), name, declaredIndex(pass, statistic), value,
        /*isMax=*/true);
}

void mlir::obs::RecordedStatistics::report() const {
  for (const Entry &entry : entries)
    count(entry.pass, entry.name, entry.declared, entry.value, entry.isMax);
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
