//===- ExpandDevice.cpp - device-level ops to launch plans ----------------===//
//
// obs-expand-device: obs.device_map, obs.device_reduce and obs.device_scan
// become launches of obs kernels over tiles of their arrays, for a length
// known only at run time. The kernels are written with the combinator
// functions (Obs/Builder/Combinators.h) and are ordinary obs.kernels: the
// pipelines refine and prove them, and prove the launches, as they would
// kernels and launches a user wrote. docs/Rationale.md, "The device level",
// gives the plans and their memory traffic.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/CombineLaws.h"
#include "Obs/Builder/Combinators.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSEXPANDDEVICE
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {

/// How a device op's arrays are cut into tiles, one per block.
struct Tiling {
  /// Elements per tile.
  uint64_t tile;
  /// Threads per block.
  uint64_t threads;
};

/// `forced` elements per tile when it is not 0. Otherwise 16 KiB of elements
/// per tile, a power of two between 256 and 4,096, on at most 256 threads:
/// 4,096 i32 or f32, 2,048 i64 or (i32, i32) pairs. A tile's stages then fit in
/// shared memory many times over, and the totals a tile leaves (one element)
/// are at most 1/256 of its traffic.
Tiling chooseTiling(TypeRange scalars, uint64_t forced) {
  if (forced)
    return {forced, std::min<uint64_t>(256, forced)};
  uint64_t bytes = 0;
  for (Type scalar : scalars)
    bytes += getTypeBytes(scalar);
  uint64_t tile =
      std::clamp<uint64_t>(llvm::bit_floor(16384 / bytes), 256, 4096);
  return {tile, std::min<uint64_t>(256, tile)};
}

/// The element type of a kernel's array of `scalars`: the scalar, or the
/// tuple of several.
Type elementOf(MLIRContext *context, TypeRange scalars) {
  if (scalars.size() == 1)
    return scalars.front();
  return TupleType::get(context, scalars);
}

/// The `obs.absent` value of an argument of `scalars`: `values`, one per
/// scalar.
Attribute absentOf(ArrayRef<Attribute> values) {
  if (values.size() == 1)
    return values.front();
  return ArrayAttr::get(values.front().getContext(), values);
}

/// Builds the kernels of one device op and the launch plan that replaces
/// it.
class DeviceExpander {
public:
  /// `op`'s element `scalars`, its region `body` and, for a reduce or a
  /// scan, the combine's `identity`.
  DeviceExpander(Operation *op, SymbolTable &symbols, TypeRange scalars,
                 Region &body, ArrayAttr identity, uint64_t forcedTile)
      : op(op), symbols(symbols), scalars(scalars.begin(), scalars.end()),
        body(body), tiling(chooseTiling(scalars, forcedTile)),
        element(elementOf(op->getContext(), scalars)), identity(identity),
        host(symbols.getOp()->getRegion(0).front().findAncestorOpInBlock(*op)) {
    auto function = op->getParentOfType<FunctionOpInterface>();
    prefix = (function ? function.getName().str() : std::string("device")) +
             "_" + op->getName().stripDialect().str();
  }

  unsigned getKernelCount() const { return kernelCount; }
  unsigned getLaunchCount() const { return launchCount; }

  /// Writes the launch plan before the op.
  void expand();

private:
  ArrType tileType(uint64_t length) const {
    return ArrType::get(length, element);
  }

  /// A kernel named after the op and `role`, of `arguments` (each with its
  /// absent value) and `results`, whose body `build` writes.
  KernelOp buildKernel(
      StringRef role, ArrayRef<std::pair<Type, Attribute>> arguments,
      TypeRange results,
      llvm::function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, ValueRange)>
          build);

  void expandMap(DeviceMapOp map);
  void expandReduce(DeviceReduceOp reduce);
  void expandScan(DeviceScanOp scan);

  /// The op's combine on two flattened elements (a dsl::BinaryFn).
  SmallVector<Value> combine(ImplicitLocOpBuilder &b, ValueRange earlier,
                             ValueRange later) {
    SmallVector<Value> arguments(earlier);
    llvm::append_range(arguments, later);
    return dsl::inlineRegion(b, body, arguments);
  }
  auto combineFn() {
    return [this](ImplicitLocOpBuilder &b, ValueRange earlier,
                  ValueRange later) { return combine(b, earlier, later); };
  }

  SmallVector<Value> identityValues(ImplicitLocOpBuilder &b) {
    SmallVector<Value> values;
    for (Attribute value : identity)
      values.push_back(
          arith::ConstantOp::create(b, cast<TypedAttr>(value)).getResult());
    return values;
  }

  /// `tile`: one tile folded by a tree to its one element, the tile's
  /// total; absent elements are the identity.
  KernelOp getReduceTileKernel();
  /// `tile` scanned (`kind`), from the carry in a second argument's one
  /// element when `carried`, from the identity otherwise.
  KernelOp getScanTileKernel(ScanKind kind, bool carried);

  void launch(ImplicitLocOpBuilder &b, KernelOp kernel, Value grid,
              ValueRange inputs, ValueRange outputs);
  /// A memref of `length` elements for each scalar.
  SmallVector<Value> allocate(ImplicitLocOpBuilder &b, Value length);
  void deallocate(ImplicitLocOpBuilder &b, ValueRange memrefs);
  Value ceilTiles(ImplicitLocOpBuilder &b, Value length) {
    return b.createOrFold<arith::CeilDivUIOp>(
        length, arith::ConstantIndexOp::create(b, tiling.tile));
  }
  /// How a level of a plan runs `length` elements (at most `most`), where
  /// `active` (null: always) says whether the level runs at all. Plans
  /// have no branches: a launch that must not run gets a grid of 0, which
  /// runs no block, so that the host code is one straight line of launches
  /// (on the cuda target, one stream and no synchronisation between them).
  struct Level {
    /// The grid of the one-block launch for a length of one tile, or null
    /// where the length never fits one tile.
    Value oneTileGrid;
    /// The tiles of a longer length (0 where it is not longer, or the level
    /// does not run), or null where the length always fits one tile.
    Value tiles;
    /// Whether the next level runs.
    Value nextActive;
  };
  Level planLevel(ImplicitLocOpBuilder &b, Value length, uint64_t most,
                  Value active);

  /// Folds `inputs` (`length` elements, at most `most`) into `outputs`.
  void emitReduce(ImplicitLocOpBuilder &b, ValueRange inputs,
                  ValueRange outputs, Value length, uint64_t most,
                  Value active);
  /// Scans `inputs` (`length` elements, at most `most`) into `outputs`.
  void emitScan(ImplicitLocOpBuilder &b, ScanKind kind, ValueRange inputs,
                ValueRange outputs, Value length, uint64_t most, Value active);

  Operation *op;
  SymbolTable &symbols;
  SmallVector<Type> scalars;
  Region &body;
  Tiling tiling;
  Type element;
  ArrayAttr identity;
  /// The op of the module's body that holds `op`: kernels go before it.
  Operation *host;
  std::string prefix;
  KernelOp reduceTile;
  /// The plan's temporaries, freed after its last launch: a free waits for
  /// the work before it (on the cuda target, the stream), which must not
  /// come between two launches.
  SmallVector<Value> temporaries;
  /// By kind and whether carried.
  KernelOp scanTiles[2][2];
  unsigned kernelCount = 0;
  unsigned launchCount = 0;
};

} // namespace

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
    memrefs.push_back(memref::AllocOp::create(
        b, MemRefType::get({ShapedType::kDynamic}, scalar), length));
  return memrefs;
}

