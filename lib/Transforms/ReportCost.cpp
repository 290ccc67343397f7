//===- ReportCost.cpp - one block's memory cost, from the simulation ------===//
//
// obs-report-cost: the barriers, shared-memory wavefronts and global lines
// of one block, computed from the simulation's exact accesses
// (computeBlockCost in lib/Analysis/BlockRun.cpp).
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Format.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSREPORTCOST
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsReportCostPass
    : mlir::obs::impl::ObsReportCostBase<ObsReportCostPass> {
  void runOnOperation() override;
};
} // namespace

/// `count` per `per`, to two decimals (0 for none).
static std::string ratio(uint64_t count, uint64_t per) {
  std::string text;
  llvm::raw_string_ostream(text)
      << llvm::format("%.2f", per ? double(count) / double(per) : 0.0);
  return text;
}

/// What `cost` shows: its barriers, its shared and global warp accesses and
/// the ops its warps issue (per element of `elements`, when given).
static void describeCost(InFlightDiagnostic &remark, const BlockCost &cost,
                         uint64_t elements) {
  remark << cost.blockBarriers << " block barriers, " << cost.warpBarriers
         << " warp barriers; shared memory: " << cost.sharedAccesses
         << " warp accesses in " << cost.sharedWavefronts << " wavefronts ("
         << ratio(cost.sharedWavefronts, cost.sharedAccesses)
         << " each); global memory: " << cost.globalAccesses
         << " warp accesses touching " << cost.globalLines
         << " 128-byte lines (" << ratio(cost.globalLines, cost.globalAccesses)
         << " each); " << cost.warpOps << " warp ops issued";
  if (elements)
    remark << " (" << ratio(cost.warpOps, elements) << " per element"
           << (cost.opsSkipped ? ", not counting loops on data" : "") << ")";
  if (cost.uncounted)
    remark << "; " << cost.uncounted
           << " warp accesses at places that depend on data, not counted";
}

/// How far `cost`'s shared wavefronts are from the fewest its accesses'
/// widths allow: 1.00 without bank conflicts (a 16-byte vector access
/// takes 4 wavefronts at least, so wavefronts per access alone would call
/// it conflicted).
static void describeBankConflicts(InFlightDiagnostic &remark,
                                  const BlockCost &cost) {
  if (cost.sharedAccesses)
    remark << "; shared wavefronts "
           << ratio(cost.sharedWavefronts, cost.sharedLeastWavefronts)
           << " times the fewest the accesses' widths allow";
}

void ObsReportCostPass::runOnOperation() {
  KernelOp kernel = getOperation();
  auto &simulations = getAnalysis<KernelSimulations>();
  FailureOr<std::shared_ptr<const KernelSimulation>> simulated =
      simulations.simulate(kernel);
  if (failed(simulated))
    return signalPassFailure();
  const KernelSimulation &simulation = **simulated;
  // Per element of the kernel's results (of its arguments, for a kernel
  // that returns nothing).
  uint64_t elements = 0;
  for (ArrayRef<Type> types :
       {kernel.getResultTypes(), kernel.getArgumentTypes()}) {
    for (Type type : types)
      if (auto array = dyn_cast<ArrType>(type))
        elements += array.getLength();
    if (elements)
      break;
  }
  unsigned warps =
      llvm::divideCeil(simulation.run.getThreads(), KernelOp::kWarpSize);

  // Each stage's share, at the sync whose barrier ends it (summed over the
  // times a repeat runs it), and the last stage's at the kernel's return.
  SmallVector<BlockCost> phases =
      computePhaseCosts(simulation.run, KernelOp::kWarpSize);
  ArrayRef<Barrier> barriers = simulation.run.getBarriers();
  llvm::MapVector<Operation *, BlockCost> byStage;
  for (auto [phase, cost] : llvm::enumerate(phases)) {
    Operation *stage = nullptr;
    if (phase < barriers.size()) {
      IntegerAttr index = ObsDialect::SyncIndexAttrHelper(kernel.getContext())
                              .getAttr(barriers[phase].op);
      if (index && index.getInt() >= 0)
        stage = simulation.syncs[index.getInt()];
    } else {
      stage = kernel.getBody().front().getTerminator();
    }
    if (stage)
      byStage[stage] += cost;
  }
  for (auto &[stage, cost] : byStage) {
    InFlightDiagnostic remark = mlir::emitRemark(stage->getLoc());
    remark << (isa<SyncOp>(stage) ? "the stage this sync ends: "
                                  : "the last stage: ");
    describeCost(remark, cost, /*elements=*/0);
    describeBankConflicts(remark, cost);
  }

  BlockCost cost = computeBlockCost(simulation.run, KernelOp::kWarpSize);
  // At the kernel's location, not through the op: a remark through an op
  // carries the whole op printed after it, and a report is one line.
  InFlightDiagnostic remark = mlir::emitRemark(kernel.getLoc());
  remark << "one block: ";
  describeCost(remark, cost, elements);
  remark << "; about " << cost.estimatedSlots(warps) << " issue slots";
  describeBankConflicts(remark, cost);
  remark.report();
  addToStatistic(*this, numBlockBarriers, "block-barriers", cost.blockBarriers);
  addToStatistic(*this, numWarpBarriers, "warp-barriers", cost.warpBarriers);
  addToStatistic(*this, numSharedAccesses, "shared-warp-accesses",
                 cost.sharedAccesses);
  addToStatistic(*this, numSharedWavefronts, "shared-wavefronts",
                 cost.sharedWavefronts);
  addToStatistic(*this, numGlobalAccesses, "global-warp-accesses",
                 cost.globalAccesses);
  addToStatistic(*this, numGlobalLines, "global-lines", cost.globalLines);
  addToStatistic(*this, numWarpOps, "warp-ops-issued", cost.warpOps);
  addToStatistic(*this, numIssueSlots, "issue-slots",
                 cost.estimatedSlots(warps));
  markAllAnalysesPreserved();
}
