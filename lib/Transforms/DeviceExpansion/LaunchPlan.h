//===- LaunchPlan.h - what device algorithms' plans share --------*- C++
//-*-===//
//
// Internal to lib/Transforms: the builder every device algorithm's pattern
// (Obs/Transforms/DeviceExpansion.h) writes its kernels and launch plan
// with, and the tilings. LaunchPlan.cpp has what every plan shares and the
// levels of folds; Map.cpp, Reduce.cpp, Scan.cpp, RadixSort.cpp and
// MergeSort.cpp one algorithm each.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_TRANSFORMS_DEVICEEXPANSION_LAUNCHPLAN_H
#define OBS_LIB_TRANSFORMS_DEVICEEXPANSION_LAUNCHPLAN_H

#include "Obs/Analysis/CombineLaws.h"
#include "Obs/Builder/Combinators.h"
#include "Obs/Builder/Networks.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/DeviceExpansion.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/bit.h"

namespace mlir::obs::device_expansion {

/// The fewest elements a tile holds (unless 256 of its elements would not
/// fit in shared memory), and the most threads a block of a device plan
/// has: a tile of at least 256 elements keeps its block's launch worth its
/// cost, and 256 threads is CUB's device tile's block too.
inline constexpr uint64_t kLeastTile = 256;
inline constexpr uint64_t kMostTileThreads = 256;
/// A map's, reduction's or scan's tile: 32 KiB of elements, at most 8,192
/// (see chooseTiling).
inline constexpr uint64_t kFoldTileBytes = 32 * 1024;
inline constexpr uint64_t kMostFoldTile = 8192;
/// A radix sort's tile (see chooseSortTiling).
inline constexpr uint64_t kRadixSortTile = 4096;
/// A merge sort's tile: 16 KiB of elements, at most 4,096 (see
/// chooseMergeTiling).
inline constexpr uint64_t kMergeTileBytes = 16 * 1024;
inline constexpr uint64_t kMostMergeTile = 4096;

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
/// `most`, or below 256 (at least 2) for elements so wide that 256 of them
/// do not fit. On at most 256 threads.
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
/// KiB of elements, a power of two between 256 and 4,096: 4,096 i32, 2,048
/// i64 or (i32, i32) pairs. Its tile kernel merges runs in shared memory,
/// two tiles of elements and a crossing per 8 of them at most, and a merge
/// pass moves a tile's elements through one window, so the tile is as long
/// as 16 KiB allows: 4,096 i32 take 8 merge passes over 2^20 keys.
Tiling chooseMergeTiling(TypeRange scalars, uint64_t forced);

/// The element type of a kernel's array of `scalars`: the scalar, or the
/// tuple of several.
Type elementOf(MLIRContext *context, TypeRange scalars);

/// The `obs.absent` value of an argument of `scalars`: `values`, one per
/// scalar.
Attribute absentOf(ArrayRef<Attribute> values);

/// Zeros of `types`, an `obs.absent` attribute.
Attribute zerosOf(TypeRange types);

/// What every device algorithm's plan shares: the op, its kernels (built
/// before its host function, named after it), launches, temporaries and
/// the levels of a plan. Each algorithm (Map.cpp, Reduce.cpp, Scan.cpp,
/// RadixSort.cpp, MergeSort.cpp) is a pattern that builds one plan,
/// subclassing this for the kernels it keeps.
class LaunchPlan {
public:
  /// `op`'s element `scalars`, its region `body` (a function, a combine or
  /// a sort's `less`), cut into tiles by `tiling`; for a reduce or a scan
  /// the combine's `identity`. What is written is counted in `statistics`
  /// (may be null).
  LaunchPlan(Operation *op, TypeRange scalars, Region &body, Tiling tiling,
             ArrayAttr identity, DeviceExpansionStatistics *statistics);

protected:
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
  /// Whether the op's `less` puts `first` before `second` (flattened).
  Value less(ImplicitLocOpBuilder &b, ValueRange first, ValueRange second) {
    return combine(b, first, second).front();
  }

