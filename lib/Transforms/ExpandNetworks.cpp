//===- ExpandNetworks.cpp - scan, sort and reduce as combinators ----------===//

#include "Obs/Analysis/CombineLaws.h"
#include "Obs/Builder/Networks.h"
#include "Obs/Dialect/Obs/Storage.h"
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

/// How a scan or reduce that keeps its fold is computed (below).
enum class KeptFold;

namespace {
struct ObsExpandNetworksPass
    : mlir::obs::impl::ObsExpandNetworksBase<ObsExpandNetworksPass> {
  using ObsExpandNetworksBase::ObsExpandNetworksBase;
  void runOnOperation() override;

private:
  llvm::DenseSet<Operation *>
  writeDefaults(ArrayRef<Operation *> candidates,
                function_ref<uint64_t(Operation *)> serialThreads);
  SmallVector<Value> expand(Operation *op, KeptFold kept,
                            function_ref<uint64_t(Operation *)> serialThreads);
};
} // namespace

/// Whether `op` is a scan, sort or reduce that names its network.
static bool namesNetwork(Operation *op) {
  return (isa<ScanOp>(op) && cast<ScanOp>(op).getNetwork()) ||
         (isa<SortOp>(op) && cast<SortOp>(op).getNetwork()) ||
         (isa<ReduceOp>(op) && cast<ReduceOp>(op).getNetwork());
}

/// The longest run a thread scans in sequence by default: each element of
/// a scan's run is a stage (in place, one combine per thread), which the
/// proofs simulate over the whole array.
static constexpr uint64_t kMostDefaultRun = 64;

/// The most elements the stages of a default serial scan's runs hold
/// together ((run - 1) stages of the whole array), which every proof
/// simulates: 6,144 elements in runs of 64 lower in about 4 seconds.
static constexpr uint64_t kMostDefaultStageElements = uint64_t(1) << 19;

/// The most bytes of an array the stages of a default network (or of a
/// fold computed block by block) may hold: its runs longer than registers
/// hold live in shared memory (with the runs' totals), where a fold reads
/// its input from where it is. Half a block's shared memory leaves room for
/// the kernel's other arrays. A longer array is never a stage: its scan
/// continues from checkpoints of its runs' folds, or from its blocks' last
/// elements (no fold from the start).
static constexpr uint64_t kMostDefaultBytes = KernelOp::kMaxSharedBytes / 2;

/// Whether `op`'s array, a scan's or reduce's, takes at most the bytes of a
/// default network's stages.
static bool fitsStorage(Operation *op) {
  return getArrayBytes(arrType(op->getOperand(0))) <= kMostDefaultBytes;
}

/// Whether the serial network among `threads` fits `op`, a scan or reduce:
/// a reduction folds each run in a loop, in one stage, whatever its length;
/// a scan's run is a stage per element.
static bool fitsSerial(Operation *op, uint64_t threads) {
  if (!isa<ScanOp>(op))
    return true;
  ArrType type = arrType(op->getOperand(0));
  uint64_t run = getSerialRunLength(type.getLength(), threads);
  // An empty scan has no run stages.
  uint64_t stageElements = run > 1 ? (run - 1) * type.getLength() : 0;
  return run <= kMostDefaultRun && stageElements <= kMostDefaultStageElements &&
         fitsStorage(op);
}

/// How many elements apart a serial scan too long for run stages keeps
/// its runs' folds (`dsl::serialScanFromCheckpoints`), the most an element
/// folds: 8, or more where the checkpoints (one element per thread and
/// stage) would take more than half a block's shared memory, as the
/// defaults' stages may. The bound on an element's work is the point: a
/// stage costs each thread one combine per element and a warp barrier.
static uint64_t chooseCheckpointSpacing(ArrType type, uint64_t threads) {
  uint64_t n = type.getLength();
  uint64_t run = getSerialRunLength(n, threads);
  uint64_t paddedRuns = std::max(threads, llvm::divideCeil(n, run));
  uint64_t elementBytes = llvm::divideCeil(getArrayBytes(type), n);
  uint64_t every = 8;
  while (every < run &&
         llvm::divideCeil(run, every) * paddedRuns * elementBytes >
             kMostDefaultBytes)
    every *= 2;
  return every;
}

/// Whether `op` is marked as keeping its fold: decided on the kernel as the
/// pass first saw it.
static bool keepsFold(Operation *op) {
  return ObsDialect::KeepsFoldAttrHelper(op->getContext()).isAttrPresent(op);
}

/// Whether `op` is a scan or reduce whose network is still to be decided:
/// none written, and not marked as keeping its fold.
static bool hasOpenNetwork(Operation *op) {
  return isa<ScanOp, ReduceOp>(op) && !namesNetwork(op) && !keepsFold(op);
}

/// What a scan or reduce without a network becomes.
enum class DefaultNetwork { Serial, Sklansky, Fold };

