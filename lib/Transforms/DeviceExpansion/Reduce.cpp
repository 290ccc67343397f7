//===- Reduce.cpp - obs.device_reduce as a launch plan --------------------===//
//
// obs.device_reduce: each tile folded by a tree to its total, the totals
// folded the same way, level by level (docs/Rationale.md, "The device
// level").
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"
#include "Obs/Analysis/Allocations.h"

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

KernelOp FoldPlan::getCopyResultKernel() {
  if (copyResult)
    return copyResult;
  copyResult = buildKernel(
      "copy_result", {{tileType(1), absentOf(identity.getValue())}},
      tileType(1), [&](ImplicitLocOpBuilder &b, ValueRange arguments) {
        return SmallVector<Value>{dsl::generate(
            b, tileType(1), [&](ImplicitLocOpBuilder &b, Value i) {
              return dsl::index(b, arguments.front(), i);
            })};
      });
  return copyResult;
}

void FoldPlan::emitDeviceReduce(ImplicitLocOpBuilder &b, ValueRange inputs,
                                ValueRange outputs, Value length,
                                uint64_t most) {
  // In place (an output in the memory of an input: the same memref, or a
  // view of the input's first element): the last level's one block would
  // read the input through one view and write its result through
  // another, which the launch proof cannot take as one place at run-time
  // sizes. The result goes to a temporary first, then a one-element
  // launch copies it out.
  if (!mayShareMemory(outputs, inputs))
    return emitReduce(b, inputs, outputs, length, most, /*active=*/Value());
  Value one = arith::ConstantIndexOp::create(b, 1);
  SmallVector<Value> result = allocate(b, one);
  emitReduce(b, inputs, result, length, most, /*active=*/Value());
  launch(b, getCopyResultKernel(), one, result, outputs);
  llvm::append_range(temporaries, result);
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
         ValueRange inputs, Value length, uint64_t most) {
        plan.emitDeviceReduce(b, inputs, reduce.getOutputs(), length, most);
      });
}