void DeviceExpander::deallocate(ImplicitLocOpBuilder &b, ValueRange memrefs) {
  for (Value memref : memrefs)
    memref::DeallocOp::create(b, memref);
}

DeviceExpander::Level DeviceExpander::planLevel(ImplicitLocOpBuilder &b,
                                                Value length, uint64_t most,
                                                Value active) {
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
  if (most <= tiling.tile)
    return {gate(active, one), Value(), Value()};
  if (known)
    return {Value(), gate(active, ceilTiles(b, length)), active};
  Value fits =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ule, length,
                            arith::ConstantIndexOp::create(b, tiling.tile));
  Value longer = arith::XOrIOp::create(
      b, fits, arith::ConstantIntOp::create(b, 1, /*width=*/1));
  Value next = both(longer);
  return {gate(both(fits), one), gate(next, ceilTiles(b, length)), next};
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
  // before each tile; each tile scanned from it.
  SmallVector<Value> totals = allocate(b, level.tiles);
  SmallVector<Value> carries = allocate(b, level.tiles);
  launch(b, getReduceTileKernel(), level.tiles, inputs, totals);
  emitScan(b, ScanKind::Exclusive, totals, carries, level.tiles,
           llvm::divideCeil(most, tiling.tile), level.nextActive);
  SmallVector<Value> tileInputs(inputs);
  llvm::append_range(tileInputs, carries);
  launch(b, getScanTileKernel(kind, /*carried=*/true), level.tiles, tileInputs,
         outputs);
  llvm::append_range(temporaries, totals);
  llvm::append_range(temporaries, carries);
}

