//===- MergeSort.cpp - obs.device_sort by any order ----------------------===//
//
// A device sort by any strict weak order: sorted tiles, then merges of
// runs, each block's share found by a merge-path search.
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::device_expansion;

namespace {

/// A merge sort's kernels and plan (docs/Rationale.md, "The device level").
class MergeSortPlan : public LaunchPlan {
public:
  MergeSortPlan(DeviceSortOp sort, const DeviceExpansionOptions &options)
      : LaunchPlan(sort, sort.getElementTypes(), sort.getBody(),
                   chooseMergeTiling(sort.getElementTypes(), options.tile),
                   /*identity=*/{}, options.statistics) {}

  /// Writes the plan before `sort`.
  void expand(DeviceSortOp sort);

private:
  /// A tile sorted stably by `less` (its absent elements dropped): merges
  /// of runs in shared memory, from runs of one element to the whole tile.
  KernelOp getSortTileKernel();
  /// A tile of the merge of two sorted runs of the whole `obs.global`
  /// source, the runs as long as a one-element second argument says: tile
  /// b's elements are the merge's elements b * tile onwards.
  KernelOp getMergeKernel();
  /// The runs' length for every tile: the tile (`first`), or twice what a
  /// one-element argument holds.
  KernelOp getRunLengthKernel(bool first);

  /// Where a merge block's tile lies: its pair of runs, A from `pairStart`
  /// (`aLength` elements) then B from `bStart` (`bLength`), and the tile's
  /// diagonals [`first`, `last`) of their merge.
  struct MergeRuns {
    Value pairStart, aLength, bStart, bLength, first, last;
  };
  /// Two sorted runs of one array to merge: A's element i at `array[aStart
  /// + i]` for i < `aLength`, B's at `array[bStart + i]` for i < `bLength`.
  /// A's element goes first when neither is less (stable).
  struct MergePair {
    Value array, aStart, aLength, bStart, bLength;
  };
  /// A merge block's tile in shared memory: `window` holds its `aShare`
  /// elements of A, then its `bShare` of B (`count` in all), then zeros.
  struct MergeWindow {
    Value window, aShare, bShare, count;
    MergePair pair(Value zero) const {
      return {window, zero, aShare, aShare, bShare};
    }
  };

  /// A zero of each scalar: what an element past the present ones holds.
  SmallVector<Value> zeroScalars(ImplicitLocOpBuilder &b) {
    return llvm::map_to_vector(scalars, [&](Type scalar) -> Value {
      return arith::getZeroConstant(b, b.getLoc(), scalar);
    });
  }
  /// The sort-tile kernel's body: the tile's runs merged, round by round.
  Value buildSortTileBody(ImplicitLocOpBuilder &b, Value elements);
  /// The merge kernel's body: its tile of the merge of two runs.
  SmallVector<Value> buildMergeBody(ImplicitLocOpBuilder &b, ValueRange args);
  /// Where the block's tile lies in the runs of `source`.
  MergeRuns locateMergeRuns(ImplicitLocOpBuilder &b, Value source,
                            Value runArg);
  /// The merge path's crossings of the tile's first and last diagonals.
  Value findTileSplits(ImplicitLocOpBuilder &b, Value source,
                       const MergeRuns &runs);
  /// The tile's shares of A and B loaded into shared memory.
  MergeWindow loadMergeWindow(ImplicitLocOpBuilder &b, Value source,
                              const MergeRuns &runs, Value splits,
                              ValueRange zeros);
  /// The window's merge path crossed at every kMergeStride-th diagonal.
  Value crossMergeWindow(ImplicitLocOpBuilder &b, const MergeWindow &w,
                         Value zero, Value stride);
  /// How many of the first `diagonal` elements of `p`'s merge come from A,
  /// by a binary search of `steps` steps (2^steps - 1 places at most).
  Value crossRuns(ImplicitLocOpBuilder &b, const MergePair &p, Value diagonal,
                  unsigned steps);
  /// Whether `p`'s merge takes A's element `a` before B's `j`.
  Value takesFromA(ImplicitLocOpBuilder &b, const MergePair &p, Value a,
                   Value j);
  /// `p`'s merge's element at diagonal `start + steps`, walked `steps`
  /// steps from the merge path's crossing of `start`, where `crossing` of
  /// the first `start` elements come from A.
  SmallVector<Value> walkMerge(ImplicitLocOpBuilder &b, const MergePair &p,
                               Value start, Value crossing, Value steps);

