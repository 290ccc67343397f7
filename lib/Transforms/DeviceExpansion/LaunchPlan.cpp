//===- LaunchPlan.cpp - what every device algorithm's plan shares ---------===//
//
// Tilings, kernels, launches, temporaries and the levels of a plan, and the
// patterns of all of obs-expand-device's algorithms together.
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"
#include "Obs/Analysis/Allocations.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::device_expansion;

uint64_t mlir::obs::device_expansion::getScalarsBytes(TypeRange scalars) {
  uint64_t bytes = 0;
  for (Type scalar : scalars)
    bytes += getTypeBytes(scalar);
  return bytes;
}

Tiling mlir::obs::device_expansion::chooseTilingOfBytes(uint64_t bytes,
                                                        uint64_t budget,
                                                        uint64_t most,
                                                        uint64_t forced) {
  // Elements too wide for kLeastTile of them in the budget get fewer (at
  // least 2): a tile of 256 was the floor, and a scan of 25 i64 scalars
  // then needed more shared memory than a block has, on the GPU targets
  // only.
  uint64_t fits = std::max<uint64_t>(2, llvm::bit_floor(budget / bytes));
  uint64_t tile =
      forced ? forced
             : std::clamp<uint64_t>(fits, std::min<uint64_t>(kLeastTile, fits),
                                    most);
  return {tile, std::min<uint64_t>(kMostTileThreads, tile)};
}

Tiling mlir::obs::device_expansion::chooseTiling(TypeRange scalars,
                                                 uint64_t forced) {
  return chooseTilingOfBytes(getScalarsBytes(scalars), kFoldTileBytes,
                             kMostFoldTile, forced);
}

Tiling mlir::obs::device_expansion::chooseSortTiling(uint64_t forced) {
  uint64_t tile = forced ? forced : kRadixSortTile;
  return {tile, std::min<uint64_t>(kMostTileThreads, tile)};
}

Tiling mlir::obs::device_expansion::chooseMergeTiling(TypeRange scalars,
                                                      uint64_t forced) {
  return chooseTilingOfBytes(getScalarsBytes(scalars), kMergeTileBytes,
                             kMostMergeTile, forced);
}

Type mlir::obs::device_expansion::elementOf(MLIRContext *context,
                                            TypeRange scalars) {
  if (scalars.size() == 1)
    return scalars.front();
  return TupleType::get(context, scalars);
}

Attribute mlir::obs::device_expansion::absentOf(ArrayRef<Attribute> values) {
  if (values.size() == 1)
    return values.front();
  return ArrayAttr::get(values.front().getContext(), values);
}

Attribute mlir::obs::device_expansion::zerosOf(TypeRange types) {
  SmallVector<Attribute> zeros;
  for (Type type : types)
    zeros.push_back(Builder(type.getContext()).getZeroAttr(type));
  return absentOf(zeros);
}

uint64_t mlir::obs::device_expansion::mostLength(Value memref) {
  int64_t size = cast<MemRefType>(memref.getType()).getDimSize(0);
  return ShapedType::isDynamic(size) ? kDynamicGridLength : size;
}

Value mlir::obs::device_expansion::lengthOf(ImplicitLocOpBuilder &b,
                                            Value memref) {
  return b.createOrFold<memref::DimOp>(memref, 0);
}

bool mlir::obs::device_expansion::mayShareMemory(ValueRange outputs,
                                                 ValueRange inputs) {
  auto rootOf = [](Value memref) -> Value {
    FailureOr<AllocationView> view = followToAllocation(
        memref, /*user=*/nullptr, "", /*runTimeOffsets=*/true);
    return succeeded(view) ? view->root : Value();
  };
  SmallVector<Value> inputRoots = llvm::map_to_vector(inputs, rootOf);
  return llvm::any_of(outputs, [&](Value output) {
    Value root = rootOf(output);
    return !root || llvm::is_contained(inputRoots, root);
  });
}

SmallVector<Value>
mlir::obs::device_expansion::viewFirstElements(ImplicitLocOpBuilder &b,
                                               ValueRange outputs, Value length,
                                               ValueRange inputs) {
  std::optional<int64_t> knownLength = getConstantIntValue(length);
  SmallVector<Value> viewed;
  for (Value output : outputs) {
    auto type = cast<MemRefType>(output.getType());
    int64_t size = type.getDimSize(0);
    bool holdsLength =
        llvm::is_contained(inputs, output) ||
        (knownLength && !ShapedType::isDynamic(size) && size <= *knownLength);
    if (holdsLength || type.getRank() != 1) {
      viewed.push_back(output);
      continue;
    }
    // Its first min(length, its own length): a shorter output is written
    // up to its end, as before. An affine.min, whose bounds
    // ValueBoundsConstraintSet knows: the launch's contract then proves the
    // view within its memref (provedWithin) and checks nothing at run time.
    OpFoldResult first = affine::makeComposedFoldedAffineMin(
        b, b.getLoc(),
        AffineMap::get(0, 2,
                       {b.getAffineSymbolExpr(0), b.getAffineSymbolExpr(1)},
                       b.getContext()),
        {length, lengthOf(b, output)});
    viewed.push_back(memref::SubViewOp::create(
        b, output, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{first},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)}));
  }
  return viewed;
}

