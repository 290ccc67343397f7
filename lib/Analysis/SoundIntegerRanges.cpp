//===- SoundIntegerRanges.cpp - integer ranges obs can trust -------------===//
//
// MLIR's integer range analysis, with an unsigned loop's counter and a
// division by a divisor that may be zero given what obs's programs mean.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/SoundIntegerRanges.h"
#include "Obs/Dialect/Obs/DefinedArithmetic.h"
#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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
