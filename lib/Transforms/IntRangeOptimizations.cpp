//===- IntRangeOptimizations.cpp - range rewrites on sound ranges ---------===//
//
// Upstream's arith-int-range-optimizations, run on SoundIntegerRangeAnalysis
// rather than on the upstream analysis it loads itself.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/SoundIntegerRanges.h"
#include "Obs/Dialect/Obs/DefinedArithmetic.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSINTRANGEOPTIMIZATIONS
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

void SoundIntegerRangeAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<dataflow::IntegerValueRangeLattice *> argLattices,
    unsigned firstIndex) {
  // The counter, the one argument of the body that is not a successor
  // input, is then what the generic analysis makes of an argument it
  // cannot reason about: any value.
  if (auto loop = dyn_cast<scf::ForOp>(op); loop && loop.getUnsignedCmp())
    return SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
        op, successor, argLattices, firstIndex);
  IntegerRangeAnalysis::visitNonControlFlowArguments(op, successor, argLattices,
                                                     firstIndex);
}

LogicalResult mlir::obs::solveSoundIntegerRanges(DataFlowSolver &solver,
                                                 Operation *op) {
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<SoundIntegerRangeAnalysis>();
  return solver.initializeAndRun(op);
}

LogicalResult SoundIntegerRangeAnalysis::visitOperation(
    Operation *op,
    ArrayRef<const dataflow::IntegerValueRangeLattice *> operands,
    ArrayRef<dataflow::IntegerValueRangeLattice *> results) {
  if (results.size() == 1 && operands.size() == 2 &&
      llvm::none_of(operands, [](const auto *operand) {
        return operand->getValue().isUninitialized();
      })) {
    ConstantIntRanges ranges[] = {operands[0]->getValue().getValue(),
                                  operands[1]->getValue().getValue()};
    if (std::optional<ConstantIntRanges> byZero =
            inferDivisionByZeroRange(op, ranges)) {
      propagateIfChanged(results[0],
                         results[0]->join(IntegerValueRange(*byZero)));
      return success();
    }
  }
  return IntegerRangeAnalysis::visitOperation(op, operands, results);
}

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
