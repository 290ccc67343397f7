//===- DeviceExpander.cpp - tiles, levels, map, reduce, scan
//----------------===//
//
// What every launch plan shares (tilings, kernels, launches, temporaries, the
// levels of a reduction) and the plans of obs.device_map, obs.device_reduce
// and obs.device_scan.
//
//===----------------------------------------------------------------------===//

#include "DeviceExpander.h"

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
  constexpr uint64_t kLeastTile = 256, kMostThreads = 256;
  uint64_t tile = forced ? forced
                         : std::clamp<uint64_t>(llvm::bit_floor(budget / bytes),
                                                kLeastTile, most);
  return {tile, std::min<uint64_t>(kMostThreads, tile)};
}

Tiling mlir::obs::device_expansion::chooseTiling(TypeRange scalars,
                                                 uint64_t forced) {
  return chooseTilingOfBytes(getScalarsBytes(scalars), 32 * 1024, 8192, forced);
}

Tiling mlir::obs::device_expansion::chooseSortTiling(uint64_t forced) {
  uint64_t tile = forced ? forced : 4096;
  return {tile, std::min<uint64_t>(256, tile)};
}

Tiling mlir::obs::device_expansion::chooseMergeTiling(TypeRange scalars,
                                                      uint64_t forced) {
  return chooseTilingOfBytes(4 + getScalarsBytes(scalars), 16 * 1024, 4096,
                             forced);
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

KernelOp DeviceExpander::buildKernel(
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
  ++kernelCount;
  return kernel;
}

KernelOp DeviceExpander::getReduceTileKernel() {
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

KernelOp DeviceExpander::getScanTileKernel(ScanKind kind, bool carried) {
  KernelOp &kernel = scanTiles[static_cast<unsigned>(kind)][carried];
  if (kernel)
    return kernel;
  Attribute absent = absentOf(identity.getValue());
  SmallVector<std::pair<Type, Attribute>> arguments = {
      {tileType(tiling.tile), absent}};
  if (carried)
    arguments.push_back({tileType(1), absent});
  std::string role = (kind == ScanKind::Inclusive ? "scan" : "exclusive_scan");
  role += carried ? "_tile" : "_one_tile";
  kernel = buildKernel(
      role, arguments, tileType(tiling.tile),
      [&](ImplicitLocOpBuilder &b, ValueRange args) {
        Value scanned =
            dsl::scan(b, args.front(), combineFn(), ScanNetwork::Sklansky);
        // What comes before the tile: the carry, or nothing (the
        // identity, which the combine then leaves out).
        SmallVector<Value> carry;
        if (carried)
          carry = dsl::index(b, args[1], arith::ConstantIndexOp::create(b, 0));
        if (kind == ScanKind::Inclusive) {
          if (!carried)
            return SmallVector<Value>{scanned};
          return SmallVector<Value>{dsl::map(
              b, scanned, element, [&](ImplicitLocOpBuilder &b, ValueRange x) {
                return combine(b, carry, x);
              })};
        }
        // Exclusive: element i is what comes before the tile combined with
        // the inclusive scan's element i - 1.
        return SmallVector<Value>{dsl::generate(
            b, tileType(tiling.tile),
            [&](ImplicitLocOpBuilder &b, Value i) -> SmallVector<Value> {
              Value zero = arith::ConstantIndexOp::create(b, 0);
              Value first =
                  arith::CmpIOp::create(b, arith::CmpIPredicate::eq, i, zero);
              auto choice = scf::IfOp::create(b, scalars, first,
                                              /*withElseRegion=*/true);
              {
                OpBuilder::InsertionGuard guard(b);
                b.setInsertionPointToStart(choice.thenBlock());
                scf::YieldOp::create(b, carried ? carry : identityValues(b));
                b.setInsertionPointToStart(choice.elseBlock());
                Value before = arith::SubIOp::create(
                    b, i, arith::ConstantIndexOp::create(b, 1));
                SmallVector<Value> previous = dsl::index(b, scanned, before);
                scf::YieldOp::create(b, carried ? combine(b, carry, previous)
                                                : previous);
              }
              return SmallVector<Value>(choice.getResults());
            })};
      });
  return kernel;
}

void DeviceExpander::launch(ImplicitLocOpBuilder &b, KernelOp kernel,
                            Value grid, ValueRange inputs, ValueRange outputs) {
  LaunchOp::create(b, kernel.getName(), grid, inputs, outputs);
  ++launchCount;
}

SmallVector<Value> DeviceExpander::allocate(ImplicitLocOpBuilder &b,
                                            Value length) {
  SmallVector<Value> memrefs;
  for (Type scalar : scalars)
    memrefs.push_back(allocateOf(b, scalar, length));
  return memrefs;
}

void DeviceExpander::deallocate(ImplicitLocOpBuilder &b, ValueRange memrefs) {
  for (Value memref : memrefs)
    memref::DeallocOp::create(b, memref);
}

DeviceExpander::Level DeviceExpander::planLevel(ImplicitLocOpBuilder &b,
                                                Value length, uint64_t most,
                                                Value active, uint64_t tile) {
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

void DeviceExpander::emitReduce(ImplicitLocOpBuilder &b, ValueRange inputs,
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

void DeviceExpander::emitScan(ImplicitLocOpBuilder &b, ScanKind kind,
                              ValueRange inputs, ValueRange outputs,
                              Value length, uint64_t most, Value active) {
  Level level = planLevel(b, length, most, active);
  if (level.oneTileGrid)
    launch(b, getScanTileKernel(kind, /*carried=*/false), level.oneTileGrid,
           inputs, outputs);
  if (!level.tiles)
    return;
  // Reduce, then scan: each tile's total; their exclusive scan, what comes
  // before each tile; each tile scanned from it. The last tile's total
  // comes before no tile, so it is never computed (its tile is not read
  // twice): the exclusive scan reads one total fewer than it writes
  // carries, and its last, absent, input is the identity.
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value one = arith::ConstantIndexOp::create(b, 1);
  Value allButLast = b.createOrFold<arith::MaxSIOp>(
      b.createOrFold<arith::SubIOp>(level.tiles, one), zero);
  SmallVector<Value> totals = allocate(b, allButLast);
  SmallVector<Value> carries = allocate(b, level.tiles);
  launch(b, getReduceTileKernel(), allButLast, inputs, totals);
  emitScan(b, ScanKind::Exclusive, totals, carries, level.tiles,
           llvm::divideCeil(most, tiling.tile), level.nextActive);
  SmallVector<Value> tileInputs(inputs);
  llvm::append_range(tileInputs, carries);
  launch(b, getScanTileKernel(kind, /*carried=*/true), level.tiles, tileInputs,
         outputs);
  llvm::append_range(temporaries, totals);
  llvm::append_range(temporaries, carries);
}

void DeviceExpander::expandReduce(DeviceReduceOp reduce) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Value input = reduce.getInputs().front();
  emitReduce(b, reduce.getInputs(), reduce.getOutputs(), lengthOf(b, input),
             mostLength(input), /*active=*/Value());
  deallocate(b, temporaries);
}

void DeviceExpander::expandScan(DeviceScanOp scan) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Value input = scan.getInputs().front();
  emitScan(b, scan.getKind(), scan.getInputs(), scan.getOutputs(),
           lengthOf(b, input), mostLength(input), /*active=*/Value());
  deallocate(b, temporaries);
}

void DeviceExpander::expandMap(DeviceMapOp map) {
  SmallVector<std::pair<Type, Attribute>> arguments;
  for (Type scalar : scalars)
    arguments.push_back({ArrType::get(tiling.tile, scalar), zerosOf(scalar)});
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
        Value present = ExtentOp::create(b, args.front());
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
              for (Value arg : args)
                llvm::append_range(elements, dsl::index(b, arg, i));
              scf::YieldOp::create(b, dsl::inlineRegion(b, body, elements));
              b.setInsertionPointToStart(choice.elseBlock());
              SmallVector<Value> zeros;
              for (Type scalar : resultScalars)
                zeros.push_back(arith::getZeroConstant(b, b.getLoc(), scalar));
              scf::YieldOp::create(b, zeros);
              return SmallVector<Value>(choice.getResults());
            })};
      });
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Value tiles = ceilTiles(b, lengthOf(b, map.getInputs().front()));
  launch(b, kernel, tiles, map.getInputs(), map.getOutputs());
}

void DeviceExpander::expand() {
  TypeSwitch<Operation *>(op)
      .Case([&](DeviceMapOp map) { expandMap(map); })
      .Case([&](DeviceReduceOp reduce) { expandReduce(reduce); })
      .Case([&](DeviceScanOp scan) { expandScan(scan); })
      .Case([&](DeviceSortOp sort) {
        if (keyOrder)
          expandSort(sort);
        else
          expandMergeSort(sort);
      });
}
