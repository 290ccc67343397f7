//===- ExpandDevice.cpp - device-level ops to launch plans ----------------===//
//
// obs-expand-device: obs.device_map, obs.device_reduce, obs.device_scan and
// obs.device_sort become launches of obs kernels over tiles of their
// arrays, for a length known only at run time. The kernels are written
// with the combinator functions (Obs/Builder/Combinators.h) and are
// ordinary obs.kernels: the pipelines refine and prove them, and prove the
// launches, as they would kernels and launches a user wrote. docs/Rationale.md,
// "The device level", gives the plans and their memory traffic.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/CombineLaws.h"
#include "Obs/Builder/Combinators.h"
#include "Obs/Builder/Networks.h"
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

/// The bytes of an element of `scalars`.
uint64_t getScalarsBytes(TypeRange scalars) {
  uint64_t bytes = 0;
  for (Type scalar : scalars)
    bytes += getTypeBytes(scalar);
  return bytes;
}

/// `forced` elements per tile when it is not 0; otherwise as many elements
/// of `bytes` as `budget` bytes hold, a power of two between 256 and
/// `most`. On at most 256 threads.
Tiling chooseTilingOfBytes(uint64_t bytes, uint64_t budget, uint64_t most,
                           uint64_t forced) {
  constexpr uint64_t kLeastTile = 256, kMostThreads = 256;
  uint64_t tile = forced ? forced
                         : std::clamp<uint64_t>(llvm::bit_floor(budget / bytes),
                                                kLeastTile, most);
  return {tile, std::min<uint64_t>(kMostThreads, tile)};
}

/// `forced` elements per tile when it is not 0. Otherwise 32 KiB of elements
/// per tile, a power of two between 256 and 8,192, on at most 256 threads:
/// 8,192 i32 or f32, 4,096 i64 or (i32, i32) pairs. A scan's tile is one
/// in-place buffer of shared memory (two thirds of a block's 48 KiB at
/// most), and every tile costs its scan 16 bytes of totals and carries: 16 /
/// 8,192 of an i32's traffic, which keeps a scan of 1,000,003 under 12
/// bytes per element (docs/Rationale.md, "The device level").
Tiling chooseTiling(TypeRange scalars, uint64_t forced) {
  return chooseTilingOfBytes(getScalarsBytes(scalars), 32 * 1024, 8192, forced);
}

/// A sort's tiles: `forced` elements when it is not 0, otherwise 4,096 for
/// every element type. Its scatter kernel keeps a tile's digits and
/// places in shared memory (4 bytes each), never its elements, and each
/// tile costs 256 counts a pass, so tiles are as long as the digits allow.
Tiling chooseSortTiling(uint64_t forced) {
  uint64_t tile = forced ? forced : 4096;
  return {tile, std::min<uint64_t>(256, tile)};
}

