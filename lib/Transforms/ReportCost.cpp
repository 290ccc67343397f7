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

void ObsReportCostPass::runOnOperation() {
  KernelOp kernel = getOperation();
  auto &simulations = getAnalysis<KernelSimulations>();
  FailureOr<std::shared_ptr<const KernelSimulation>> simulated =
      simulations.simulate(kernel);
  if (failed(simulated))
    return signalPassFailure();
  BlockCost cost = computeBlockCost((*simulated)->run, KernelOp::kWarpSize);
  InFlightDiagnostic remark = kernel.emitRemark();
  remark << "one block: " << cost.blockBarriers << " block barriers, "
         << cost.warpBarriers
         << " warp barriers; shared memory: " << cost.sharedAccesses
         << " warp accesses in " << cost.sharedWavefronts << " wavefronts ("
         << ratio(cost.sharedWavefronts, cost.sharedAccesses)
         << " each); global memory: " << cost.globalAccesses
         << " warp accesses touching " << cost.globalLines
         << " 128-byte lines (" << ratio(cost.globalLines, cost.globalAccesses)
         << " each)";
  if (cost.uncounted)
    remark << "; " << cost.uncounted
           << " warp accesses at places that depend on data, not counted";
  addToStatistic(*this, numBlockBarriers, "block-barriers", cost.blockBarriers);
  addToStatistic(*this, numSharedAccesses, "shared-warp-accesses",
                 cost.sharedAccesses);
  addToStatistic(*this, numSharedWavefronts, "shared-wavefronts",
                 cost.sharedWavefronts);
  addToStatistic(*this, numGlobalAccesses, "global-warp-accesses",
                 cost.globalAccesses);
  addToStatistic(*this, numGlobalLines, "global-lines", cost.globalLines);
  markAllAnalysesPreserved();
}
