//===- LaunchProof.h - every place of a launch, proved ----------*- C++ -*-===//
//
// The places half of the launch proof (docs/Rationale.md, "The launch
// proof"): where every block of a launch reads and writes global memory,
// followed through views to allocations, proved inside, written once and
// apart from what other blocks read. obs-verify-launches uses it, and judges
// on the kernel's simulation the overlaps it returns (places one block both
// reads and writes).
//
//===----------------------------------------------------------------------===//

#ifndef OBS_ANALYSIS_LAUNCHPROOF_H
#define OBS_ANALYSIS_LAUNCHPROOF_H

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include <string>

namespace mlir::obs {

/// Two elements of a kernel's arrays (as launch operands: the components of
/// its arguments, then of its results) that a launch puts at one place in
/// block `block`, in the allocation `root`.
struct LaunchOverlap {
  GlobalOverlap elements;
  int64_t block;
  Value root;
};

/// Proves, by visiting every block and element, that `launch` of `kernel`
/// keeps every place inside its memref and its allocation, writes no place
/// twice and writes no place another block reads, following memrefs
/// through views; reports the first counterexample. Appends each pair of
/// elements that one block reads and writes at one place, once.
LogicalResult proveLaunchPlaces(LaunchOp launch, KernelOp kernel,
                                SmallVectorImpl<LaunchOverlap> &overlaps);

/// How the proof's errors name operand `operand` of `launch`: "ins N" or
/// "outs N".
std::string nameLaunchOperand(LaunchOp launch, unsigned operand);

} // namespace mlir::obs

#endif // OBS_ANALYSIS_LAUNCHPROOF_H