/// A merge sort's tiles: `forced` elements when it is not 0, otherwise 16
/// KiB of elements with their i32 positions, a power of two between 256
/// and 4,096: 2,048 i32, 1,024 i64 or (i32, i32) pairs. Its tile kernel
/// sorts (element, position) pairs through a network's stages, two buffers
/// of them in shared memory at most.
Tiling chooseMergeTiling(TypeRange scalars, uint64_t forced) {
  return chooseTilingOfBytes(4 + getScalarsBytes(scalars), 16 * 1024, 4096,
                             forced);
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

/// How many counts a row of the radix sort holds: one per digit of 8 bits.
constexpr uint64_t kDigits = 256;

/// Zeros of `types`, an `obs.absent` attribute.
static Attribute zerosOf(TypeRange types) {
  SmallVector<Attribute> zeros;
  for (Type type : types)
    zeros.push_back(Builder(type.getContext()).getZeroAttr(type));
  return absentOf(zeros);
}

/// How a sort's `less` orders its elements, where a radix sort can follow
/// it: by the first scalar, as numbers.
struct KeyOrder {
  enum class Kind { Signed, Unsigned, Float };
  Kind kind = Kind::Signed;
  bool descending = false;
  /// The key's width.
  unsigned bits = 0;
  /// Passes of 8 bits.
  unsigned getPasses() const { return llvm::divideCeil(bits, 8); }
};

/// The order `less` gives, where it is one comparison of the two elements'
/// first scalars: `cmpi slt`/`ult` or `cmpf olt`/`ult` ascending, their
/// `gt` forms (or the operands swapped) descending.
static std::optional<KeyOrder> matchKeyOrder(Region &less,
                                             unsigned scalarsPerElement) {
  Block &block = less.front();
  Value yielded = block.getTerminator()->getOperand(0);
  Operation *compare = yielded.getDefiningOp();
  if (!compare || compare->getNumOperands() != 2)
    return std::nullopt;
  Value first = block.getArgument(0);
  Value second = block.getArgument(scalarsPerElement);
  bool swapped;
  if (compare->getOperand(0) == first && compare->getOperand(1) == second)
    swapped = false;
  else if (compare->getOperand(0) == second && compare->getOperand(1) == first)
    swapped = true;
  else
    return std::nullopt;
  KeyOrder order;
  order.bits = first.getType().getIntOrFloatBitWidth();
  if (auto cmpi = dyn_cast<arith::CmpIOp>(compare)) {
    switch (cmpi.getPredicate()) {
    case arith::CmpIPredicate::slt:
    case arith::CmpIPredicate::sgt:
      order.kind = KeyOrder::Kind::Signed;
      break;
    case arith::CmpIPredicate::ult:
    case arith::CmpIPredicate::ugt:
      order.kind = KeyOrder::Kind::Unsigned;
      break;
    default:
      return std::nullopt;
    }
    bool greater = cmpi.getPredicate() == arith::CmpIPredicate::sgt ||
                   cmpi.getPredicate() == arith::CmpIPredicate::ugt;
    order.descending = greater != swapped;
    return order;
  }
  if (auto cmpf = dyn_cast<arith::CmpFOp>(compare)) {
    using P = arith::CmpFPredicate;
    P predicate = cmpf.getPredicate();
    if (predicate != P::OLT && predicate != P::ULT && predicate != P::OGT &&
        predicate != P::UGT)
      return std::nullopt;
    order.kind = KeyOrder::Kind::Float;
    bool greater = predicate == P::OGT || predicate == P::UGT;
    order.descending = greater != swapped;
    return order;
  }
  return std::nullopt;
}

/// Builds the kernels of one device op and the launch plan that replaces
/// it.
class DeviceExpander {
public:
  /// `op`'s element `scalars`, its region `body`, for a reduce or a scan
  /// the combine's `identity`, and for a sort the order `keyOrder` of its
  /// `less`.
  DeviceExpander(Operation *op, SymbolTable &symbols, TypeRange scalars,
                 Region &body, ArrayAttr identity,
                 std::optional<KeyOrder> keyOrder, uint64_t forcedTile)
      : op(op), symbols(symbols), scalars(scalars.begin(), scalars.end()),
        body(body),
        tiling(!isa<DeviceSortOp>(op) ? chooseTiling(scalars, forcedTile)
               : keyOrder             ? chooseSortTiling(forcedTile)
                                      : chooseMergeTiling(scalars, forcedTile)),
        element(elementOf(op->getContext(), scalars)), identity(identity),
        host(symbols.getOp()->getRegion(0).front().findAncestorOpInBlock(*op)),
        keyOrder(keyOrder),
        group(std::max<uint64_t>(2, tiling.tile / kDigits)) {
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
  void expandSort(DeviceSortOp sort);
  /// A sort by a `less` the radix sort cannot follow.
  void expandMergeSort(DeviceSortOp sort);

  /// The op's region on two flattened elements: a combine (a
  /// dsl::BinaryFn), or a sort's `less` (see less()).
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
  /// One memref of `length` elements of `element`.
  static Value allocateOf(ImplicitLocOpBuilder &b, Type element, Value length) {
    return memref::AllocOp::create(
        b, MemRefType::get({ShapedType::kDynamic}, element), length);
  }
  void deallocate(ImplicitLocOpBuilder &b, ValueRange memrefs);
  /// How many tiles of `tile` (by default the op's) `length` needs.
  Value ceilTiles(ImplicitLocOpBuilder &b, Value length, uint64_t tile = 0) {
    return b.createOrFold<arith::CeilDivUIOp>(
        length, arith::ConstantIndexOp::create(b, tile ? tile : tiling.tile));
  }
  /// How a level of a plan runs `length` elements (at most `most`) in tiles
  /// of `tile` (by default the op's), where `active` (null: always) says
  /// whether the level runs at all. Plans
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
                  Value active, uint64_t tile = 0);

  /// Folds `inputs` (`length` elements, at most `most`) into `outputs`.
  void emitReduce(ImplicitLocOpBuilder &b, ValueRange inputs,
                  ValueRange outputs, Value length, uint64_t most,
                  Value active);
  /// Scans `inputs` (`length` elements, at most `most`) into `outputs`.
  void emitScan(ImplicitLocOpBuilder &b, ScanKind kind, ValueRange inputs,
                ValueRange outputs, Value length, uint64_t most, Value active);

  // The radix sort (docs/Rationale.md, "The device level").

  /// The key `key` as unsigned bits whose order is the sort's.
  Value orderedBits(ImplicitLocOpBuilder &b, Value key) const;
  /// The digit of `bits` `shift` bits up (an i32, 8 per pass), an i32.
  Value digitOf(ImplicitLocOpBuilder &b, Value bits, Value shift) const;
  /// Counts a tile's digits into kDigits counts: the first pass's from the
  /// keys, a later pass's from the digit bytes the pass before wrote
  /// (`fromDigits`).
  KernelOp getCountKernel(bool fromDigits);
  /// Rows of 256 counts, `group` rows per block: their column totals.
  KernelOp getRowTotalsKernel();
  /// Each row's offsets: for every digit, where the row's first element of
  /// that digit goes. `top`: all rows in the block, whose column totals
  /// place the digits one after the other; otherwise from a carry row.
  KernelOp getRowOffsetsKernel(bool top);
  /// A tile's elements written stably to their places for the digit its
  /// block's shift gives, with the next pass's digits beside them unless it
  /// is the `last` pass. Every pass runs the same kernel (one compilation,
  /// one proof): the pass is data.
  KernelOp getScatterKernel(bool last);
  /// Pass `pass`'s shift, one per tile, for the scatter kernel.
  KernelOp getShiftKernel(unsigned pass);
  /// The identity on tiles, for an in-place sort of an odd number of passes.
  KernelOp getCopyKernel();
  // The merge sort (docs/Rationale.md, "The device level").

  /// Whether the op's `less` puts `first` before `second` (flattened).
  Value less(ImplicitLocOpBuilder &b, ValueRange first, ValueRange second) {
    return combine(b, first, second).front();
  }
  /// A tile sorted stably by `less`, its absent elements after the rest.
  KernelOp getSortTileKernel();
  /// A tile of the merge of two sorted runs of the whole `obs.global`
  /// source, the runs as long as a one-element second argument says: tile
  /// b's elements are the merge's elements b * tile onwards.
  KernelOp getMergeKernel();
  /// The runs' length for every tile: the tile (`first`), or twice what a
  /// one-element argument holds.
  KernelOp getRunLengthKernel(bool first);

  /// Turns `rows` rows of counts in `counts` into `offsets` (rows of
  /// digit-major exclusive sums).
  void emitRowOffsets(ImplicitLocOpBuilder &b, Value counts, Value offsets,
                      Value rows, uint64_t most, Value active,
                      unsigned depth = 0);

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
  /// The order a radix sort follows; none for a sort that merges.
  std::optional<KeyOrder> keyOrder;
  KernelOp sortTile, mergeKernel, runLengthKernels[2];
  /// Rows of counts per block in the sort's offsets (`group * kDigits`
  /// counts, the tile's elements but never fewer than 2 rows).
  uint64_t group;
  KernelOp countKernels[2], rowTotals, rowOffsets[2], copyKernel,
      scatterKernels[2];
  /// The totals and carries of each level of the rows' offsets, allocated
  /// by the first pass and used by every pass.
  SmallVector<std::pair<Value, Value>> rowLevels;
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

//===----------------------------------------------------------------------===//
// The radix sort
//===----------------------------------------------------------------------===//

/// A constant of `type` (an integer type) with bits `value`.
static Value constantBits(ImplicitLocOpBuilder &b, Type type,
                          const APInt &value) {
  return arith::ConstantOp::create(b, b.getIntegerAttr(type, value));
}

static Value constantI32(ImplicitLocOpBuilder &b, int32_t value) {
  return arith::ConstantIntOp::create(b, value, /*width=*/32);
}

static Value indexToI32(ImplicitLocOpBuilder &b, Value index) {
  return arith::IndexCastOp::create(b, b.getI32Type(), index);
}

static Value i32ToIndex(ImplicitLocOpBuilder &b, Value value) {
  return arith::IndexCastUIOp::create(b, b.getIndexType(), value);
}

Value DeviceExpander::orderedBits(ImplicitLocOpBuilder &b, Value key) const {
  unsigned width = keyOrder->bits;
  Type bitsType = b.getIntegerType(width);
  APInt signMask = APInt::getSignMask(width);
  Value bits = key;
  switch (keyOrder->kind) {
  case KeyOrder::Kind::Signed:
    bits = arith::XOrIOp::create(b, bits, constantBits(b, bitsType, signMask));
    break;
  case KeyOrder::Kind::Unsigned:
    break;
  case KeyOrder::Kind::Float: {
    bits = arith::BitcastOp::create(b, bitsType, key);
    // -0.0 is 0.0 to `less`, so it must keep its place among the zeros.
    Value negativeZero = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq, bits, constantBits(b, bitsType, signMask));
    bits = arith::SelectOp::create(
        b, negativeZero, constantBits(b, bitsType, APInt::getZero(width)),
        bits);
    // IEEE 754's total order as unsigned bits: a negative number's bits all
    // flipped, a positive one's sign bit set.
    Value spread = arith::ShRSIOp::create(
        b, bits, constantBits(b, bitsType, APInt(width, width - 1)));
    Value flips =
        arith::OrIOp::create(b, spread, constantBits(b, bitsType, signMask));
    bits = arith::XOrIOp::create(b, bits, flips);
    break;
  }
  }
  if (keyOrder->descending)
    bits = arith::XOrIOp::create(
        b, bits, constantBits(b, bitsType, APInt::getAllOnes(width)));
  return bits;
}

Value DeviceExpander::digitOf(ImplicitLocOpBuilder &b, Value bits,
                              Value shift) const {
  unsigned width = keyOrder->bits;
  Type bitsType = bits.getType();
  if (width < 32)
    shift = arith::TruncIOp::create(b, bitsType, shift);
  else if (width > 32)
    shift = arith::ExtUIOp::create(b, bitsType, shift);
  // A shift of the whole width or more is poison; a key narrower than a
  // digit has one pass, of shift 0.
  if (width > 8)
    bits = arith::ShRUIOp::create(b, bits, shift);
  uint64_t mask = width < 8 ? (uint64_t(1) << width) - 1 : kDigits - 1;
  bits = arith::AndIOp::create(b, bits,
                               constantBits(b, bitsType, APInt(width, mask)));
  if (width < 32)
    return arith::ExtUIOp::create(b, b.getI32Type(), bits);
  if (width > 32)
    return arith::TruncIOp::create(b, b.getI32Type(), bits);
  return bits;
}

KernelOp DeviceExpander::getCountKernel(bool fromDigits) {
  KernelOp &kernel = countKernels[fromDigits];
  if (kernel)
    return kernel;
  Type digitType = IntegerType::get(op->getContext(), 8);
  Type read = fromDigits ? digitType : scalars.front();
  ArrType counts =
      ArrType::get(kDigits, IntegerType::get(op->getContext(), 32));
  kernel = buildKernel(
      fromDigits ? "count_digits" : "count_keys",
      {{ArrType::get(tiling.tile, read), zerosOf(read)}}, counts,
      [&](ImplicitLocOpBuilder &b, ValueRange args) {
        Value present = ExtentOp::create(b, args.front());
        ArrType tileI32 = ArrType::get(tiling.tile, b.getI32Type());
        Value ones =
            dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value) {
              return SmallVector<Value>{constantI32(b, 1)};
            });
        // An absent element has no digit: place -1 counts nowhere.
        Value digits =
            dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value i) {
              Value element = dsl::index(b, args.front(), i).front();
              Value digit =
                  fromDigits
                      ? arith::ExtUIOp::create(b, b.getI32Type(), element)
                      : digitOf(b, orderedBits(b, element),
                                /*shift=*/constantI32(b, 0));
              Value inside = arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                                   i, present);
              return SmallVector<Value>{arith::SelectOp::create(
                  b, inside, digit, constantI32(b, -1))};
            });
        return SmallVector<Value>{dsl::scatter(b, ones, digits, kDigits,
                                               ScatterCombine::Add,
                                               b.getI32IntegerAttr(0))};
      });
  return kernel;
}

