//===- ExpandNetworks.cpp - scan, sort and reduce as combinators ----------===//

#include "Obs/Analysis/CombineLaws.h"
#include "Obs/Builder/Networks.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSEXPANDNETWORKS
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// Whether `op` stands where syncs may: in a program region.
static bool atProgramLevel(Operation *op) {
  return isa<KernelOp, TwoOp, IlvOp, OneOp, RepeatOp>(op->getParentOp());
}

namespace {
struct ObsExpandNetworksPass
    : mlir::obs::impl::ObsExpandNetworksBase<ObsExpandNetworksPass> {
  using ObsExpandNetworksBase::ObsExpandNetworksBase;
  void runOnOperation() override;
};
} // namespace

/// Whether `op` is a scan, sort or reduce that names its network.
static bool namesNetwork(Operation *op) {
  return (isa<ScanOp>(op) && cast<ScanOp>(op).getNetwork()) ||
         (isa<SortOp>(op) && cast<SortOp>(op).getNetwork()) ||
         (isa<ReduceOp>(op) && cast<ReduceOp>(op).getNetwork());
}

/// The longest run a thread scans in sequence by default: each element of
/// a run is a stage, and a longer one is no better than the fold.
static constexpr uint64_t kMostDefaultRun = 16;

/// Whether `op` is a scan or reduce without a network directly in a
/// kernel's body, whose combine may be reassociated, shared among
/// `threads`: it becomes `serial`. Its order is then its meaning, which
/// `ref` follows (a float sum rounds as the network associates it).
static bool takesSerialByDefault(Operation *op, uint64_t threads) {
  if (!isa<ScanOp, ReduceOp>(op) || namesNetwork(op) ||
      !isa<KernelOp>(op->getParentOp()) ||
      ObsDialect::KeepsFoldAttrHelper(op->getContext()).isAttrPresent(op))
    return false;
  ArrType type = arrType(op->getOperand(0));
  return getSerialRunLength(type.getLength(), threads) <= kMostDefaultRun &&
         isAssociativeOnSamples(op);
}

/// Whether `op` is a scan or reduce that names the serial network.
static bool namesSerial(Operation *op) {
  if (auto scan = dyn_cast<ScanOp>(op))
    return scan.getNetwork() == ScanNetwork::Serial;
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return reduce.getNetwork() == ReduceNetwork::Serial;
  return false;
}

void ObsExpandNetworksPass::runOnOperation() {
  KernelOp kernel = getOperation();
  SmallVector<Operation *> candidates;
  kernel.walk([&](Operation *op) {
    if (isa<ScanOp, ReduceOp, SortOp>(op) && atProgramLevel(op))
      candidates.push_back(op);
  });
  // The serial networks' threads, from the kernel as written (the other
  // networks' syncs must not count): its block threads, walked once, and
  // only where a serial network is named or may be the default.
  bool anySerial = llvm::any_of(candidates, [](Operation *op) {
    return !isa<SortOp>(op) && (!namesNetwork(op) || namesSerial(op));
  });
  uint64_t blockThreads = anySerial ? kernel.getBlockThreads() : 0;
  auto serialThreads = [&](Operation *op) {
    return getSerialNetworkThreads(op, blockThreads);
  };
  // The default is written where it applies, then expanded as if named;
  // the reference target only needs it written. Its combine's laws are
  // checked then, on samples.
  llvm::DenseSet<Operation *> defaulted;
  for (Operation *op : candidates) {
    if (!takesSerialByDefault(op, serialThreads(op))) {
      // Decided once, on the kernel as the pass first sees it (the
      // reference target's view): a fold inside `one` stays a fold after
      // obs-flatten lifts it, when the pass runs again.
      if (isa<ScanOp, ReduceOp>(op) && !namesNetwork(op))
        ObsDialect::KeepsFoldAttrHelper(op->getContext())
            .setAttr(op, UnitAttr::get(op->getContext()));
      continue;
    }
    if (auto scan = dyn_cast<ScanOp>(op))
      scan.setNetwork(ScanNetwork::Serial);
    else
      cast<ReduceOp>(op).setNetwork(ReduceNetwork::Serial);
    defaulted.insert(op);
    addToStatistic(*this, numSerialDefaults, "serial-defaults");
  }
  if (markDefaults)
    return;
  SmallVector<Operation *> networks(
      llvm::make_filter_range(candidates, namesNetwork));
  auto countSyncs = [&] {
    uint64_t count = 0;
    getOperation().walk([&](SyncOp) { ++count; });
    return count;
  };
  uint64_t syncsBefore = countSyncs();
  for (Operation *op : networks) {
    // A network reassociates the combine, which the reference target folds
    // left to right: one that is not associative would make the targets
    // disagree.
    if (isa<ScanOp, ReduceOp>(op) && !defaulted.contains(op) &&
        failed(checkCombineLaws(op)))
      return signalPassFailure();
    ImplicitLocOpBuilder b(op->getLoc(), op);
    Region &region = op->getRegion(0);
    auto body = [&](ImplicitLocOpBuilder &b, ValueRange lhs, ValueRange rhs) {
      SmallVector<Value> arguments(lhs);
      arguments.append(rhs.begin(), rhs.end());
      return dsl::inlineRegion(b, region, arguments);
    };
    SmallVector<Value> replacement;
    if (auto scan = dyn_cast<ScanOp>(op)) {
      switch (*scan.getNetwork()) {
      case ScanNetwork::Sklansky:
        replacement = {dsl::sklansky(b, scan.getInput(), body)};
        break;
      case ScanNetwork::KoggeStone:
        replacement = {dsl::koggeStone(b, scan.getInput(), body)};
        break;
      case ScanNetwork::BrentKung:
        replacement = {dsl::brentKung(b, scan.getInput(), body)};
        break;
      case ScanNetwork::Serial:
        replacement = {
            dsl::serialScan(b, scan.getInput(), body, serialThreads(op))};
        break;
      }
      addToStatistic(*this, numScans, "scans");
    } else if (auto sort = dyn_cast<SortOp>(op)) {
      switch (*sort.getNetwork()) {
      case SortNetwork::Periodic:
        replacement = {dsl::periodicSort(b, sort.getInput(), body)};
        break;
      case SortNetwork::OddEvenMerge:
        replacement = {dsl::oddEvenMergeSort(b, sort.getInput(), body)};
        break;
      case SortNetwork::Bitonic:
        replacement = {dsl::bitonicSort(b, sort.getInput(), body)};
        break;
      }
      addToStatistic(*this, numSorts, "sorts");
    } else {
      auto reduce = cast<ReduceOp>(op);
      switch (*reduce.getNetwork()) {
      case ReduceNetwork::Tree:
        replacement = dsl::treeReduce(b, reduce.getInput(), body);
        break;
      case ReduceNetwork::Serial:
        replacement =
            dsl::serialReduce(b, reduce.getInput(), body, serialThreads(op));
        break;
      }
      addToStatistic(*this, numReductions, "reductions");
    }
    op->replaceAllUsesWith(replacement);
    op->erase();
  }
  if (networks.empty())
    return;
  uint64_t added = countSyncs() - syncsBefore;
  addToStatistic(*this, numStages, "stages", added);
  // A shared-memory plan made before the networks were expanded
  // (obs-plan-shared run first) has no place for the new stages' buffers:
  // it is dropped, as obs-assign-work drops one, and the lowering gives
  // each buffer its own place, or obs-plan-shared plans again.
  if (added)
    (void)takeSharedPlan(kernel);
}