/// The default of `op`, a scan or reduce without a network at program level
/// (in a kernel's body, or a sub-program's, whose runs are single elements),
/// shared among `threads`. Its order is then its meaning, which `ref` follows
/// (a float sum rounds as the network associates it):
///  - `serial` where its combine may be reassociated and the network fits;
///  - `sklansky` for a scan that serial does not fit (runs over 64 elements,
///    or run stages over the bound) whose array takes at most half a block's
///    shared memory: log2(n) stages of the whole array, in place, which any
///    length takes; that bound keeps them under 15 stages of 24,576 i8;
///  - `serial` again for a scan whose array takes more than that, from
///    checkpoints of its runs' folds (`dsl::serialScanFromCheckpoints`): no
///    stage holds the array, and an element folds at most from the
///    checkpoint before it, where the fold folds up to N;
///  - the fold where the combine may not be reassociated.
static DefaultNetwork chooseDefault(Operation *op, uint64_t threads) {
  if (!isAssociativeOnSamples(op))
    return DefaultNetwork::Fold;
  if (fitsSerial(op, threads))
    return DefaultNetwork::Serial;
  if (isa<ScanOp>(op) && fitsStorage(op))
    return DefaultNetwork::Sklansky;
  return DefaultNetwork::Serial;
}

/// How many elements each stage of a fold computed block by block holds,
/// and the most each of its elements folds.
static constexpr uint64_t kFoldBlock = kMostDefaultRun;

/// How a scan or reduce that keeps its fold is computed.
enum class KeptFold {
  /// Not a kept fold, or one every element's thread folds from the start.
  PerElement,
  /// By one thread, in the fold's order: the serial network among one
  /// thread, whose one run is the whole array (a chain). Each element's
  /// thread then reads one result instead of folding again.
  InOneThread,
  /// A scan too long for a chain, block by block in the fold's order
  /// (`dsl::foldScanInBlocks`): its blocks' stages take its array's bytes
  /// together, so the array takes at most half a block's shared memory, as
  /// for the defaults.
  InBlocks,
  /// A scan whose array takes more than that, from its blocks' last
  /// elements (`dsl::foldScanFromBlockEnds`): only those are stages, each
  /// element folding its block up to itself again.
  FromBlockEnds,
};

/// How `op` is computed if it keeps its fold (its combine not associative,
/// or past the bounds above). The verifier keeps the mark to scans and
/// reductions without a network.
static KeptFold classifyKeptFold(Operation *op) {
  if (!keepsFold(op))
    return KeptFold::PerElement;
  if (fitsSerial(op, /*threads=*/1))
    return KeptFold::InOneThread;
  if (isa<ScanOp>(op))
    return fitsStorage(op) ? KeptFold::InBlocks : KeptFold::FromBlockEnds;
  return KeptFold::PerElement;
}

/// Whether `op` is a scan or reduce that names the serial network.
static bool namesSerial(Operation *op) {
  if (auto scan = dyn_cast<ScanOp>(op))
    return scan.getNetwork() == ScanNetwork::Serial;
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return reduce.getNetwork() == ReduceNetwork::Serial;
  return false;
}

/// Writes the default network where `candidates` name none and one
/// applies, to be expanded as if named (the reference target only needs it
/// written; its combine's laws are checked then, on samples), or marks a
/// fold that stays one; returns the ops given a network so.
llvm::DenseSet<Operation *> ObsExpandNetworksPass::writeDefaults(
    ArrayRef<Operation *> candidates,
    function_ref<uint64_t(Operation *)> serialThreads) {
  llvm::DenseSet<Operation *> defaulted;
  for (Operation *op : candidates) {
    if (!hasOpenNetwork(op))
      continue;
    switch (chooseDefault(op, serialThreads(op))) {
    case DefaultNetwork::Serial:
      if (auto scan = dyn_cast<ScanOp>(op))
        scan.setNetwork(ScanNetwork::Serial);
      else
        cast<ReduceOp>(op).setNetwork(ReduceNetwork::Serial);
      addToStatistic(*this, numSerialDefaults, "serial-defaults");
      break;
    case DefaultNetwork::Sklansky:
      cast<ScanOp>(op).setNetwork(ScanNetwork::Sklansky);
      addToStatistic(*this, numSklanskyDefaults, "sklansky-defaults");
      break;
    case DefaultNetwork::Fold:
      // Decided once, on the kernel as the pass first sees it (the
      // reference target's view): a fold inside `one` stays a fold after
      // obs-flatten lifts it, when the pass runs again.
      ObsDialect::KeepsFoldAttrHelper(op->getContext())
          .setAttr(op, UnitAttr::get(op->getContext()));
      continue;
    }
    defaulted.insert(op);
  }
  return defaulted;
}