/// The sum of column `digit` of `rows` (rows of kDigits) over the rows
/// before `end`, from `start`.
static Value columnSum(ImplicitLocOpBuilder &b, Value rows, Value digit,
                       Value end, Value start) {
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value one = arith::ConstantIndexOp::create(b, 1);
  auto loop = scf::ForOp::create(b, zero, end, one, ValueRange{start});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value place = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, loop.getInductionVar(),
                            arith::ConstantIndexOp::create(b, kDigits)),
      digit);
  Value count = dsl::index(b, rows, place).front();
  scf::YieldOp::create(
      b, ValueRange{arith::AddIOp::create(b, loop.getRegionIterArg(0), count)});
  return loop.getResult(0);
}

/// Each column's total over the `group` rows of kDigits counts in `rows`:
/// an array of kDigits.
static Value columnTotals(ImplicitLocOpBuilder &b, Value rows, uint64_t group) {
  ArrType row = ArrType::get(kDigits, b.getI32Type());
  return dsl::generate(b, row, [&](ImplicitLocOpBuilder &b, Value digit) {
    return SmallVector<Value>{
        columnSum(b, rows, digit, arith::ConstantIndexOp::create(b, group),
                  constantI32(b, 0))};
  });
}

KernelOp DeviceExpander::getRowTotalsKernel() {
  if (rowTotals)
    return rowTotals;
  Type i32 = IntegerType::get(op->getContext(), 32);
  ArrType rows = ArrType::get(group * kDigits, i32);
  ArrType row = ArrType::get(kDigits, i32);
  rowTotals = buildKernel("row_totals", {{rows, zerosOf(i32)}}, row,
                          [&](ImplicitLocOpBuilder &b, ValueRange args) {
                            return SmallVector<Value>{
                                columnTotals(b, args.front(), group)};
                          });
  return rowTotals;
}

KernelOp DeviceExpander::getRowOffsetsKernel(bool top) {
  KernelOp &kernel = rowOffsets[top];
  if (kernel)
    return kernel;
  Type i32 = IntegerType::get(op->getContext(), 32);
  ArrType rows = ArrType::get(group * kDigits, i32);
  ArrType row = ArrType::get(kDigits, i32);
  SmallVector<std::pair<Type, Attribute>> arguments = {{rows, zerosOf(i32)}};
  if (!top)
    arguments.push_back({row, zerosOf(i32)});
  kernel = buildKernel(
      top ? "row_offsets_top" : "row_offsets", arguments, rows,
      [&](ImplicitLocOpBuilder &b, ValueRange args) {
        // Each count is read from global memory once, then summed down its
        // column in shared memory.
        Value counts = dsl::sync(b, args.front());
        Value starts;
        if (top) {
          // Digit d starts after every element of a smaller digit: the
          // exclusive scan of the column totals.
          Value totals = dsl::sync(b, columnTotals(b, counts, group));
          Value ends = dsl::sync(
              b, dsl::scan(
                     b, totals,
                     [](ImplicitLocOpBuilder &b, ValueRange x, ValueRange y) {
                       return SmallVector<Value>{
                           arith::AddIOp::create(b, x.front(), y.front())};
                     },
                     ScanNetwork::Sklansky));
          starts = dsl::sync(
              b, dsl::generate(b, row, [&](ImplicitLocOpBuilder &b, Value d) {
                return SmallVector<Value>{
                    arith::SubIOp::create(b, dsl::index(b, ends, d).front(),
                                          dsl::index(b, totals, d).front())};
              }));
        } else {
          starts = args[1];
        }
        return SmallVector<Value>{
            dsl::generate(b, rows, [&](ImplicitLocOpBuilder &b, Value place) {
              Value width = arith::ConstantIndexOp::create(b, kDigits);
              Value r = arith::DivUIOp::create(b, place, width);
              Value d = arith::RemUIOp::create(b, place, width);
              return SmallVector<Value>{
                  columnSum(b, counts, d, r, dsl::index(b, starts, d).front())};
            })};
      });
  return kernel;
}

