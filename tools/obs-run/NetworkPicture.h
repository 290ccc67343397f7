//===- NetworkPicture.h - a kernel drawn as the papers draw networks -*- C++
//-*-===//
//
// Draws a flat kernel as an SVG network: one horizontal wire per element,
// time left to right with one column per stage, a vertical link where a
// stage combines elements (a comparator, a fan's combine), a slanted line
// where it only moves one, and after each stage its sync, marked by kind
// (block, warp, in place).
//
// The picture is taken from the code that runs: a copy of the kernel with
// one thread per element is lowered and every thread simulated (BlockRun),
// and element e of a stage is linked to the elements its thread read. So
// repeats are unrolled, and what is drawn is what the lowering computes.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_RUN_NETWORKPICTURE_H
#define OBS_RUN_NETWORKPICTURE_H

#include "Obs/Dialect/Obs/ObsOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::obs {

/// Writes the SVG picture of the flat kernel `kernel` (after --obs-flatten)
/// to `os`; the syncs are marked as `kernel` has them. Fails, with the
/// reason reported, for a kernel it cannot simulate with one thread per
/// element (more than a block's 1024 elements, indices that depend on
/// data).
LogicalResult drawNetwork(KernelOp kernel, llvm::raw_ostream &os);

} // namespace mlir::obs

#endif // OBS_RUN_NETWORKPICTURE_H
