//===- IntRangeOptimizations.cpp - range rewrites on sound ranges ---------===//
//
// Upstream's arith-int-range-optimizations, run on SoundIntegerRangeAnalysis
// rather than on the upstream analysis it loads itself.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/SoundIntegerRanges.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSINTRANGEOPTIMIZATIONS
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
/// Drops what the solver knows of an op the rewrites erase, as upstream's
/// pass does: a new op may take its address.
class ForgetErased : public RewriterBase::Listener {
public:
  explicit ForgetErased(DataFlowSolver &solver) : solver(solver) {}

protected:
  void notifyOperationErased(Operation *op) override {
    solver.eraseState(solver.getProgramPointAfter(op));
    for (Value result : op->getResults())
      solver.eraseState(result);
  }

private:
  DataFlowSolver &solver;
};

struct ObsIntRangeOptimizationsPass
    : mlir::obs::impl::ObsIntRangeOptimizationsBase<
          ObsIntRangeOptimizationsPass> {
  void runOnOperation() override {
    Operation *op = getOperation();
    DataFlowSolver solver;
    if (failed(solveSoundIntegerRanges(solver, op)))
      return signalPassFailure();
    ForgetErased listener(solver);
    RewritePatternSet patterns(op->getContext());
    arith::populateIntRangeOptimizationsPatterns(patterns, solver);
    // As upstream: no folding and no region simplification, which may
    // erase block arguments whose storage a new argument then takes, with
    // the solver's stale state.
    if (failed(
            applyPatternsGreedily(op, std::move(patterns),
                                  GreedyRewriteConfig()
                                      .enableFolding(false)
                                      .setRegionSimplificationLevel(
                                          GreedySimplifyRegionLevel::Disabled)
                                      .setListener(&listener))))
      signalPassFailure();
  }
};
} // namespace