KernelOp DeviceExpander::getShiftKernel(unsigned pass) {
  ArrType one = ArrType::get(1, IntegerType::get(op->getContext(), 32));
  return buildKernel(
      "shift_pass" + std::to_string(pass), {}, one,
      [&](ImplicitLocOpBuilder &b, ValueRange) {
        return SmallVector<Value>{
            dsl::generate(b, one, [&](ImplicitLocOpBuilder &b, Value) {
              return SmallVector<Value>{constantI32(b, 8 * pass)};
            })};
      });
}

KernelOp DeviceExpander::getScatterKernel(bool last) {
  KernelOp &kernel = scatterKernels[last];
  if (kernel)
    return kernel;
  MLIRContext *context = op->getContext();
  Type i32 = IntegerType::get(context, 32);
  Type digitType = IntegerType::get(context, 8);
  uint64_t tile = tiling.tile;
  unsigned indexBits = llvm::Log2_64(tile);
  SmallVector<Type> results;
  for (Type scalar : scalars)
    results.push_back(ArrType::get(kDynamicGridLength, scalar));
  if (!last)
    results.push_back(ArrType::get(kDynamicGridLength, digitType));
  kernel = buildKernel(
      last ? "scatter_last" : "scatter",
      {{tileType(tiling.tile), zerosOf(scalars)},
       {ArrType::get(kDigits, i32), zerosOf(i32)},
       {ArrType::get(1, i32), zerosOf(i32)}},
      results, [&](ImplicitLocOpBuilder &b, ValueRange args) {
        Value elements = args[0], offsets = args[1];
        Value present = ExtentOp::create(b, elements);
        Value zero = arith::ConstantIndexOp::create(b, 0);
        Value shift = dsl::index(b, args[2], zero).front();
        ArrType tileI32 = ArrType::get(tile, i32);
        auto keyBits = [&](ImplicitLocOpBuilder &b, Value i) {
          return orderedBits(b, dsl::index(b, elements, i).front());
        };
        // The tile sorted stably by digit: each element's digit (kDigits
        // for an absent one, after every digit) above its index, sorted.
        Value sorted = dsl::sync(
            b,
            dsl::sort(
                b,
                dsl::generate(b, tileI32,
                              [&](ImplicitLocOpBuilder &b, Value i) {
                                Value inside = arith::CmpIOp::create(
                                    b, arith::CmpIPredicate::ult, i, present);
                                Value digit = arith::SelectOp::create(
                                    b, inside, digitOf(b, keyBits(b, i), shift),
                                    constantI32(b, kDigits));
                                Value above = arith::ShLIOp::create(
                                    b, digit, constantI32(b, indexBits));
                                return SmallVector<Value>{arith::OrIOp::create(
                                    b, above, indexToI32(b, i))};
                              }),
                [](ImplicitLocOpBuilder &b, ValueRange x, ValueRange y) {
                  return SmallVector<Value>{arith::CmpIOp::create(
                      b, arith::CmpIPredicate::slt, x.front(), y.front())};
                },
                SortNetwork::Bitonic));
        auto digitAt = [&](ImplicitLocOpBuilder &b, Value s) -> Value {
          return arith::ShRUIOp::create(b, dsl::index(b, sorted, s).front(),
                                        constantI32(b, indexBits));
        };
        auto sourceAt = [&](ImplicitLocOpBuilder &b, Value s) -> Value {
          return i32ToIndex(
              b, arith::AndIOp::create(b, dsl::index(b, sorted, s).front(),
                                       constantI32(b, tile - 1)));
        };
        // Where each digit's run starts in the sorted tile.
        Value positions =
            dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value s) {
              return SmallVector<Value>{indexToI32(b, s)};
            });
        Value runDigits =
            dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value s) {
              return SmallVector<Value>{digitAt(b, s)};
            });
        Value runStarts =
            dsl::scatter(b, positions, runDigits, kDigits, ScatterCombine::Min,
                         b.getI32IntegerAttr(tile));
        // An element's place: its digit's offset for the tile, plus its
        // rank in its run. An absent element has none.
        Value places = dsl::sync(
            b, dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value s) {
              Value digit = digitAt(b, s);
              Value bounded =
                  i32ToIndex(b, arith::MinUIOp::create(
                                    b, digit, constantI32(b, kDigits - 1)));
              Value rank = arith::SubIOp::create(
                  b, indexToI32(b, s),
                  dsl::index(b, runStarts, bounded).front());
              Value place = arith::AddIOp::create(
                  b, dsl::index(b, offsets, bounded).front(), rank);
              Value absent = arith::CmpIOp::create(
                  b, arith::CmpIPredicate::uge, digit, constantI32(b, kDigits));
              return SmallVector<Value>{arith::SelectOp::create(
                  b, absent, constantI32(b, -1), place)};
            }));
        SmallVector<Value> written;
        for (auto [j, scalar] : llvm::enumerate(scalars)) {
          Value values =
              dsl::generate(b, ArrType::get(tile, scalar),
                            [&, j = j](ImplicitLocOpBuilder &b, Value s) {
                              return SmallVector<Value>{
                                  dsl::index(b, elements, sourceAt(b, s))[j]};
                            });
          written.push_back(dsl::scatter(b, values, places, kDynamicGridLength,
                                         std::nullopt, TypedAttr()));
        }
        if (!last) {
          Value nextShift = arith::AddIOp::create(b, shift, constantI32(b, 8));
          Value digits = dsl::generate(
              b, ArrType::get(tile, digitType),
              [&](ImplicitLocOpBuilder &b, Value s) {
                Value next = digitOf(b, keyBits(b, sourceAt(b, s)), nextShift);
                return SmallVector<Value>{
                    arith::TruncIOp::create(b, b.getI8Type(), next)};
              });
          written.push_back(dsl::scatter(b, digits, places, kDynamicGridLength,
                                         std::nullopt, TypedAttr()));
        }
        return written;
      });
  return kernel;
}

KernelOp DeviceExpander::getCopyKernel() {
  if (copyKernel)
    return copyKernel;
  copyKernel = buildKernel(
      "copy_tile", {{tileType(tiling.tile), zerosOf(scalars)}},
      tileType(tiling.tile), [&](ImplicitLocOpBuilder &b, ValueRange args) {
        return SmallVector<Value>{dsl::generate(
            b, tileType(tiling.tile), [&](ImplicitLocOpBuilder &b, Value i) {
              return dsl::index(b, args.front(), i);
            })};
      });
  return copyKernel;
}

