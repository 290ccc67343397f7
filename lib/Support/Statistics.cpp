//===- Statistics.cpp - pass statistics that always report ----------------===//

#include "Obs/Support/Statistics.h"
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

template <typename Value>
Value &lookup(OrderedMap<Value> &map, StringRef key) {
  for (auto &[name, value] : map)
    if (name == key)
      return value;
  map.emplace_back(key.str(), Value());
  return map.back().second;
}

struct Report {
  llvm::sys::SmartMutex<true> mutex;
  OrderedMap<OrderedMap<uint64_t>> counts;
};
} // namespace

/// Not a ManagedStatic: MlirOptMain shuts LLVM down before obs-opt prints.
static Report &getReport() {
  static Report report;
  return report;
}

void mlir::obs::addToStatistic(Pass &pass, Pass::Statistic &statistic,
                               StringRef name, uint64_t amount) {
  statistic += amount;
  Report &report = getReport();
  llvm::sys::SmartScopedLock<true> lock(report.mutex);
  lookup(lookup(report.counts, pass.getArgument()), name) += amount;
}

void mlir::obs::maxStatistic(Pass &pass, Pass::Statistic &statistic,
                             StringRef name, uint64_t value) {
  statistic.updateMax(value);
  Report &report = getReport();
  llvm::sys::SmartScopedLock<true> lock(report.mutex);
  uint64_t &current = lookup(lookup(report.counts, pass.getArgument()), name);
  current = std::max(current, value);
}

bool mlir::obs::statisticsRequested() { return showStatistics; }

void mlir::obs::printStatistics(llvm::raw_ostream &os) {
  Report &report = getReport();
  llvm::sys::SmartScopedLock<true> lock(report.mutex);
  os << "===- obs pass statistics -===\n";
  for (auto &[pass, counts] : report.counts) {
    os << pass << "\n";
    for (auto &[name, value] : counts)
      os << "  " << value << " " << name << "\n";
  }
}