  KernelOp sortTile, mergeKernel, runLengthKernels[2];
};

/// obs.device_sort by any strict weak order `less`: tiles sorted, then
/// merged.
struct ExpandMergeSort : OpRewritePattern<DeviceSortOp> {
  ExpandMergeSort(MLIRContext *context, const DeviceExpansionOptions &options)
      : OpRewritePattern(context, /*benefit=*/1), options(options) {}

  LogicalResult matchAndRewrite(DeviceSortOp sort,
                                PatternRewriter &rewriter) const override {
    if (failed(checkStrictWeakOrder(sort)))
      return failure();
    if (failed(emitSortLengthsCheck(sort)))
      return failure();
    MergeSortPlan plan(sort, options);
    plan.expand(sort);
    if (options.statistics)
      ++options.statistics->mergeSorts;
    rewriter.eraseOp(sort);
    return success();
  }

  DeviceExpansionOptions options;
};

} // namespace

//===----------------------------------------------------------------------===//
// The merge sort
//===----------------------------------------------------------------------===//

/// How many consecutive outputs of a merge continue from one crossing of
/// the merge path: each output is walked from the crossing before it, at
/// most kMergeStride - 1 steps (CUB's threads walk their items per thread
/// from one crossing).
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

KernelOp MergeSortPlan::getSortTileKernel() {
  if (sortTile)
    return sortTile;
  sortTile = buildKernel(
      "sort_tile", {{tileType(tiling.tile), zerosOf(scalars)}},
      tileType(tiling.tile), [&](ImplicitLocOpBuilder &b, ValueRange args) {
        return SmallVector<Value>{buildSortTileBody(b, args.front())};
      });
  return sortTile;
}

/// The tile sorted as CUB's BlockMergeSort sorts it, by stable merges of
/// runs that double, with no network and no positions: round r merges
/// pairs of runs of 2^r elements, each a synced array in shared memory.
/// Element q of a round is walked from the merge path's crossing of the
/// kMergeStride-th diagonal before it (found by a binary search a stage
/// before) or, while a pair of runs is no longer than kMergeStride, from
/// the pair's start. Absent elements (past `obs.extent`) are left out of
/// every run, so the order never compares them and they stay last.
Value MergeSortPlan::buildSortTileBody(ImplicitLocOpBuilder &b,
                                       Value elements) {
  uint64_t tile = tiling.tile;
  Type i32 = b.getI32Type();
  Value zero = constantIndex(b, 0);
  Value present = ExtentOp::create(b, elements);
  SmallVector<Value> zeros = zeroScalars(b);
  // Runs past `present` are cut there: a pair's A and B hold only present
  // elements.
  auto presentFrom = [&](ImplicitLocOpBuilder &b, Value start, uint64_t run) {
    Value left = arith::SubIOp::create(
        b, present, arith::MinUIOp::create(b, present, start));
    return arith::MinUIOp::create(b, left, constantIndex(b, run));
  };
  // The pair of runs of `run` elements that `position` lies in, and its
  // start.
  auto pairAt = [&](ImplicitLocOpBuilder &b, Value array, Value position,
                    uint64_t run) -> std::pair<MergePair, Value> {
    Value pairStart = arith::MulIOp::create(
        b, arith::DivUIOp::create(b, position, constantIndex(b, 2 * run)),
        constantIndex(b, 2 * run));
    Value bStart = arith::AddIOp::create(b, pairStart, constantIndex(b, run));
    return {{array, pairStart, presentFrom(b, pairStart, run), bStart,
             presentFrom(b, bStart, run)},
            pairStart};
  };
  Value runs = syncStrided(b, elements, tiling.threads);
  for (uint64_t run = 1; run < tile; run *= 2) {
    Value array = runs;
    // The crossings of every kMergeStride-th diagonal, where a pair is
    // longer than that.
    Value crossings;
    if (2 * run > kMergeStride) {
      crossings = syncStrided(
          b,
          dsl::generate(
              b, ArrType::get(llvm::divideCeil(tile, kMergeStride), i32),
              [&](ImplicitLocOpBuilder &b, Value d) {
                Value diagonal =
                    arith::MulIOp::create(b, d, constantIndex(b, kMergeStride));
                auto [pair, pairStart] = pairAt(b, array, diagonal, run);
                Value local = arith::MinUIOp::create(
                    b, arith::SubIOp::create(b, diagonal, pairStart),
                    arith::AddIOp::create(b, pair.aLength, pair.bLength));
                Value crossing =
                    crossRuns(b, pair, local, llvm::Log2_64(run) + 1);
                return SmallVector<Value>{indexToI32(b, crossing)};
              }),
          tiling.threads);
    }
    uint64_t walkFrom = std::min<uint64_t>(2 * run, kMergeStride);
    Value merged = dsl::generate(
        b, tileType(tile),
        [&](ImplicitLocOpBuilder &b, Value q) -> SmallVector<Value> {
          Value inside =
              arith::CmpIOp::create(b, arith::CmpIPredicate::ult, q, present);
          auto element =
              scf::IfOp::create(b, scalars, inside, /*withElseRegion=*/true);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(element.elseBlock());
          scf::YieldOp::create(b, zeros);
          b.setInsertionPointToStart(element.thenBlock());
          auto [pair, pairStart] = pairAt(b, array, q, run);
          Value local = arith::SubIOp::create(b, q, pairStart);
          Value steps =
              arith::RemUIOp::create(b, local, constantIndex(b, walkFrom));
          Value start = arith::SubIOp::create(b, local, steps);
          Value crossing =
              crossings
                  ? i32ToIndex(
                        b, dsl::index(b, crossings,
                                      arith::DivUIOp::create(
                                          b, q, constantIndex(b, kMergeStride)))
                               .front())
                  : zero;
          scf::YieldOp::create(b, walkMerge(b, pair, start, crossing, steps));
          return SmallVector<Value>(element.getResults());
        });
    // The last round's elements go to the output as they are computed.
    runs = 2 * run < tile ? syncStrided(b, merged, tiling.threads) : merged;
  }
  return runs;
}

