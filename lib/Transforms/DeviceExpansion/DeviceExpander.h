//===- DeviceExpander.h - device-level ops to launch plans ------*- C++ -*-===//
//
// Internal to lib/Transforms: the builder of one device op's kernels and
// launch plan (obs-expand-device, ExpandDevice.cpp, makes one per op).
// DeviceExpander.cpp has what every plan shares and the map, reduce and scan;
// RadixSort.cpp and MergeSort.cpp the two sorts.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_TRANSFORMS_DEVICEEXPANSION_DEVICEEXPANDER_H
#define OBS_LIB_TRANSFORMS_DEVICEEXPANSION_DEVICEEXPANDER_H

#include "Obs/Analysis/CombineLaws.h"
#include "Obs/Builder/Combinators.h"
#include "Obs/Builder/Networks.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/Statistics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"

namespace mlir::obs::device_expansion {

/// How many counts a row of the radix sort holds: one per digit of 8 bits.
inline constexpr uint64_t kDigits = 256;

/// How a device op's arrays are cut into tiles, one per block.
struct Tiling {
  /// Elements per tile.
  uint64_t tile;
  /// Threads per block.
  uint64_t threads;
};

/// The bytes of an element of `scalars`.
uint64_t getScalarsBytes(TypeRange scalars);

/// `forced` elements per tile when it is not 0; otherwise as many elements
/// of `bytes` as `budget` bytes hold, a power of two between 256 and
/// `most`. On at most 256 threads.
Tiling chooseTilingOfBytes(uint64_t bytes, uint64_t budget, uint64_t most,
                           uint64_t forced);

/// `forced` elements per tile when it is not 0. Otherwise 32 KiB of elements
/// per tile, a power of two between 256 and 8,192, on at most 256 threads:
/// 8,192 i32 or f32, 4,096 i64 or (i32, i32) pairs. A scan's tile is one
/// in-place buffer of shared memory (two thirds of a block's 48 KiB at
/// most), and every tile costs its scan 16 bytes of totals and carries: 16 /
/// 8,192 of an i32's traffic, which keeps a scan of 1,000,003 under 12
/// bytes per element (docs/Rationale.md, "The device level").
Tiling chooseTiling(TypeRange scalars, uint64_t forced);

/// A sort's tiles: `forced` elements when it is not 0, otherwise 4,096 for
/// every element type. Its scatter kernel keeps a tile's digits and
/// places in shared memory (4 bytes each), never its elements, and each
/// tile costs 256 counts a pass, so tiles are as long as the digits allow.
Tiling chooseSortTiling(uint64_t forced);

/// A merge sort's tiles: `forced` elements when it is not 0, otherwise 16
/// KiB of elements with their i32 positions, a power of two between 256
/// and 4,096: 2,048 i32, 1,024 i64 or (i32, i32) pairs. Its tile kernel
/// sorts (element, position) pairs through a network's stages, two buffers
/// of them in shared memory at most.
Tiling chooseMergeTiling(TypeRange scalars, uint64_t forced);

/// The element type of a kernel's array of `scalars`: the scalar, or the
/// tuple of several.
Type elementOf(MLIRContext *context, TypeRange scalars);

/// The `obs.absent` value of an argument of `scalars`: `values`, one per
/// scalar.
Attribute absentOf(ArrayRef<Attribute> values);

/// Zeros of `types`, an `obs.absent` attribute.
Attribute zerosOf(TypeRange types);

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

/// The longest array `memref` may be.
uint64_t mostLength(Value memref);

Value lengthOf(ImplicitLocOpBuilder &b, Value memref);

Value constantI32(ImplicitLocOpBuilder &b, int32_t value);

Value indexToI32(ImplicitLocOpBuilder &b, Value index);

Value i32ToIndex(ImplicitLocOpBuilder &b, Value value);

} // namespace mlir::obs::device_expansion

#endif // OBS_LIB_TRANSFORMS_DEVICEEXPANSION_DEVICEEXPANDER_H
