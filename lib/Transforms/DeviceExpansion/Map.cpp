//===- Map.cpp - obs.device_map as a launch plan --------------------------===//
//
// obs.device_map: one kernel applies the function to a tile of every input,
// launched once over all the tiles.
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::device_expansion;

namespace {

class MapPlan : public LaunchPlan {
public:
  MapPlan(DeviceMapOp map, const DeviceExpansionOptions &options)
      : LaunchPlan(map, map.getElementTypes(), map.getBody(),
                   chooseTiling(map.getElementTypes(), options.tile),
                   /*identity=*/{}, options.statistics) {}

  /// Writes the launch before `map`.
  void expand(DeviceMapOp map);
};

/// obs.device_map: every tile of the inputs mapped by one kernel, in one
/// launch.
struct ExpandDeviceMap : OpRewritePattern<DeviceMapOp> {
  ExpandDeviceMap(MLIRContext *context, const DeviceExpansionOptions &options)
      : OpRewritePattern(context), options(options) {}

  LogicalResult matchAndRewrite(DeviceMapOp map,
                                PatternRewriter &rewriter) const override {
    MapPlan plan(map, options);
    plan.expand(map);
    rewriter.eraseOp(map);
    return success();
  }

  DeviceExpansionOptions options;
};

} // namespace

/// Warns of an input that holds one element when the map runs over more:
/// it reads as zeros past its first element, which is rarely what a value
/// meant for every element wants.
static void warnOfOneElementInputs(DeviceMapOp map) {
  auto isOneElement = [](Value memref) {
    return cast<MemRefType>(memref.getType()).getShape() ==
           ArrayRef<int64_t>{1};
  };
  if (isOneElement(map.getInputs().front()))
    return;
  for (auto [index, input] : llvm::enumerate(map.getInputs()))
    if (isOneElement(input))
      map.emitWarning() << "ins " << index
                        << " holds one element, and reads as zeros past it; "
                           "a value for every element is passed in "
                           "`scalars(...)`";
}

void MapPlan::expand(DeviceMapOp map) {
  warnOfOneElementInputs(map);
  SmallVector<std::pair<Type, Attribute>> arguments;
  for (Type scalar : scalars)
    arguments.push_back({ArrType::get(tiling.tile, scalar), zerosOf(scalar)});
  // A broadcast scalar is its one-element memref whole in every block.
  SmallVector<Type> broadcast = map.getScalarTypes();
  for (Type scalar : broadcast)
    arguments.push_back({ArrType::get(1, scalar), zerosOf(scalar)});
  SmallVector<Type> resultScalars;
  for (Value output : map.getOutputs())
    resultScalars.push_back(
        cast<MemRefType>(output.getType()).getElementType());
  ArrType resultType =
      ArrType::get(tiling.tile, elementOf(op->getContext(), resultScalars));
  // The function is applied to present elements only: an absent one
  // (past the end, in the last tile) is a zero the function never sees.
  KernelOp kernel = buildKernel(
      "map_tile", arguments, resultType,
      [&](ImplicitLocOpBuilder &b, ValueRange args) {
        ValueRange tiles = args.take_front(scalars.size());
        Value present = ExtentOp::create(b, tiles.front());
        // The broadcast scalars, read once, at place 0, by every thread.
        Value zero = arith::ConstantIndexOp::create(b, 0);
        SmallVector<Value> broadcastValues;
        for (Value scalar : args.drop_front(scalars.size()))
          llvm::append_range(broadcastValues, dsl::index(b, scalar, zero));
        return SmallVector<Value>{dsl::generate(
            b, resultType,
            [&](ImplicitLocOpBuilder &b, Value i) -> SmallVector<Value> {
              Value inside = arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                                   i, present);
              auto choice = scf::IfOp::create(b, resultScalars, inside,
                                              /*withElseRegion=*/true);
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPointToStart(choice.thenBlock());
              SmallVector<Value> elements;
              for (Value tile : tiles)
                llvm::append_range(elements, dsl::index(b, tile, i));
              llvm::append_range(elements, broadcastValues);
              scf::YieldOp::create(b, dsl::inlineRegion(b, body, elements));
              b.setInsertionPointToStart(choice.elseBlock());
              SmallVector<Value> zeros;
              for (Type scalar : resultScalars)
                zeros.push_back(arith::getZeroConstant(b, b.getLoc(), scalar));
              scf::YieldOp::create(b, zeros);
              return SmallVector<Value>(choice.getResults());
            })};
      });
  for (unsigned index = scalars.size(); index < arguments.size(); ++index)
    markGlobalArgument(kernel, index);
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Value length = lengthOf(b, map.getInputs().front());
  Value tiles = ceilTiles(b, length);
  // Later inputs are read, and outputs written, up to `length` only: an
  // output in place on a longer later input had its places past `length`
  // written with the last tile's zeros (adversarial run).
  SmallVector<Value> inputs = viewLaterInputs(b, map.getInputs(), length);
  SmallVector<Value> outputs =
      viewOutputs(b, map.getOutputs(), length, map.getInputs(), inputs);
  llvm::append_range(inputs, map.getScalars());
  launch(b, kernel, tiles, inputs, outputs);
}

void mlir::obs::populateDeviceMapExpansionPatterns(
    RewritePatternSet &patterns, const DeviceExpansionOptions &options) {
  patterns.add<ExpandDeviceMap>(patterns.getContext(), options);
}