  SmallVector<Value> identityValues(ImplicitLocOpBuilder &b) {
    SmallVector<Value> values;
    for (Attribute value : identity)
      values.push_back(
          arith::ConstantOp::create(b, cast<TypedAttr>(value)).getResult());
    return values;
  }

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

  Operation *op;
  SymbolTable symbols;
  SmallVector<Type> scalars;
  Region &body;
  Tiling tiling;
  Type element;
  ArrayAttr identity;
  /// The op of the module's body that holds `op`: kernels go before it.
  Operation *host;
  std::string prefix;
  /// The plan's temporaries, freed after its last launch: a free waits for
  /// the work before it (on the cuda target, the stream), which must not
  /// come between two launches.
  SmallVector<Value> temporaries;
  DeviceExpansionStatistics *statistics;
};

/// The plans of folds, by tiles and levels: a reduction's (Reduce.cpp) and
/// a scan's (Scan.cpp), which reduces its tiles first.
class FoldPlan : public LaunchPlan {
public:
  using LaunchPlan::LaunchPlan;

  /// An obs.device_reduce of `inputs` into `outputs`: emitReduce, through
  /// a temporary where an output is an input.
  void emitDeviceReduce(ImplicitLocOpBuilder &b, ValueRange inputs,
                        ValueRange outputs, Value length, uint64_t most);
  /// Folds `inputs` (`length` elements, at most `most`) into `outputs`.
  void emitReduce(ImplicitLocOpBuilder &b, ValueRange inputs,
                  ValueRange outputs, Value length, uint64_t most,
                  Value active);
  /// Scans `inputs` (`length` elements, at most `most`) into `outputs`.
  void emitScan(ImplicitLocOpBuilder &b, ScanKind kind, ValueRange inputs,
                ValueRange outputs, Value length, uint64_t most, Value active);
  /// Frees the plan's temporaries, after its last launch.
  void finish(ImplicitLocOpBuilder &b) { deallocate(b, temporaries); }

private:
  /// `tile`: one tile folded by a tree to its one element, the tile's
  /// total; absent elements are the identity.
  KernelOp getReduceTileKernel();
  /// Where a tile's scan takes what comes before the tile from.
  enum class CarryFrom { Nothing, Argument, LookBack };
  /// `tile` scanned (`kind`): from the identity, from the carry in a
  /// second argument's one element, or from an obs.carry of the tiles'
  /// totals over a chain (the second argument) by `combine`.
  KernelOp getScanTileKernel(ScanKind kind, CarryFrom from,
                             std::optional<ScatterCombine> lookBack = {});
  /// The combine obs.carry can look back by, where the scan's is one:
  /// add, signed min or max, or, and of one integer of at most 32 bits.
  std::optional<ScatterCombine> getLookBackCombine();
  /// One element copied: a reduction's result into an output that was
  /// also its input.
  KernelOp getCopyResultKernel();