SmallVector<Value>
mlir::obs::device_expansion::viewLaterInputs(ImplicitLocOpBuilder &b,
                                             ValueRange inputs, Value length) {
  SmallVector<Value> viewed = {inputs.front()};
  llvm::append_range(viewed, viewFirstElements(b, inputs.drop_front(), length,
                                               inputs.front()));
  return viewed;
}

SmallVector<Value> mlir::obs::device_expansion::viewOutputs(
    ImplicitLocOpBuilder &b, ValueRange outputs, Value length,
    ValueRange inputs, ValueRange viewedInputs) {
  SmallVector<Value> viewed;
  for (Value output : outputs) {
    auto input = llvm::find(inputs, output);
    viewed.push_back(
        input != inputs.end()
            ? viewedInputs[std::distance(inputs.begin(), input)]
            : viewFirstElements(b, output, length, inputs.front()).front());
  }
  return viewed;
}

LogicalResult
mlir::obs::device_expansion::emitSortLengthsCheck(DeviceSortOp sort) {
  SmallVector<Value> memrefs(sort.getInputs());
  llvm::append_range(memrefs, sort.getOutputs());
  // Static lengths are the verifier's to compare.
  auto sizeOf = [](Value memref) {
    return cast<MemRefType>(memref.getType()).getDimSize(0);
  };
  bool known = !ShapedType::isDynamic(sizeOf(memrefs.front()));
  auto needsCheck = [&](Value memref) {
    return memref != memrefs.front() &&
           (ShapedType::isDynamic(sizeOf(memref)) || !known);
  };
  if (known && llvm::none_of(memrefs, needsCheck))
    return success();
  FailureOr<func::FuncOp> report = getLaunchContractReport(sort);
  if (failed(report))
    return failure();
  ImplicitLocOpBuilder b(sort.getLoc(), sort);
  Value length = lengthOf(b, memrefs.front());
  SmallVector<RuntimeCheck> checks;
  // The plans count and place elements in 32 bits: a longer sort would
  // place its elements past 2^31 - 1 at negative places, which the scatter
  // skips (an adversarial run: a sort of 2^31 + 4,096 bytes would have lost
  // its last 4,096). A static length past it is the verifier's to refuse.
  if (!known)
    checks.push_back(makeLaunchContractCheck(
        b, b.getLoc(),
        arith::CmpIOp::create(
            b, arith::CmpIPredicate::ule, length,
            arith::ConstantIndexOp::create(b, DeviceSortOp::kMostElements)),
        LaunchContractBreach::SortTooLong,
        arith::IndexCastOp::create(b, b.getI64Type(), length),
        arith::ConstantIntOp::create(b, 0, 64)));
  for (auto [index, memref] : llvm::enumerate(memrefs)) {
    if (!needsCheck(memref))
      continue;
    Value own = lengthOf(b, memref);
    checks.push_back(makeLaunchContractCheck(
        b, b.getLoc(),
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, own, length),
        LaunchContractBreach::SortLengthsDiffer,
        arith::ConstantIntOp::create(b, index, 64),
        arith::IndexCastOp::create(b, b.getI64Type(), own)));
  }
  emitLaunchContractCall(b, b.getLoc(), *report, checks);
  return success();
}

void mlir::obs::device_expansion::markGlobalArgument(KernelOp kernel,
                                                     unsigned index) {
  kernel.setArgAttr(index, ObsDialect::GlobalAttrHelper::getNameStr(),
                    UnitAttr::get(kernel.getContext()));
}

void mlir::obs::device_expansion::markChainArgument(KernelOp kernel,
                                                    unsigned index) {
  kernel.setArgAttr(index, ObsDialect::ChainAttrHelper::getNameStr(),
                    UnitAttr::get(kernel.getContext()));
}

Value mlir::obs::device_expansion::constantI32(ImplicitLocOpBuilder &b,
                                               int32_t value) {
  return arith::ConstantIntOp::create(b, value, /*width=*/32);
}

Value mlir::obs::device_expansion::indexToI32(ImplicitLocOpBuilder &b,
                                              Value index) {
  return arith::IndexCastOp::create(b, b.getI32Type(), index);
}

