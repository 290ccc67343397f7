//===- ReferenceLaunch.h - launches on the reference target -----*- C++ -*-===//
//
// Internal to lib/Conversion/ObsToReference: what the lowering of kernels
// (ObsToReference.cpp) and of launches (ReferenceLaunch.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_CONVERSION_OBSTOREFERENCE_REFERENCELAUNCH_H
#define OBS_LIB_CONVERSION_OBSTOREFERENCE_REFERENCELAUNCH_H

#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include <string>

namespace mlir::obs::reference {

/// The name of the function that runs one block of a kernel whose code asks
/// where its block is, reads by obs.index, or returns a global scatter.
std::string blockFunctionName(KernelOp kernel);

/// Whether a launch runs `kernel`'s blocks through a block function: one
/// that takes where its block is, and the memrefs of its `obs.global`
/// arguments and the memrefs and tables of its global scatters whole.
bool needsBlockFunction(KernelOp kernel);

/// The type a block function takes a global scatter's memref as (any
/// length), or a table of its places.
MemRefType wholeMemRefType(Type element);

/// A memref of `like`'s element type and rank, of any length, with any
/// offset and strides (its inner sizes `like`'s): how a kernel's function
/// takes what it reads or scatters to whole (an `obs.global` argument, a
/// global scatter's result), the launch's view as it is. A cast to
/// `wholeMemRefType` took a view at a run-time offset to start at its
/// allocation's (ref read elements 0 to 3 of a view at 3), and one at a
/// static offset did not verify; a 1-D type for a global of rows could
/// not take the launch's 2-D memref at all.
MemRefType anyViewMemRefType(MemRefType like);

/// Allocates a zeroed table of `length` written flags.
Value allocateWrittenTable(OpBuilder &builder, Location loc, Value length);

/// Lowers each launch of `launches` (a launch and its kernel) in `module`
/// to a call of a private function that runs the kernel's function (or its
/// block function) once per block, in order, on copies of the block's
/// chunks: one function for launches of one kernel with the same operand
/// types and layouts.
void lowerLaunches(ModuleOp module,
                   ArrayRef<std::pair<LaunchOp, KernelOp>> launches);

} // namespace mlir::obs::reference

#endif // OBS_LIB_CONVERSION_OBSTOREFERENCE_REFERENCELAUNCH_H