  KernelOp reduceTile, copyResult;
  /// By kind and where the carry comes from.
  KernelOp scanTiles[2][3];
};

/// The longest array `memref` may be.
uint64_t mostLength(Value memref);

Value lengthOf(ImplicitLocOpBuilder &b, Value memref);

/// Whether an output may share memory with an input: a view of an
/// input's allocation (the same memref, a cast, a subview, a
/// reinterpret_cast), or a memref whose views lead to no allocation the
/// analysis follows, taken as shared. A plan that writes its outputs while
/// it still reads its inputs goes through a temporary first.
bool mayShareMemory(ValueRange outputs, ValueRange inputs);

/// `outputs` as a device op that computes its first `length` elements
/// writes them (and later inputs as it reads them): each output that may hold
/// more than `length` elements, as its first `length` (a subview; an output
/// that is one of `inputs` holds `length` already). A launch writes its
/// output's tiles whole, and the places past `length` were written with what
/// the last tile computed for absent elements (a scan's last prefix, a map's
/// zeros), where the op leaves them as they were.
SmallVector<Value> viewFirstElements(ImplicitLocOpBuilder &b,
                                     ValueRange outputs, Value length,
                                     ValueRange inputs);

/// A device op's `inputs` as its plan reads them for `length`, the first
/// input's length: the first as it is, each later one as its first
/// `length` elements (viewFirstElements). A tile reads its inputs whole,
/// so that a longer later input was read past `length`.
SmallVector<Value> viewLaterInputs(ImplicitLocOpBuilder &b, ValueRange inputs,
                                   Value length);

/// A device op's `outputs` as its plan writes them: an output that is one
/// of `inputs` through that input's view in `viewedInputs`
/// (viewLaterInputs), so that the launch proof sees one place read and
/// written by one block and a longer later input keeps its places from
/// `length` on; any other as viewFirstElements makes it.
SmallVector<Value> viewOutputs(ImplicitLocOpBuilder &b, ValueRange outputs,
                               Value length, ValueRange inputs,
                               ValueRange viewedInputs);

/// Checks, as the host code runs before `sort`, that its first input holds
/// at most DeviceSortOp::kMostElements (LaunchContractBreach::SortTooLong; an
/// error here where its type says more) and each of its memrefs (ins, then
/// outs) as many as its first input, where their types do not already say
/// so: the first that does not stops the program (obs_launch_contract,
/// LaunchContractBreach::SortLengthsDiffer, naming it by its place).
/// Fails, before changing anything, where the runtime function cannot be
/// declared.
LogicalResult emitSortLengthsCheck(DeviceSortOp sort);

Value constantI32(ImplicitLocOpBuilder &b, int32_t value);

/// Marks `kernel`'s argument `index` `obs.global` (the launch's memref
/// whole, the same in every block) or `obs.chain` (an obs.carry's chain).
void markGlobalArgument(KernelOp kernel, unsigned index);
void markChainArgument(KernelOp kernel, unsigned index);

Value indexToI32(ImplicitLocOpBuilder &b, Value index);

Value i32ToIndex(ImplicitLocOpBuilder &b, Value value);

/// The pattern of a fold `FoldOp` (obs.device_reduce or obs.device_scan):
/// checks the op's laws, then writes its plan by `emit` (given the plan, a
/// builder before the op, the op, its length and the longest it may be),
/// frees the plan's temporaries and erases the op.
template <typename FoldOp> struct ExpandFold : OpRewritePattern<FoldOp> {
  /// Emits the plan of `fold` over `inputs`: its inputs, each viewed as
  /// its first `length` elements.
  using Emit = void (*)(FoldPlan &, ImplicitLocOpBuilder &, FoldOp,
                        ValueRange inputs, Value length, uint64_t most);

  ExpandFold(MLIRContext *context, const DeviceExpansionOptions &options,
             Emit emit)
      : OpRewritePattern<FoldOp>(context), options(options), emit(emit) {}

  LogicalResult matchAndRewrite(FoldOp fold,
                                PatternRewriter &rewriter) const override {
    if (failed(checkCombineLaws(fold, fold.getIdentity())))
      return failure();
    FoldPlan plan(fold, fold.getElementTypes(), fold.getBody(),
                  chooseTiling(fold.getElementTypes(), options.tile),
                  fold.getIdentity(), options.statistics);
    ImplicitLocOpBuilder b(fold.getLoc(), fold);
    Value input = fold.getInputs().front();
    Value length = lengthOf(b, input);
    // `n` is the first input's length: a later input that is longer is
    // read up to `n` only. Its tiles would otherwise read it whole, so
    // that a sum counted its elements past `n` in the last tile, an answer
    // that changed with the tile size (adversarial run: 8,192 of 10,000
    // ones counted after a first input of 5,000).
    emit(plan, b, fold, viewLaterInputs(b, fold.getInputs(), length), length,
         mostLength(input));
    plan.finish(b);
    rewriter.eraseOp(fold);
    return success();
  }

  DeviceExpansionOptions options;
  Emit emit;
};

} // namespace mlir::obs::device_expansion

#endif // OBS_LIB_TRANSFORMS_DEVICEEXPANSION_LAUNCHPLAN_H
