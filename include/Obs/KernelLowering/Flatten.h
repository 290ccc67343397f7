//===- Flatten.h - sub-program combinators lifted to whole arrays -*- C++
//-*-===//
//
// `two P` on a GPU is one program whose stages span both halves, so the
// kernel lowering takes flat kernels: no two, ilv or one holds a sync.
// Flattening lifts them (see --obs-flatten).
//
//===----------------------------------------------------------------------===//

#ifndef OBS_KERNELLOWERING_FLATTEN_H
#define OBS_KERNELLOWERING_FLATTEN_H

#include "Obs/Dialect/Obs/ObsOps.h"

namespace mlir::obs {

/// Lifts every two, ilv and one holding syncs (see --obs-flatten).
LogicalResult flattenKernel(
    KernelOp kernel, function_ref<void()> countLifted = [] {},
    function_ref<void()> countMergedSync = [] {});

/// Whether no two, ilv or one of `kernel` holds a sync.
bool isFlat(KernelOp kernel);

} // namespace mlir::obs

#endif // OBS_KERNELLOWERING_FLATTEN_H