void DeviceExpander::emitRowOffsets(ImplicitLocOpBuilder &b, Value counts,
                                    Value offsets, Value rows, uint64_t most,
                                    Value active, unsigned depth) {
  Level level = planLevel(b, rows, most, active, group);
  if (level.oneTileGrid)
    launch(b, getRowOffsetsKernel(/*top=*/true), level.oneTileGrid, counts,
           offsets);
  if (!level.tiles)
    return;
  // As a scan's reduce-then-scan, a row standing for an element: each
  // group's column totals; their offsets, a level up; then each group's rows
  // from its carry.
  if (rowLevels.size() == depth) {
    Value width = arith::ConstantIndexOp::create(b, kDigits);
    Value length = arith::MulIOp::create(b, level.tiles, width);
    rowLevels.push_back({allocateOf(b, b.getI32Type(), length),
                         allocateOf(b, b.getI32Type(), length)});
    temporaries.push_back(rowLevels.back().first);
    temporaries.push_back(rowLevels.back().second);
  }
  auto [totals, carries] = rowLevels[depth];
  launch(b, getRowTotalsKernel(), level.tiles, counts, totals);
  emitRowOffsets(b, totals, carries, level.tiles, llvm::divideCeil(most, group),
                 level.nextActive, depth + 1);
  launch(b, getRowOffsetsKernel(/*top=*/false), level.tiles,
         ValueRange{counts, carries}, offsets);
}

void DeviceExpander::expandSort(DeviceSortOp sort) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  ValueRange inputs = sort.getInputs(), outputs = sort.getOutputs();
  Value length = lengthOf(b, inputs.front());
  uint64_t most = mostLength(inputs.front());
  Value tiles = ceilTiles(b, length);
  Value rowsLength = arith::MulIOp::create(
      b, tiles, arith::ConstantIndexOp::create(b, kDigits));
  Value counts = allocateOf(b, b.getI32Type(), rowsLength);
  Value offsets = allocateOf(b, b.getI32Type(), rowsLength);
  Value shifts = allocateOf(b, b.getI32Type(), tiles);
  temporaries.push_back(counts);
  temporaries.push_back(offsets);
  temporaries.push_back(shifts);
  unsigned passes = keyOrder->getPasses();
  // An odd number of passes ends in the outputs only if it starts from the
  // inputs; when an output is an input it starts from a copy.
  bool inPlace = llvm::any_of(outputs, [&](Value output) {
    return llvm::is_contained(inputs, output);
  });
  bool copyFirst = inPlace && passes % 2 == 1;
  SmallVector<Value> spare;
  if (passes > 1 || copyFirst) {
    spare = allocate(b, length);
    llvm::append_range(temporaries, spare);
  }
  Value digits;
  if (passes > 1) {
    digits = allocateOf(b, b.getI8Type(), length);
    temporaries.push_back(digits);
  }
  SmallVector<Value> source(inputs);
  if (copyFirst) {
    launch(b, getCopyKernel(), tiles, inputs, spare);
    source = spare;
  }
  for (unsigned pass = 0; pass < passes; ++pass) {
    bool last = pass + 1 == passes;
    // Passes alternate between the outputs and the spare memrefs, so that
    // the last writes the outputs.
    SmallVector<Value> destination =
        (passes - pass) % 2 == 1 ? SmallVector<Value>(outputs) : spare;
    if (pass == 0)
      launch(b, getCountKernel(/*fromDigits=*/false), tiles, source.front(),
             counts);
    else
      launch(b, getCountKernel(/*fromDigits=*/true), tiles, digits, counts);
    emitRowOffsets(b, counts, offsets, tiles,
                   llvm::divideCeil(most, tiling.tile), /*active=*/Value());
    launch(b, getShiftKernel(pass), tiles, {}, shifts);
    SmallVector<Value> scatterInputs(source);
    scatterInputs.push_back(offsets);
    scatterInputs.push_back(shifts);
    SmallVector<Value> scatterOutputs(destination);
    if (!last)
      scatterOutputs.push_back(digits);
    launch(b, getScatterKernel(last), tiles, scatterInputs, scatterOutputs);
    source = destination;
  }
  deallocate(b, temporaries);
}

//===----------------------------------------------------------------------===//
// The merge sort
//===----------------------------------------------------------------------===//

/// How many consecutive outputs of a merge continue from one crossing of
/// the merge path: the elements a thread merges in turn (CUB's items per
/// thread), 8 outputs of a 2,048-element tile per thread of 256.
constexpr uint64_t kMergeStride = 8;

/// `array` synced, its work assigned as written: strided over the block's
/// `threads`. The merge's stages are what they are whatever the choice, so
/// the choice is not searched for (AssignWork's costing would simulate the
/// kernel once per candidate); the proofs check it like any written one.
static Value syncStrided(ImplicitLocOpBuilder &b, Value array,
                         uint64_t threads) {
  Value synced = dsl::sync(b, array);
  synced.getDefiningOp<SyncOp>().setHowAttr(
      StridedAttr::get(b.getContext(), threads));
  return synced;
}

static Value constantIndex(ImplicitLocOpBuilder &b, int64_t value) {
  return arith::ConstantIndexOp::create(b, value);
}

/// How many of the first `diagonal` elements of the stable merge of run A
/// (`aLength` elements, element i read by `readA`) and run B (`bLength`,
/// `readB`) come from A, where A's element goes first when neither is
/// less: the merge path's crossing of the diagonal. A binary search of
/// `steps` fixed steps (enough for a range of 2^steps - 1 places), each of
/// which reads nothing once the range is empty; `less` sees only elements
/// of the runs.
static Value mergePathSplit(
    ImplicitLocOpBuilder &b, Value diagonal, Value aLength, Value bLength,
    unsigned steps,
    llvm::function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, Value)> readA,
    llvm::function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, Value)> readB,
    llvm::function_ref<Value(ImplicitLocOpBuilder &, ValueRange, ValueRange)>
        less) {
  Value zero = constantIndex(b, 0), one = constantIndex(b, 1);
  // A gives at least diagonal - bLength and at most aLength of them.
  Value pastB =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, diagonal, bLength);
  Value low = arith::SelectOp::create(
      b, pastB, arith::SubIOp::create(b, diagonal, bLength), zero);
  Value high = arith::MinUIOp::create(b, diagonal, aLength);
  auto search = scf::ForOp::create(b, zero, constantIndex(b, steps), one,
                                   ValueRange{low, high});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(search.getBody());
    Value lo = search.getRegionIterArg(0), hi = search.getRegionIterArg(1);
    Value open = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, lo, hi);
    auto step =
        scf::IfOp::create(b, TypeRange{b.getIndexType(), b.getIndexType()},
                          open, /*withElseRegion=*/true);
    b.setInsertionPointToStart(step.thenBlock());
    // lo <= mid < hi: A's mid and B's diagonal - 1 - mid are both inside.
    Value mid = arith::DivUIOp::create(b, arith::AddIOp::create(b, lo, hi),
                                       constantIndex(b, 2));
    Value opposite =
        arith::SubIOp::create(b, arith::SubIOp::create(b, diagonal, one), mid);
    // A's mid goes before B's opposite unless B's is less: then more than
    // mid of the first `diagonal` come from A.
    Value bFirst = less(b, readB(b, opposite), readA(b, mid));
    Value next = arith::AddIOp::create(b, mid, one);
    scf::YieldOp::create(
        b, ValueRange{arith::SelectOp::create(b, bFirst, lo, next),
                      arith::SelectOp::create(b, bFirst, mid, hi)});
    b.setInsertionPointToStart(step.elseBlock());
    scf::YieldOp::create(b, ValueRange{lo, hi});
    b.setInsertionPointAfter(step);
    scf::YieldOp::create(b, step.getResults());
  }
  return search.getResult(0);
}

