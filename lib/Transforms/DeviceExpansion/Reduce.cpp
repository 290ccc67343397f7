//===- Reduce.cpp - obs.device_reduce as a launch plan --------------------===//
//
// obs.device_reduce: each tile folded by a tree to its total, the totals
// folded the same way, level by level (docs/Rationale.md, "The device
// level").
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::device_expansion;

KernelOp FoldPlan::getReduceTileKernel() {
  if (reduceTile)
    return reduceTile;
  Attribute absent = absentOf(identity.getValue());
  reduceTile =
      buildKernel("reduce_tile", {{tileType(tiling.tile), absent}}, tileType(1),
                  [&](ImplicitLocOpBuilder &b, ValueRange arguments) {
                    SmallVector<Value> total = dsl::reduce(
                        b, arguments.front(), combineFn(), ReduceNetwork::Tree);
                    return SmallVector<Value>{dsl::generate(
                        b, tileType(1),
                        [&](ImplicitLocOpBuilder &, Value) { return total; })};
                  });
  return reduceTile;
}

void FoldPlan::emitReduce(ImplicitLocOpBuilder &b, ValueRange inputs,
                          ValueRange outputs, Value length, uint64_t most,
                          Value active) {
  Level level = planLevel(b, length, most, active);
  if (level.oneTileGrid)
    launch(b, getReduceTileKernel(), level.oneTileGrid, inputs, outputs);
  if (!level.tiles)
    return;
  // One total per tile, then the totals folded the same way.
  SmallVector<Value> totals = allocate(b, level.tiles);
  launch(b, getReduceTileKernel(), level.tiles, inputs, totals);
  emitReduce(b, totals, outputs, level.tiles,
             llvm::divideCeil(most, tiling.tile), level.nextActive);
  llvm::append_range(temporaries, totals);
}

void mlir::obs::populateDeviceReduceExpansionPatterns(
    RewritePatternSet &patterns, const DeviceExpansionOptions &options) {
  patterns.add<ExpandFold<DeviceReduceOp>>(
      patterns.getContext(), options,
      [](FoldPlan &plan, ImplicitLocOpBuilder &b, DeviceReduceOp reduce,
         Value length, uint64_t most) {
        plan.emitReduce(b, reduce.getInputs(), reduce.getOutputs(), length,
                        most, /*active=*/Value());
      });
}
