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
#include "llvm/ADT/DenseMap.h"
#include <array>
#include <string>

namespace mlir::obs {

/// Two elements of a kernel's arrays (as launch operands: the components of
/// its arguments, then of its results) that a launch puts at one place in
/// block `block`, in the allocation at `allocation` (a location, not the
/// value: a proof is remembered past the function it was made on, see
/// LaunchPlaceProofs).
struct LaunchOverlap {
  GlobalOverlap elements;
  int64_t block;
  Location allocation;
};

/// Proves, by visiting every block and element, that `launch` of `kernel`
/// keeps every place inside its memref and its allocation, writes no place
/// twice and writes no place another block reads, following memrefs
/// through views; reports the first counterexample. Appends each pair of
/// elements that one block reads and writes at one place, once.
LogicalResult proveLaunchPlaces(LaunchOp launch, KernelOp kernel,
                                SmallVectorImpl<LaunchOverlap> &overlaps);

/// proveLaunchPlaces for the launches of one pass run, remembered in the
/// context for large static launches (kRememberedPlaces places or more),
/// whose proof visits every place: obs-collect-launch-overlaps, in
/// obs-optimize, and obs-verify-launches, in every lowering, prove each
/// such launch once between them. A proof is remembered by the launch's
/// position in its host function, the function printed whole (locations
/// included: the memrefs' allocations and views are what the proof
/// follows) with its module's globals, and the kernel's launch operands
/// and layouts; only a proof
/// that succeeded is, so that a failing one reports again.
class LaunchPlaceProofs {
public:
  static constexpr uint64_t kRememberedPlaces = uint64_t(1) << 16;

  LogicalResult prove(LaunchOp launch, KernelOp kernel,
                      SmallVectorImpl<LaunchOverlap> &overlaps);
  /// How many proofs were remembered from an earlier one.
  unsigned getReused() const { return reused; }

private:
  /// The printed hash of each host function, and each launch's position
  /// in it: computed once per function in a pass run.
  llvm::DenseMap<Operation *, std::array<uint8_t, 20>> functionKeys;
  llvm::DenseMap<Operation *, unsigned> launchPositions;
  unsigned reused = 0;
};

/// How the proof's errors name operand `operand` of `launch`: "ins N" or
/// "outs N".
std::string nameLaunchOperand(LaunchOp launch, unsigned operand);

/// How the proof's errors name block `block` of `launch`: "block N", or
/// "block (R, C)" for a launch expanded from a tiled one.
std::string nameLaunchBlock(LaunchOp launch, int64_t block);

} // namespace mlir::obs

#endif // OBS_ANALYSIS_LAUNCHPROOF_H
