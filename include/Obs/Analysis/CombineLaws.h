//===- CombineLaws.h - Trying a combine's laws on constants -----*- C++ -*-===//
//
// Scans and reductions reassociate their combine (tiles, trees, networks)
// and fill absent elements with its identity, so a combine that is not
// associative, or an identity that is not one, is a wrong answer on some
// target or for some length, not an error. These checks try the laws on a
// few sample elements where the combine's region folds to constants, and
// report a counterexample.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_ANALYSIS_COMBINELAWS_H
#define OBS_ANALYSIS_COMBINELAWS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

namespace mlir::obs {

/// Fails, with an error on `op`, where the combine in `op`'s first region
/// (two flattened elements to one) folds to constants on a few sample
/// elements and `identity` (one constant per scalar; none: not tried) is
/// not an identity of it on both sides, or it is not associative (naming
/// three elements).
LogicalResult checkCombineLaws(Operation *op, ArrayAttr identity = {});

/// Fails, with an error on `op` naming the elements, where the order in
/// `op`'s first region (two flattened elements to an i1: whether the first
/// comes before the second) folds to constants on sample elements and is
/// not a strict weak order on them: an element before itself, two elements
/// each before the other, `a < b < c` without `a < c`, or incomparability
/// that is not transitive. A sort by such an order has no one answer: each
/// network and target would give its own.
LogicalResult checkStrictWeakOrder(Operation *op);

/// Whether the combine in `op`'s first region folds to constants on every
/// triple of sample elements and is associative on each: what a network
/// the program did not name needs before it may reassociate the combine.
/// Silent: a combine that fails keeps its sequential fold.
bool isAssociativeOnSamples(Operation *op);

} // namespace mlir::obs

#endif // OBS_ANALYSIS_COMBINELAWS_H