/// The values that replace `op`, a network (or a fold `kept` as it is),
/// expanded into combinators.
SmallVector<Value> ObsExpandNetworksPass::expand(
    Operation *op, KeptFold kept,
    function_ref<uint64_t(Operation *)> serialThreads) {
  bool chain = kept == KeptFold::InOneThread;
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Region &region = op->getRegion(0);
  auto body = [&](ImplicitLocOpBuilder &b, ValueRange lhs, ValueRange rhs) {
    SmallVector<Value> arguments(lhs);
    arguments.append(rhs.begin(), rhs.end());
    return dsl::inlineRegion(b, region, arguments);
  };
  // A chain is the serial network among one thread.
  auto threadsOfSerial = [&] { return chain ? 1 : serialThreads(op); };
  SmallVector<Value> replacement;
  if (kept == KeptFold::InBlocks) {
    replacement = {
        dsl::foldScanInBlocks(b, op->getOperand(0), body, kFoldBlock)};
  } else if (kept == KeptFold::FromBlockEnds) {
    replacement = {
        dsl::foldScanFromBlockEnds(b, op->getOperand(0), body, kFoldBlock)};
  } else if (auto scan = dyn_cast<ScanOp>(op)) {
    switch (chain ? ScanNetwork::Serial : *scan.getNetwork()) {
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
      // Run stages hold the array; one no stage may hold keeps its runs'
      // folds at checkpoints instead, in the same order (the reference
      // target's).
      if (fitsStorage(op)) {
        replacement = {
            dsl::serialScan(b, scan.getInput(), body, threadsOfSerial())};
      } else {
        uint64_t threads = threadsOfSerial();
        replacement = {dsl::serialScanFromCheckpoints(
            b, scan.getInput(), body, threads,
            chooseCheckpointSpacing(arrType(scan.getInput()), threads))};
        addToStatistic(*this, numCheckpointedScans, "checkpointed-scans");
      }
      break;
    }
    if (!chain)
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
    switch (chain ? ReduceNetwork::Serial : *reduce.getNetwork()) {
    case ReduceNetwork::Tree:
      replacement = dsl::treeReduce(b, reduce.getInput(), body);
      break;
    case ReduceNetwork::Serial:
      replacement =
          dsl::serialReduce(b, reduce.getInput(), body, threadsOfSerial());
      break;
    }
    if (!chain)
      addToStatistic(*this, numReductions, "reductions");
  }
  return replacement;
}

void ObsExpandNetworksPass::runOnOperation() {
  KernelOp kernel = getOperation();
  // A sort by an order that is not a strict weak order has no one answer:
  // a network, the ranks every element's thread computes and the
  // reference target's merge sort each give their own (`sle` sorted
  // 5,1,7,2,6,0,4,3 as 0..7 on ref and as 5,0,1,2,3,4,5,6 on cpu). Every
  // sort is checked, in element code too, named network or not, as device
  // sorts are.
  WalkResult orders = kernel.walk([](SortOp sort) {
    return failed(checkStrictWeakOrder(sort)) ? WalkResult::interrupt()
                                              : WalkResult::advance();
  });
  if (orders.wasInterrupted())
    return signalPassFailure();
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
  llvm::DenseSet<Operation *> defaulted =
      writeDefaults(candidates, serialThreads);
  if (markDefaults)
    return;
  // Kept folds, decided once: expanded with the networks, except those
  // left for every element's thread.
  llvm::DenseMap<Operation *, KeptFold> keptFolds;
  SmallVector<Operation *> networks;
  for (Operation *op : candidates) {
    KeptFold kept = classifyKeptFold(op);
    if (kept == KeptFold::InOneThread)
      addToStatistic(*this, numChains, "chains");
    else if (kept == KeptFold::InBlocks || kept == KeptFold::FromBlockEnds)
      addToStatistic(*this, numFoldsInBlocks, "folds-in-blocks");
    if (kept != KeptFold::PerElement)
      keptFolds[op] = kept;
    if (namesNetwork(op) || kept != KeptFold::PerElement)
      networks.push_back(op);
  }
  auto countSyncs = [&] {
    uint64_t count = 0;
    getOperation().walk([&](SyncOp) { ++count; });
    return count;
  };
  uint64_t syncsBefore = countSyncs();
  for (Operation *op : networks) {
    KeptFold kept = keptFolds.lookup(op);
    // A network reassociates the combine: one that is not associative
    // would make the network disagree with the op's meaning. (A kept fold
    // keeps its order.)
    if (isa<ScanOp, ReduceOp>(op) && kept == KeptFold::PerElement &&
        !defaulted.contains(op) && failed(checkCombineLaws(op)))
      return signalPassFailure();
    SmallVector<Value> replacement = expand(op, kept, serialThreads);
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

bool mlir::obs::holdsNetworksToExpand(KernelOp kernel) {
  return kernel
      .walk([](Operation *op) {
        // A fold kept as written stays one, in element code or not.
        bool expands = isa<ScanOp, ReduceOp, SortOp>(op) &&
                       atProgramLevel(op) &&
                       (namesNetwork(op) || !keepsFold(op));
        return expands ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult mlir::obs::expandNetworksFirst(
    KernelOp kernel,
    function_ref<LogicalResult(OpPassManager &, Operation *)> runPipeline) {
  if (!holdsNetworksToExpand(kernel))
    return success();
  OpPassManager expand(KernelOp::getOperationName());
  expand.addPass(createObsExpandNetworks());
  return runPipeline(expand, kernel);
}