KernelOp MergeSortPlan::getRunLengthKernel(bool first) {
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

/// A reader of `array`'s elements from `start` on, element i at start + i:
/// one run of a merge, as mergePathSplit reads it.
static auto readFrom(Value array, Value start) {
  return [array, start](ImplicitLocOpBuilder &b, Value i) {
    return dsl::index(b, array, arith::AddIOp::create(b, start, i));
  };
}

/// Where this block's tile lies in the merge of the `source` of
/// `length` elements whose runs are as long as the one-element `runArg`
/// says, so that the block merges only its pair of runs.
MergeSortPlan::MergeRuns MergeSortPlan::locateMergeRuns(ImplicitLocOpBuilder &b,
                                                        Value source,
                                                        Value runArg) {
  uint64_t tile = tiling.tile;
  // Where the block's tile lies: in the pair of runs [pairStart,
  // pairStart + 2 * run), A then B, both cut at the end.
  Value length = ExtentOp::create(b, source);
  Value run = arith::IndexCastUIOp::create(
      b, b.getIndexType(), dsl::index(b, runArg, constantIndex(b, 0)).front());
  Value tileStart =
      arith::MulIOp::create(b, BlockIdOp::create(b), constantIndex(b, tile));
  Value pair = arith::AddIOp::create(b, run, run);
  Value pairStart = arith::MulIOp::create(
      b, arith::DivUIOp::create(b, tileStart, pair), pair);
  Value aLength = arith::MinUIOp::create(
      b, run, arith::SubIOp::create(b, length, pairStart));
  Value bStart = arith::AddIOp::create(b, pairStart, aLength);
  Value bLength =
      arith::MinUIOp::create(b, run, arith::SubIOp::create(b, length, bStart));
  Value first = arith::SubIOp::create(b, tileStart, pairStart);
  Value last = arith::MinUIOp::create(
      b, arith::AddIOp::create(b, first, constantIndex(b, tile)),
      arith::AddIOp::create(b, aLength, bLength));
  return {pairStart, aLength, bStart, bLength, first, last};
}

/// The merge path's crossings of the tile's first and last diagonals, as
/// two i64s synced for the block: they bound the tile's shares of A and B,
/// so that the block loads only what it merges.
Value MergeSortPlan::findTileSplits(ImplicitLocOpBuilder &b, Value source,
                                    const MergeRuns &runs) {
  Type i64 = b.getI64Type();
  auto lessFn = [this](ImplicitLocOpBuilder &b, ValueRange x, ValueRange y) {
    return less(b, x, y);
  };
  // The merge path's crossings of the tile's first and last
  // diagonals: how much of A comes before the tile, and before its
  // end. Runs are shorter than 2^31.
  return syncStrided(
      b,
      dsl::generate(b, ArrType::get(2, i64),
                    [&](ImplicitLocOpBuilder &b, Value k) {
                      Value isFirst = arith::CmpIOp::create(
                          b, arith::CmpIPredicate::eq, k, constantIndex(b, 0));
                      Value diagonal = arith::SelectOp::create(
                          b, isFirst, runs.first, runs.last);
                      Value split = mergePathSplit(
                          b, diagonal, runs.aLength, runs.bLength, /*steps=*/32,
                          readFrom(source, runs.pairStart),
                          readFrom(source, runs.bStart), lessFn);
                      return SmallVector<Value>{
                          arith::IndexCastUIOp::create(b, i64, split)};
                    }),
      tiling.threads);
}

/// The tile's window loaded into shared memory from the crossings in
/// `splits`: its share of A, then its share of B, then `zeros`, so that
/// the merge's searches and walks read only fast memory.
MergeSortPlan::MergeWindow
MergeSortPlan::loadMergeWindow(ImplicitLocOpBuilder &b, Value source,
                               const MergeRuns &runs, Value splits,
                               ValueRange zeros) {
  auto splitAt = [&](ImplicitLocOpBuilder &b, int64_t k) -> Value {
    return arith::IndexCastUIOp::create(
        b, b.getIndexType(),
        dsl::index(b, splits, constantIndex(b, k)).front());
  };
  // The tile's window: its share of A, then its share of B, in
  // shared memory; past them, zeros that nothing compares.
  // For a strict weak order the second crossing is at least the first
  // and at most `count` past it. A `less` that is not one (NaN under
  // `olt`) may cross anywhere: the clamps keep every read inside the
  // runs and the window whatever `less` says, and the order is then
  // unspecified.
  Value aFrom = splitAt(b, 0);
  Value count = arith::SubIOp::create(b, runs.last, runs.first);
  Value aShare = arith::MinUIOp::create(
      b,
      arith::SubIOp::create(b, arith::MaxUIOp::create(b, splitAt(b, 1), aFrom),
                            aFrom),
      count);
  Value bFrom = arith::SubIOp::create(b, runs.first, aFrom);
  Value bShare = arith::SubIOp::create(b, count, aShare);
  Value window = syncStrided(
      b,
      dsl::generate(
          b, tileType(tiling.tile),
          [&](ImplicitLocOpBuilder &b, Value i) -> SmallVector<Value> {
            Value inA =
                arith::CmpIOp::create(b, arith::CmpIPredicate::ult, i, aShare);
            Value inWindow =
                arith::CmpIOp::create(b, arith::CmpIPredicate::ult, i, count);
            auto fromA =
                scf::IfOp::create(b, scalars, inA, /*withElseRegion=*/true);
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(fromA.thenBlock());
            scf::YieldOp::create(
                b, dsl::index(
                       b, source,
                       arith::AddIOp::create(
                           b, arith::AddIOp::create(b, runs.pairStart, aFrom),
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
                        b, arith::AddIOp::create(b, runs.bStart, bFrom), j)));
            b.setInsertionPointToStart(fromB.elseBlock());
            scf::YieldOp::create(b, zeros);
            return SmallVector<Value>(fromA.getResults());
          }),
      tiling.threads);
  return {window, aShare, bShare, count};
}

/// The window's merge path crossed at every kMergeStride-th diagonal, as
/// i32s synced for the block: where each element's walk starts, so that
/// no walk is longer than kMergeStride steps.
Value MergeSortPlan::crossMergeWindow(ImplicitLocOpBuilder &b,
                                      const MergeWindow &w, Value zero,
                                      Value stride) {
  uint64_t tile = tiling.tile;
  // The window's merge path crossed at every kMergeStride-th
  // diagonal (as CUB's threads find where their items start), by a
  // binary search each.
  Type i32 = b.getI32Type();
  return syncStrided(
      b,
      dsl::generate(
          b, ArrType::get(std::max<uint64_t>(1, tile / kMergeStride), i32),
          [&](ImplicitLocOpBuilder &b, Value d) {
            Value diagonal = arith::MinUIOp::create(
                b, arith::MulIOp::create(b, d, stride), w.count);
            Value crossing = crossRuns(b, w.pair(zero), diagonal,
                                       /*steps=*/llvm::Log2_64(tile) + 1);
            return SmallVector<Value>{indexToI32(b, crossing)};
          }),
      tiling.threads);
}

Value MergeSortPlan::crossRuns(ImplicitLocOpBuilder &b, const MergePair &p,
                               Value diagonal, unsigned steps) {
  auto lessFn = [this](ImplicitLocOpBuilder &b, ValueRange x, ValueRange y) {
    return less(b, x, y);
  };
  return mergePathSplit(b, diagonal, p.aLength, p.bLength, steps,
                        readFrom(p.array, p.aStart),
                        readFrom(p.array, p.bStart), lessFn);
}

/// Whether the merge of `p` takes A's element `a` next rather than B's
/// element `j`: the one step of the merge's walk.
Value MergeSortPlan::takesFromA(ImplicitLocOpBuilder &b, const MergePair &p,
                                Value a, Value j) {
  // Whether the merge takes A's next element at (a, j): unless A is
  // spent, or B's next is less (A's first on a tie: stable).
  Value aLeft =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, a, p.aLength);
  Value bLeft =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, j, p.bLength);
  auto takeA = scf::IfOp::create(b, b.getI1Type(),
                                 arith::AndIOp::create(b, aLeft, bLeft),
                                 /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(takeA.thenBlock());
  Value bLess = less(b, readFrom(p.array, p.bStart)(b, j),
                     readFrom(p.array, p.aStart)(b, a));
  scf::YieldOp::create(
      b, ValueRange{arith::XOrIOp::create(
             b, bLess, arith::ConstantIntOp::create(b, 1, /*width=*/1))});
  b.setInsertionPointToStart(takeA.elseBlock());
  scf::YieldOp::create(b, ValueRange{aLeft});
  return takeA.getResult(0);
}