Value mlir::obs::device_expansion::i32ToIndex(ImplicitLocOpBuilder &b,
                                              Value value) {
  return arith::IndexCastUIOp::create(b, b.getIndexType(), value);
}

LaunchPlan::LaunchPlan(Operation *op, TypeRange scalars, Region &body,
                       Tiling tiling, ArrayAttr identity,
                       DeviceExpansionStatistics *statistics)
    : op(op), symbols(op->getParentOfType<ModuleOp>()),
      scalars(scalars.begin(), scalars.end()), body(body), tiling(tiling),
      element(elementOf(op->getContext(), scalars)), identity(identity),
      host(symbols.getOp()->getRegion(0).front().findAncestorOpInBlock(*op)),
      statistics(statistics) {
  auto function = op->getParentOfType<FunctionOpInterface>();
  prefix = (function ? function.getName().str() : std::string("device")) + "_" +
           op->getName().stripDialect().str();
  if (statistics)
    ++statistics->ops;
}

KernelOp LaunchPlan::buildKernel(
    StringRef role, ArrayRef<std::pair<Type, Attribute>> arguments,
    TypeRange results,
    llvm::function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, ValueRange)>
        build) {
  ImplicitLocOpBuilder b(op->getLoc(), op->getContext());
  // Before the host function, named after it and the op (made unique by
  // the symbol table).
  b.setInsertionPoint(host);
  SmallVector<Type> argumentTypes;
  for (auto [type, absent] : arguments)
    argumentTypes.push_back(type);
  auto kernel = KernelOp::create(b, prefix + "_" + role.str(),
                                 b.getFunctionType(argumentTypes, results));
  symbols.insert(kernel);
  // Compiled only for the plan's launches.
  kernel.setPrivate();
  kernel.setThreads(tiling.threads);
  ObsDialect::AbsentAttrHelper absent(op->getContext());
  for (auto [index, argument] : llvm::enumerate(arguments))
    kernel.setArgAttr(index, absent.getName(), argument.second);
  b.setInsertionPointToStart(&kernel.getBody().front());
  ReturnOp::create(b, build(b, kernel.getBody().getArguments()));
  if (statistics)
    ++statistics->kernels;
  return kernel;
}

void LaunchPlan::launch(ImplicitLocOpBuilder &b, KernelOp kernel, Value grid,
                        ValueRange inputs, ValueRange outputs) {
  LaunchOp::create(b, kernel.getName(), grid, inputs, outputs);
  if (statistics)
    ++statistics->launches;
}

SmallVector<Value> LaunchPlan::allocate(ImplicitLocOpBuilder &b, Value length) {
  SmallVector<Value> memrefs;
  for (Type scalar : scalars)
    memrefs.push_back(allocateOf(b, scalar, length));
  return memrefs;
}

void LaunchPlan::deallocate(ImplicitLocOpBuilder &b, ValueRange memrefs) {
  for (Value memref : memrefs)
    memref::DeallocOp::create(b, memref);
}

LaunchPlan::Level LaunchPlan::planLevel(ImplicitLocOpBuilder &b, Value length,
                                        uint64_t most, Value active,
                                        uint64_t tile) {
  if (!tile)
    tile = tiling.tile;
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value one = arith::ConstantIndexOp::create(b, 1);
  auto gate = [&](Value condition, Value count) -> Value {
    if (!condition)
      return count;
    return b.createOrFold<arith::SelectOp>(condition, count, zero);
  };
  auto both = [&](Value condition) -> Value {
    return active ? b.createOrFold<arith::AndIOp>(active, condition)
                  : condition;
  };
  // A length known here decides here.
  std::optional<int64_t> known = getConstantIntValue(length);
  if (known)
    most = *known;
  if (most <= tile)
    return {gate(active, one), Value(), Value()};
  if (known)
    return {Value(), gate(active, ceilTiles(b, length, tile)), active};
  Value fits = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, length,
                                     arith::ConstantIndexOp::create(b, tile));
  Value longer = arith::XOrIOp::create(
      b, fits, arith::ConstantIntOp::create(b, 1, /*width=*/1));
  Value next = both(longer);
  return {gate(both(fits), one), gate(next, ceilTiles(b, length, tile)), next};
}

void mlir::obs::populateObsDeviceExpansionPatterns(
    RewritePatternSet &patterns, const DeviceExpansionOptions &options) {
  populateDeviceMapExpansionPatterns(patterns, options);
  populateDeviceReduceExpansionPatterns(patterns, options);
  populateDeviceScanExpansionPatterns(patterns, options);
  populateRadixSortExpansionPatterns(patterns, options);
  populateMergeSortExpansionPatterns(patterns, options);
}