KernelOp DeviceExpander::getSortTileKernel() {
  if (sortTile)
    return sortTile;
  MLIRContext *context = op->getContext();
  uint64_t tile = tiling.tile;
  Type i32 = IntegerType::get(context, 32);
  SmallVector<Type> taggedScalars(scalars);
  taggedScalars.push_back(i32);
  ArrType tagged = ArrType::get(tile, elementOf(context, taggedScalars));
  sortTile = buildKernel(
      "sort_tile", {{tileType(tile), zerosOf(scalars)}}, tileType(tile),
      [&](ImplicitLocOpBuilder &b, ValueRange args) {
        Value elements = args.front();
        Value present = ExtentOp::create(b, elements);
        // Each element beside its position, or, absent, the tile plus its
        // position: a tag that orders equivalent elements as they came and
        // the absent ones after every present one, without `less`.
        Value withPositions =
            dsl::generate(b, tagged, [&](ImplicitLocOpBuilder &b, Value i) {
              SmallVector<Value> scalars = dsl::index(b, elements, i);
              Value inside = arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                                   i, present);
              Value position = indexToI32(b, i);
              scalars.push_back(arith::SelectOp::create(
                  b, inside, position,
                  arith::AddIOp::create(b, position, constantI32(b, tile))));
              return scalars;
            });
        Value sorted = dsl::sync(
            b, dsl::bitonicSort(
                   b, withPositions,
                   [&](ImplicitLocOpBuilder &b, ValueRange x, ValueRange y) {
                     Value xTag = x.back(), yTag = y.back();
                     Value bound = constantI32(b, tile);
                     Value both = arith::AndIOp::create(
                         b,
                         arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                               xTag, bound),
                         arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                               yTag, bound));
                     Value earlier = arith::CmpIOp::create(
                         b, arith::CmpIPredicate::ult, xTag, yTag);
                     auto order = scf::IfOp::create(b, b.getI1Type(), both,
                                                    /*withElseRegion=*/true);
                     OpBuilder::InsertionGuard guard(b);
                     b.setInsertionPointToStart(order.thenBlock());
                     // Two present elements: `less`, then their positions.
                     Value before = less(b, x.drop_back(), y.drop_back());
                     Value after = less(b, y.drop_back(), x.drop_back());
                     Value tie = arith::AndIOp::create(
                         b,
                         arith::XOrIOp::create(
                             b, after,
                             arith::ConstantIntOp::create(b, 1, /*width=*/1)),
                         earlier);
                     scf::YieldOp::create(
                         b, ValueRange{arith::OrIOp::create(b, before, tie)});
                     b.setInsertionPointToStart(order.elseBlock());
                     scf::YieldOp::create(b, ValueRange{earlier});
                     return SmallVector<Value>{order.getResult(0)};
                   }));
        return SmallVector<Value>{dsl::generate(
            b, tileType(tile), [&](ImplicitLocOpBuilder &b, Value i) {
              SmallVector<Value> scalars = dsl::index(b, sorted, i);
              scalars.pop_back();
              return scalars;
            })};
      });
  // The network's stages, written out here rather than by
  // obs-expand-networks, take the work assignment AssignWork's costing
  // picks for them (each thread a compact run, which keeps most
  // compare-swaps inside a warp), written, so that every compilation does
  // not cost three candidates again; the proofs check it as any written
  // one.
  sortTile.walk([&](SyncOp sync) {
    if (!sync.getHowAttr())
      sync.setHowAttr(CompactAttr::get(context, tiling.threads));
  });
  return sortTile;
}

KernelOp DeviceExpander::getRunLengthKernel(bool first) {
  KernelOp &kernel = runLengthKernels[first];
  if (kernel)
    return kernel;
  Type i64 = IntegerType::get(op->getContext(), 64);
  ArrType one = ArrType::get(1, i64);
  SmallVector<std::pair<Type, Attribute>> arguments;
  if (!first)
    arguments.push_back({one, zerosOf(i64)});
  kernel = buildKernel(
      first ? "run_length_first" : "run_length_twice", arguments, one,
      [&](ImplicitLocOpBuilder &b, ValueRange args) {
        return SmallVector<Value>{
            dsl::generate(b, one, [&](ImplicitLocOpBuilder &b, Value) {
              if (first)
                return SmallVector<Value>{arith::ConstantIntOp::create(
                    b, static_cast<int64_t>(tiling.tile), /*width=*/64)};
              Value length =
                  dsl::index(b, args.front(), constantIndex(b, 0)).front();
              return SmallVector<Value>{
                  arith::AddIOp::create(b, length, length)};
            })};
      });
  return kernel;
}