SmallVector<Value> MergeSortPlan::walkMerge(ImplicitLocOpBuilder &b,
                                            const MergePair &p, Value start,
                                            Value crossing, Value steps) {
  Value zero = constantIndex(b, 0), one = constantIndex(b, 1);
  Value j0 = arith::SubIOp::create(b, start, crossing);
  auto walk = scf::ForOp::create(b, zero, steps, one, ValueRange{crossing, j0});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(walk.getBody());
    Value a = walk.getRegionIterArg(0), j = walk.getRegionIterArg(1);
    Value takeA = takesFromA(b, p, a, j);
    Value stepA = arith::SelectOp::create(b, takeA, one, zero);
    scf::YieldOp::create(
        b, ValueRange{arith::AddIOp::create(b, a, stepA),
                      arith::AddIOp::create(
                          b, j, arith::SubIOp::create(b, one, stepA))});
  }
  Value a = walk.getResult(0), j = walk.getResult(1);
  auto pick = scf::IfOp::create(b, scalars, takesFromA(b, p, a, j),
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(pick.thenBlock());
  scf::YieldOp::create(b, readFrom(p.array, p.aStart)(b, a));
  b.setInsertionPointToStart(pick.elseBlock());
  scf::YieldOp::create(b, readFrom(p.array, p.bStart)(b, j));
  return SmallVector<Value>(pick.getResults());
}

