//===- SoundIntegerRanges.h - integer ranges obs can trust ------*- C++ -*-===//
//
// MLIR's integer range analysis, with what it gets wrong for obs's programs
// left unknown.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_ANALYSIS_SOUNDINTEGERRANGES_H
#define OBS_ANALYSIS_SOUNDINTEGERRANGES_H

#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"

namespace mlir::obs {

/// dataflow::IntegerRangeAnalysis, except that the counter of an
/// `scf.for unsigned` may be any value: upstream bounds every loop's
/// counter by its bounds read as signed integers, and a loop whose bounds
/// are compared unsigned may cross 2^63 (its counter negative as a signed
/// integer) where the signed reading says it does not. And a division or
/// remainder by a divisor that may be zero has obs's meaning
/// (inferDivisionByZeroRange), not arith's, which assumes it is not zero.
/// Load it in place of the upstream analysis.
class SoundIntegerRangeAnalysis : public dataflow::IntegerRangeAnalysis {
public:
  using IntegerRangeAnalysis::IntegerRangeAnalysis;

  LogicalResult visitOperation(
      Operation *op,
      ArrayRef<const dataflow::IntegerValueRangeLattice *> operands,
      ArrayRef<dataflow::IntegerValueRangeLattice *> results) override;

  void visitNonControlFlowArguments(
      Operation *op, const RegionSuccessor &successor,
      ArrayRef<dataflow::IntegerValueRangeLattice *> argLattices,
      unsigned firstIndex) override;
};

/// Loads into `solver` what the range analysis needs (dead code and
/// constant propagation) and SoundIntegerRangeAnalysis, and runs it on
/// `op`.
LogicalResult solveSoundIntegerRanges(DataFlowSolver &solver, Operation *op);

} // namespace mlir::obs

#endif // OBS_ANALYSIS_SOUNDINTEGERRANGES_H