KernelOp DeviceExpander::getMergeKernel() {
  if (mergeKernel)
    return mergeKernel;
  MLIRContext *context = op->getContext();
  uint64_t tile = tiling.tile;
  Type i64 = IntegerType::get(context, 64);
  ArrType whole = ArrType::get(kDynamicGridLength, element);
  mergeKernel = buildKernel(
      "merge",
      {{whole, zerosOf(scalars)}, {ArrType::get(1, i64), zerosOf(i64)}},
      tileType(tile), [&](ImplicitLocOpBuilder &b, ValueRange args) {
        Value source = args[0];
        auto lessFn = [this](ImplicitLocOpBuilder &b, ValueRange x,
                             ValueRange y) { return less(b, x, y); };
        // Where the block's tile lies: in the pair of runs [pairStart,
        // pairStart + 2 * run), A then B, both cut at the end.
        Value length = ExtentOp::create(b, source);
        Value run = arith::IndexCastUIOp::create(
            b, b.getIndexType(),
            dsl::index(b, args[1], constantIndex(b, 0)).front());
        Value tileStart = arith::MulIOp::create(b, BlockIdOp::create(b),
                                                constantIndex(b, tile));
        Value pair = arith::AddIOp::create(b, run, run);
        Value pairStart = arith::MulIOp::create(
            b, arith::DivUIOp::create(b, tileStart, pair), pair);
        Value aLength = arith::MinUIOp::create(
            b, run, arith::SubIOp::create(b, length, pairStart));
        Value bStart = arith::AddIOp::create(b, pairStart, aLength);
        Value bLength = arith::MinUIOp::create(
            b, run, arith::SubIOp::create(b, length, bStart));
        Value first = arith::SubIOp::create(b, tileStart, pairStart);
        Value last = arith::MinUIOp::create(
            b, arith::AddIOp::create(b, first, constantIndex(b, tile)),
            arith::AddIOp::create(b, aLength, bLength));
        auto readSource = [&](Value start) {
          return [&, start](ImplicitLocOpBuilder &b, Value i) {
            return dsl::index(b, source, arith::AddIOp::create(b, start, i));
          };
        };
        // The merge path's crossings of the tile's first and last
        // diagonals: how much of A comes before the tile, and before its
        // end. Runs are shorter than 2^31.
        Value splits = syncStrided(
            b,
            dsl::generate(
                b, ArrType::get(2, i64),
                [&](ImplicitLocOpBuilder &b, Value k) {
                  Value isFirst = arith::CmpIOp::create(
                      b, arith::CmpIPredicate::eq, k, constantIndex(b, 0));
                  Value diagonal =
                      arith::SelectOp::create(b, isFirst, first, last);
                  Value split = mergePathSplit(
                      b, diagonal, aLength, bLength, /*steps=*/32,
                      readSource(pairStart), readSource(bStart), lessFn);
                  return SmallVector<Value>{
                      arith::IndexCastUIOp::create(b, i64, split)};
                }),
            tiling.threads);
        auto splitAt = [&](ImplicitLocOpBuilder &b, int64_t k) -> Value {
          return arith::IndexCastUIOp::create(
              b, b.getIndexType(),
              dsl::index(b, splits, constantIndex(b, k)).front());
        };
        SmallVector<Value> zeros =
            llvm::map_to_vector(scalars, [&](Type scalar) -> Value {
              return arith::getZeroConstant(b, b.getLoc(), scalar);
            });
        // The tile's window: its share of A, then its share of B, in
        // shared memory; past them, zeros that nothing compares.
        // For a strict weak order the second crossing is at least the first
        // and at most `count` past it. A `less` that is not one (NaN under
        // `olt`) may cross anywhere: the clamps keep every read inside the
        // runs and the window whatever `less` says, and the order is then
        // unspecified.
        Value aFrom = splitAt(b, 0);
        Value count = arith::SubIOp::create(b, last, first);
        Value aShare = arith::MinUIOp::create(
            b,
            arith::SubIOp::create(
                b, arith::MaxUIOp::create(b, splitAt(b, 1), aFrom), aFrom),
            count);
        Value bFrom = arith::SubIOp::create(b, first, aFrom);
        Value bShare = arith::SubIOp::create(b, count, aShare);
        Value window = syncStrided(
            b,
            dsl::generate(
                b, tileType(tile),
                [&](ImplicitLocOpBuilder &b, Value i) -> SmallVector<Value> {
                  Value inA = arith::CmpIOp::create(
                      b, arith::CmpIPredicate::ult, i, aShare);
                  Value inWindow = arith::CmpIOp::create(
                      b, arith::CmpIPredicate::ult, i, count);
                  auto fromA = scf::IfOp::create(b, scalars, inA,
                                                 /*withElseRegion=*/true);
                  OpBuilder::InsertionGuard guard(b);
                  b.setInsertionPointToStart(fromA.thenBlock());
                  scf::YieldOp::create(
                      b, dsl::index(
                             b, source,
                             arith::AddIOp::create(
                                 b, arith::AddIOp::create(b, pairStart, aFrom),
                                 i)));
                  b.setInsertionPointToStart(fromA.elseBlock());
                  auto fromB = scf::IfOp::create(b, scalars, inWindow,
                                                 /*withElseRegion=*/true);
                  scf::YieldOp::create(b, fromB.getResults());
                  b.setInsertionPointToStart(fromB.thenBlock());
                  Value j = arith::SubIOp::create(b, i, aShare);
                  scf::YieldOp::create(
                      b,
                      dsl::index(
                          b, source,
                          arith::AddIOp::create(
                              b, arith::AddIOp::create(b, bStart, bFrom), j)));
                  b.setInsertionPointToStart(fromB.elseBlock());
                  scf::YieldOp::create(b, zeros);
                  return SmallVector<Value>(fromA.getResults());
                }),
            tiling.threads);
        auto readWindow = [&](Value start) {
          return [&, start](ImplicitLocOpBuilder &b, Value i) {
            return dsl::index(b, window, arith::AddIOp::create(b, start, i));
          };
        };
        Value zero = constantIndex(b, 0), one = constantIndex(b, 1);
        Value stride = constantIndex(b, kMergeStride);
        // The window's merge path crossed at every kMergeStride-th
        // diagonal (as CUB's threads find where their items start), by a
        // binary search each.
        Type i32 = b.getI32Type();
        Value crossings = syncStrided(
            b,
            dsl::generate(
                b,
                ArrType::get(std::max<uint64_t>(1, tile / kMergeStride), i32),
                [&](ImplicitLocOpBuilder &b, Value d) {
                  Value diagonal = arith::MinUIOp::create(
                      b, arith::MulIOp::create(b, d, stride), count);
                  Value crossing = mergePathSplit(
                      b, diagonal, aShare, bShare,
                      /*steps=*/llvm::Log2_64(tile) + 1, readWindow(zero),
                      readWindow(aShare), lessFn);
                  return SmallVector<Value>{indexToI32(b, crossing)};
                }),
            tiling.threads);
        // Whether the merge takes A's next element at (a, j): unless A is
        // spent, or B's next is less (A's first on a tie: stable).
        auto takesA = [&](ImplicitLocOpBuilder &b, Value a, Value j) -> Value {
          Value aLeft =
              arith::CmpIOp::create(b, arith::CmpIPredicate::ult, a, aShare);
          Value bLeft =
              arith::CmpIOp::create(b, arith::CmpIPredicate::ult, j, bShare);
          auto takeA = scf::IfOp::create(b, b.getI1Type(),
                                         arith::AndIOp::create(b, aLeft, bLeft),
                                         /*withElseRegion=*/true);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(takeA.thenBlock());
          Value bLess =
              less(b, readWindow(aShare)(b, j), readWindow(zero)(b, a));
          scf::YieldOp::create(
              b,
              ValueRange{arith::XOrIOp::create(
                  b, bLess, arith::ConstantIntOp::create(b, 1, /*width=*/1))});
          b.setInsertionPointToStart(takeA.elseBlock());
          scf::YieldOp::create(b, ValueRange{aLeft});
          return takeA.getResult(0);
        };
        // Element q: from the crossing at the diagonal before it, the merge
        // walked q mod kMergeStride steps.
        return SmallVector<Value>{dsl::generate(
            b, tileType(tile),
            [&](ImplicitLocOpBuilder &b, Value q) -> SmallVector<Value> {
              Value inWindow =
                  arith::CmpIOp::create(b, arith::CmpIPredicate::ult, q, count);
              auto merged = scf::IfOp::create(b, scalars, inWindow,
                                              /*withElseRegion=*/true);
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPointToStart(merged.elseBlock());
              scf::YieldOp::create(b, zeros);
              b.setInsertionPointToStart(merged.thenBlock());
              Value d = arith::DivUIOp::create(b, q, stride);
              Value start = arith::MulIOp::create(b, d, stride);
              Value a0 = i32ToIndex(b, dsl::index(b, crossings, d).front());
              Value j0 = arith::SubIOp::create(b, start, a0);
              auto walk = scf::ForOp::create(b, zero,
                                             arith::SubIOp::create(b, q, start),
                                             one, ValueRange{a0, j0});
              {
                OpBuilder::InsertionGuard guard(b);
                b.setInsertionPointToStart(walk.getBody());
                Value a = walk.getRegionIterArg(0),
                      j = walk.getRegionIterArg(1);
                Value takeA = takesA(b, a, j);
                Value stepA = arith::SelectOp::create(b, takeA, one, zero);
                scf::YieldOp::create(
                    b, ValueRange{
                           arith::AddIOp::create(b, a, stepA),
                           arith::AddIOp::create(
                               b, j, arith::SubIOp::create(b, one, stepA))});
              }
              Value a = walk.getResult(0), j = walk.getResult(1);
              auto pick = scf::IfOp::create(b, scalars, takesA(b, a, j),
                                            /*withElseRegion=*/true);
              scf::YieldOp::create(b, pick.getResults());
              b.setInsertionPointToStart(pick.thenBlock());
              scf::YieldOp::create(b, readWindow(zero)(b, a));
              b.setInsertionPointToStart(pick.elseBlock());
              scf::YieldOp::create(b, readWindow(aShare)(b, j));
              return SmallVector<Value>(merged.getResults());
            })};
      });
  // The source is read where the searches find, in every block.
  mergeKernel.setArgAttr(
      0, ObsDialect::GlobalAttrHelper(op->getContext()).getName(),
      UnitAttr::get(op->getContext()));
  return mergeKernel;
}

