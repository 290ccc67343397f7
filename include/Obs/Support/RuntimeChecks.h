//===- RuntimeChecks.h - checks made as ref and cpu run ------*- C++ -*-===//
//
// Some properties cannot be proved before the data is known: a scatter
// without a combine whose places depend on data must write each place at
// most once. The `ref` and `cpu` targets check them as they run and stop at
// the first violation through a runtime function obs-run provides
// (tools/obs-run), which reports it and exits with status 1.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_RUNTIMECHECKS_H
#define OBS_SUPPORT_RUNTIMECHECKS_H

#include "mlir/IR/Builders.h"

namespace mlir::obs {

/// `void obs_scatter_collision(i64 block, i64 place)`: a scatter without a
/// combine wrote `place` of its result a second time, in block `block`.
constexpr llvm::StringLiteral kScatterCollisionFunction =
    "obs_scatter_collision";

/// Emits a call of the collision report for `place` (an index) in `block`
/// (an index), declaring the function in the nearest symbol table above the
/// insertion point when it is not there yet.
void emitScatterCollisionReport(OpBuilder &builder, Location loc, Value block,
                                Value place);

} // namespace mlir::obs

#endif // OBS_SUPPORT_RUNTIMECHECKS_H