/// The longest array `memref` may be.
static uint64_t mostLength(Value memref) {
  int64_t size = cast<MemRefType>(memref.getType()).getDimSize(0);
  return ShapedType::isDynamic(size) ? kDynamicGridLength : size;
}

static Value lengthOf(ImplicitLocOpBuilder &b, Value memref) {
  return b.createOrFold<memref::DimOp>(memref, 0);
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
    arguments.push_back({ArrType::get(tiling.tile, scalar),
                         Builder(scalar.getContext()).getZeroAttr(scalar)});
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
      .Case([&](DeviceScanOp scan) { expandScan(scan); });
}

namespace {
struct ObsExpandDevicePass
    : mlir::obs::impl::ObsExpandDeviceBase<ObsExpandDevicePass> {
  using ObsExpandDeviceBase::ObsExpandDeviceBase;
  void runOnOperation() override;
};
} // namespace

void ObsExpandDevicePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (tile && (!llvm::isPowerOf2_64(tile) || tile > 65536)) {
    mlir::emitError(module.getLoc())
        << "obs-expand-device: tile=" << tile.getValue()
        << " is not a power of two of at most 65536";
    return signalPassFailure();
  }
  SmallVector<Operation *> deviceOps;
  module.walk([&](Operation *op) {
    if (isa<DeviceMapOp, DeviceReduceOp, DeviceScanOp>(op))
      deviceOps.push_back(op);
  });
  if (deviceOps.empty())
    return;
  SymbolTable symbols(module);
  for (Operation *op : deviceOps) {
    struct Described {
      SmallVector<Type> scalars;
      Region *body;
      ArrayAttr identity;
    };
    Described described =
        TypeSwitch<Operation *, Described>(op)
            .Case([](DeviceMapOp map) -> Described {
              return {map.getElementTypes(), &map.getBody(), {}};
            })
            .Case<DeviceReduceOp, DeviceScanOp>([](auto fold) -> Described {
              return {fold.getElementTypes(), &fold.getBody(),
                      fold.getIdentity()};
            });
    if (described.identity && failed(checkCombineLaws(op, described.identity)))
      return signalPassFailure();
    DeviceExpander expander(op, symbols, described.scalars, *described.body,
                            described.identity, tile);
    expander.expand();
    op->erase();
    addToStatistic(*this, numOps, "device-ops");
    addToStatistic(*this, numKernels, "kernels", expander.getKernelCount());
    addToStatistic(*this, numLaunches, "launches", expander.getLaunchCount());
  }
}