void DeviceExpander::expandMergeSort(DeviceSortOp sort) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  ValueRange inputs = sort.getInputs(), outputs = sort.getOutputs();
  Value length = lengthOf(b, inputs.front());
  uint64_t most = mostLength(inputs.front());
  uint64_t tile = tiling.tile;
  Value tiles = ceilTiles(b, length);
  Value zero = constantIndex(b, 0);
  auto gate = [&](Value runs, Value grid) -> Value {
    return b.createOrFold<arith::SelectOp>(runs, grid, zero);
  };
  // A launch whose grid is 0 for every length (the length is known and does
  // not need it) is left out.
  auto launchIfAny = [&](KernelOp kernel, Value grid, ValueRange ins,
                         ValueRange outs) {
    if (getConstantIntValue(grid) != 0)
      launch(b, kernel, grid, ins, outs);
  };
  auto longerThan = [&](uint64_t bound) -> Value {
    return b.createOrFold<arith::CmpIOp>(arith::CmpIPredicate::ugt, length,
                                         constantIndex(b, bound));
  };
  // Merge passes double the sorted runs from one tile until one run holds
  // every element: pass k (from 1) merges runs of tile * 2^(k-1), and runs
  // only when there are two. The plan holds every pass the longest length
  // may need; a pass the length does not is a grid of 0. The last pass
  // that runs, and the tiles' sort where no pass runs, write the outputs;
  // the others go between two spare arrays.
  unsigned passes = 0;
  while (passes < 63 && (tile << passes) < most)
    ++passes;
  SmallVector<Value> spares[2];
  SmallVector<Value> runLengths[2];
  if (passes > 0) {
    for (unsigned k = 0; k < std::min(passes, 2u); ++k) {
      spares[k] = allocate(b, length);
      llvm::append_range(temporaries, spares[k]);
      runLengths[k] = {allocateOf(b, b.getI64Type(), tiles)};
      llvm::append_range(temporaries, runLengths[k]);
    }
  }
  auto negate = [&](Value condition) -> Value {
    return b.createOrFold<arith::XOrIOp>(
        condition, arith::ConstantIntOp::create(b, 1, /*width=*/1));
  };
  // Whether pass k runs (n > tile * 2^(k-1)), from k = 1: more than one tile.
  Value runs = longerThan(tile);
  if (passes > 0)
    launchIfAny(getRunLengthKernel(/*first=*/true), gate(runs, tiles), {},
                runLengths[0]);
  // The tiles sorted: into the outputs when one tile holds everything.
  launchIfAny(getSortTileKernel(), passes ? gate(negate(runs), tiles) : tiles,
              inputs, outputs);
  if (passes > 0)
    launchIfAny(getSortTileKernel(), gate(runs, tiles), inputs, spares[0]);
  for (unsigned k = 1; k <= passes; ++k) {
    // Pass k runs; it is the last when pass k + 1 does not.
    Value more = longerThan(tile << k);
    Value last = b.createOrFold<arith::AndIOp>(runs, negate(more));
    SmallVector<Value> from(spares[(k - 1) % 2]);
    from.push_back(runLengths[(k - 1) % 2].front());
    launchIfAny(getMergeKernel(), gate(last, tiles), from, outputs);
    if (k == passes)
      break;
    launchIfAny(getMergeKernel(), gate(more, tiles), from, spares[k % 2]);
    launchIfAny(getRunLengthKernel(/*first=*/false), gate(more, tiles),
                runLengths[(k - 1) % 2], runLengths[k % 2]);
    runs = more;
  }
  deallocate(b, temporaries);
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
    if (isa<DeviceMapOp, DeviceReduceOp, DeviceScanOp, DeviceSortOp>(op))
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
            .Case<DeviceMapOp, DeviceSortOp>([](auto mapOrSort) -> Described {
              return {mapOrSort.getElementTypes(), &mapOrSort.getBody(), {}};
            })
            .Case<DeviceReduceOp, DeviceScanOp>([](auto fold) -> Described {
              return {fold.getElementTypes(), &fold.getBody(),
                      fold.getIdentity()};
            });
    if (described.identity && failed(checkCombineLaws(op, described.identity)))
      return signalPassFailure();
    // A sort by one comparison of the first scalars is a radix sort; any
    // other order merges.
    std::optional<KeyOrder> keyOrder;
    if (isa<DeviceSortOp>(op)) {
      if (failed(checkStrictWeakOrder(op)))
        return signalPassFailure();
      keyOrder = matchKeyOrder(*described.body, described.scalars.size());
      addToStatistic(*this, keyOrder ? numRadixSorts : numMergeSorts,
                     keyOrder ? "radix-sorts" : "merge-sorts");
    }
    DeviceExpander expander(op, symbols, described.scalars, *described.body,
                            described.identity, keyOrder, tile);
    expander.expand();
    op->erase();
    addToStatistic(*this, numOps, "device-ops");
    addToStatistic(*this, numKernels, "kernels", expander.getKernelCount());
    addToStatistic(*this, numLaunches, "launches", expander.getLaunchCount());
  }
}