/// The merge kernel's body, from its arguments (the whole source and the
/// one-element run length) to its tile of the merge: the runs located,
/// the tile's window loaded, crossed, and walked.
SmallVector<Value> MergeSortPlan::buildMergeBody(ImplicitLocOpBuilder &b,
                                                 ValueRange args) {
  Value source = args[0];
  MergeRuns runs = locateMergeRuns(b, source, args[1]);
  Value splits = findTileSplits(b, source, runs);
  SmallVector<Value> zeros = zeroScalars(b);
  MergeWindow w = loadMergeWindow(b, source, runs, splits, zeros);
  Value zero = constantIndex(b, 0);
  Value stride = constantIndex(b, kMergeStride);
  Value crossings = crossMergeWindow(b, w, zero, stride);
  // Element q: from the crossing at the diagonal before it, the merge
  // walked q mod kMergeStride steps; zeros past the window's `count`.
  return SmallVector<Value>{dsl::generate(
      b, tileType(tiling.tile),
      [&](ImplicitLocOpBuilder &b, Value q) -> SmallVector<Value> {
        Value inWindow =
            arith::CmpIOp::create(b, arith::CmpIPredicate::ult, q, w.count);
        auto merged =
            scf::IfOp::create(b, scalars, inWindow, /*withElseRegion=*/true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(merged.elseBlock());
        scf::YieldOp::create(b, zeros);
        b.setInsertionPointToStart(merged.thenBlock());
        Value d = arith::DivUIOp::create(b, q, stride);
        Value start = arith::MulIOp::create(b, d, stride);
        Value crossing = i32ToIndex(b, dsl::index(b, crossings, d).front());
        scf::YieldOp::create(b, walkMerge(b, w.pair(zero), start, crossing,
                                          arith::SubIOp::create(b, q, start)));
        return SmallVector<Value>(merged.getResults());
      })};
}

KernelOp MergeSortPlan::getMergeKernel() {
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
        return buildMergeBody(b, args);
      });
  // The source is read where the searches find, in every block.
  markGlobalArgument(mergeKernel, 0);
  return mergeKernel;
}

void MergeSortPlan::expand(DeviceSortOp sort) {
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

void mlir::obs::populateMergeSortExpansionPatterns(
    RewritePatternSet &patterns, const DeviceExpansionOptions &options) {
  patterns.add<ExpandMergeSort>(patterns.getContext(), options);
}
