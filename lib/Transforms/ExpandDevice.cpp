//===- ExpandDevice.cpp - device-level ops to launch plans ----------------===//
//
// obs-expand-device: obs.device_map, obs.device_reduce, obs.device_scan and
// obs.device_sort become launches of obs kernels over tiles of their
// arrays, for a length known only at run time. The kernels are written
// with the combinator functions (Obs/Builder/Combinators.h) and are
// ordinary obs.kernels: the pipelines refine and prove them, and prove the
// launches, as they would kernels and launches a user wrote. docs/Rationale.md,
// "The device level", gives the plans and their memory traffic.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/DeviceExpansion.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "llvm/ADT/ScopeExit.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSEXPANDDEVICE
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;
namespace {
struct ObsExpandDevicePass
    : mlir::obs::impl::ObsExpandDeviceBase<ObsExpandDevicePass> {
  using ObsExpandDeviceBase::ObsExpandDeviceBase;
  /// Checks the options before any module is touched: a misspelled
  /// algorithm was an error only in a module that held a device op, and
  /// accepted without a word otherwise.
  LogicalResult initialize(MLIRContext *context) override;
  void runOnOperation() override;

private:
  /// The patterns of the algorithms the pass was asked for.
  LogicalResult populatePatterns(RewritePatternSet &patterns,
                                 const DeviceExpansionOptions &options);
};
} // namespace

LogicalResult
ObsExpandDevicePass::populatePatterns(RewritePatternSet &patterns,
                                      const DeviceExpansionOptions &options) {
  if (algorithms.empty()) {
    populateObsDeviceExpansionPatterns(patterns, options);
    return success();
  }
  using Populate =
      void (*)(RewritePatternSet &, const DeviceExpansionOptions &);
  const std::pair<StringRef, Populate> known[] = {
      {"map", populateDeviceMapExpansionPatterns},
      {"reduce", populateDeviceReduceExpansionPatterns},
      {"scan", populateDeviceScanExpansionPatterns},
      {"radix-sort", populateRadixSortExpansionPatterns},
      {"merge-sort", populateMergeSortExpansionPatterns}};
  for (const std::string &name : algorithms) {
    const auto *found = llvm::find_if(
        known, [&](const auto &entry) { return entry.first == name; });
    if (found == std::end(known))
      return failure(); // initialize reported it.
    found->second(patterns, options);
  }
  return success();
}

LogicalResult ObsExpandDevicePass::initialize(MLIRContext *context) {
  for (const std::string &name : algorithms)
    if (!llvm::is_contained(
            {"map", "reduce", "scan", "radix-sort", "merge-sort"}, name))
      return mlir::emitError(UnknownLoc::get(context))
             << "obs-expand-device: unknown algorithm '" << name
             << "': expected map, reduce, scan, radix-sort or merge-sort";
  // A tile of one element would make every level of a reduce or scan as
  // long as the last, and the plan would never end.
  if (tile && (!llvm::isPowerOf2_64(tile) || tile < 2 || tile > 65536))
    return mlir::emitError(UnknownLoc::get(context))
           << "obs-expand-device: tile=" << tile.getValue()
           << " is not a power of two from 2 to 65536";
  return success();
}

void ObsExpandDevicePass::runOnOperation() {
  ModuleOp module = getOperation();
  // The host allocations the expansion makes get obs-check-host-code's
  // checks, which ran before it: those of the program are in place.
  llvm::DenseSet<Operation *> allocatedBefore;
  module.walk([&](memref::AllocOp alloc) { allocatedBefore.insert(alloc); });
  llvm::scope_exit checkNew([&] {
    module.walk([&](memref::AllocOp alloc) {
      auto function = alloc->getParentOfType<func::FuncOp>();
      if (!allocatedBefore.contains(alloc) && function &&
          !alloc->getParentOfType<gpu::GPUModuleOp>() &&
          ObsDialect::HostCheckedAttrHelper(&getContext())
              .isAttrPresent(function))
        emitTemporaryAllocationCheck(alloc);
    });
  });
  if (failed(expandTiledLaunches(module)) ||
      failed(expandHaloArguments(module)))
    return signalPassFailure();
  // Last: the plans' launches carry too.
  llvm::scope_exit clear([&] {
    if (failed(clearChains(module)))
      signalPassFailure();
  });
  SmallVector<Operation *> deviceOps;
  module.walk([&](Operation *op) {
    if (isa<DeviceMapOp, DeviceReduceOp, DeviceScanOp, DeviceSortOp>(op))
      deviceOps.push_back(op);
  });
  if (deviceOps.empty())
    return;
  DeviceExpansionStatistics statistics;
  DeviceExpansionOptions options;
  options.tile = tile;
  options.statistics = &statistics;
  RewritePatternSet patterns(&getContext());
  if (failed(populatePatterns(patterns, options)))
    return signalPassFailure();
  FrozenRewritePatternSet frozen(std::move(patterns));
  PatternApplicator applicator(frozen);
  applicator.applyDefaultCostModel();
  // Each op is rewritten once, by the pattern of highest benefit that
  // matches. The plans' host code is left as written: a greedy driver would
  // fold it.
  PatternRewriter rewriter(&getContext());
  bool failedAny = false;
  for (Operation *op : deviceOps) {
    // A pattern that does not match because the op breaks its laws has
    // said so at the op; otherwise no pattern expands it.
    bool reported = false;
    ScopedDiagnosticHandler watch(&getContext(), [&](Diagnostic &diagnostic) {
      reported |= diagnostic.getSeverity() == DiagnosticSeverity::Error;
      return failure();
    });
    rewriter.setInsertionPoint(op);
    if (succeeded(applicator.matchAndRewrite(op, rewriter)))
      continue;
    if (!reported)
      op->emitOpError("has no device algorithm to expand it");
    failedAny = true;
  }
  auto add = [&](Pass::Statistic &statistic, StringRef name, unsigned count) {
    if (count)
      addToStatistic(*this, statistic, name, count);
  };
  add(numOps, "device-ops", statistics.ops);
  add(numKernels, "kernels", statistics.kernels);
  add(numLaunches, "launches", statistics.launches);
  add(numRadixSorts, "radix-sorts", statistics.radixSorts);
  add(numMergeSorts, "merge-sorts", statistics.mergeSorts);
  if (failedAny)
    signalPassFailure();
}
