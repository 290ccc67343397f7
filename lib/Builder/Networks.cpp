//===- Networks.cpp - scan, sort and reduce networks from combinators -----===//
//
// Each network is written the way the papers write it, as a recursion on
// halves or a loop over stages, with the combinator functions. The comment
// above each is its Haskell (or its definition, for networks the papers do
// not give).
//
//===----------------------------------------------------------------------===//

#include "Obs/Builder/Networks.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::dsl;

static Value indexConstant(ImplicitLocOpBuilder &b, int64_t value) {
  return arith::ConstantIndexOp::create(b, value);
}

/// `condition ? then() : otherwise`, for a flattened element of `types`:
/// an scf.if, so that `then` is computed only where it is taken (it may
/// index outside the array where it is not).
static SmallVector<Value>
selectElement(ImplicitLocOpBuilder &b, TypeRange types, Value condition,
              llvm::function_ref<SmallVector<Value>()> then,
              ValueRange otherwise) {
  auto choice = scf::IfOp::create(b, types, condition,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(choice.thenBlock());
  scf::YieldOp::create(b, then());
  b.setInsertionPointToStart(choice.elseBlock());
  scf::YieldOp::create(b, otherwise);
  return SmallVector<Value>(choice.getResults());
}

/// `condition ? then() : otherwise` as arith.select where `then` builds
/// only speculatable arithmetic (a combine of integers, say: computed in
/// every thread and chosen after, so that no branch is left for the
/// backend to duplicate); as selectElement's scf.if where it reads an
/// array (the index may be out of bounds where the condition fails) or
/// may trap (a division).
static SmallVector<Value>
selectSpeculated(ImplicitLocOpBuilder &b, TypeRange types, Value condition,
                 llvm::function_ref<SmallVector<Value>()> then,
                 ValueRange otherwise) {
  SmallVector<Value> chosen =
      selectElement(b, types, condition, then, otherwise);
  auto choice = chosen.front().getDefiningOp<scf::IfOp>();
  Block *thenBlock = choice.thenBlock();
  if (!llvm::all_of(thenBlock->without_terminator(), [](Operation &op) {
        return op.getNumRegions() == 0 && isPure(&op) &&
               !isa_and_present<ObsDialect>(op.getDialect());
      }))
    return chosen;
  for (Operation &op :
       llvm::make_early_inc_range(thenBlock->without_terminator()))
    op.moveBefore(choice);
  SmallVector<Value> selected;
  for (auto [taken, kept] :
       llvm::zip_equal(thenBlock->getTerminator()->getOperands(), otherwise))
    selected.push_back(arith::SelectOp::create(b, condition, taken, kept));
  choice.erase();
  return selected;
}

/// Which of the two elements of an update comes first in the combine.
enum class UpdateOrder { FromFirst, OwnFirst };

/// Where an update stage reads the element it takes in: only where it
/// updates (in the branch), or in every element, before the branch, its
/// own where it does not update (as a shfl.sync.up gives a lane that has
/// no source its own value), so that every thread of a warp reads
/// together and the read can be a shuffle.
enum class UpdateRead { InBranch, Everywhere };

/// A stage in which element i becomes `combine(x[from(i)], x[i])` (or
/// `combine(x[i], x[from(i)])`) where `updates(i)` holds and stays x[i]
/// elsewhere; the update is an scf.if, so the lowering drops the elements a
/// thread leaves unchanged. Read everywhere, element i reads x[from(i)]
/// where `readsFrom(i)` holds (by default where it updates; it must hold
/// there), its own element elsewhere.
static Value updateStage(ImplicitLocOpBuilder &b, Value array, BinaryFn combine,
                         llvm::function_ref<Value(Value)> updates,
                         llvm::function_ref<Value(Value)> from,
                         UpdateOrder order = UpdateOrder::FromFirst,
                         UpdateRead read = UpdateRead::InBranch,
                         llvm::function_ref<Value(Value)> readsFrom = nullptr) {
  ArrType type = arrType(array);
  SmallVector<Type> types;
  flattenElementType(type.getElementType(), types);
  return generate(b, type, [&](ImplicitLocOpBuilder &b, Value i) {
    SmallVector<Value> own = index(b, array, i);
    Value updating = updates(i);
    SmallVector<Value> everywhere;
    if (read == UpdateRead::Everywhere)
      everywhere =
          index(b, array,
                arith::SelectOp::create(b, readsFrom ? readsFrom(i) : updating,
                                        from(i), i));
    return selectElement(
        b, types, updating,
        [&] {
          SmallVector<Value> other = read == UpdateRead::Everywhere
                                         ? everywhere
                                         : index(b, array, from(i));
          return order == UpdateOrder::FromFirst ? combine(b, other, own)
                                                 : combine(b, own, other);
        },
        own);
  });
}

/// The same, combining x[i - distance] into x[i].
static Value updateStage(ImplicitLocOpBuilder &b, Value array,
                         uint64_t distance, BinaryFn combine,
                         llvm::function_ref<Value(Value)> updates,
                         UpdateRead read = UpdateRead::InBranch) {
  return updateStage(
      b, array, combine, updates,
      [&](Value i) -> Value {
        Value d = indexConstant(b, distance);
        // Read everywhere, the index is computed where i < d too (and
        // then not used): max(i, d) - d is i - d where it is used, and
        // never negative, so that the integer range analysis still bounds
        // the indices within 32 bits (obs-gpu-index-width).
        if (read == UpdateRead::Everywhere)
          i = arith::MaxUIOp::create(b, i, d);
        return arith::SubIOp::create(b, i, d);
      },
      UpdateOrder::FromFirst, read);
}

/// `(i & mask) == value`.
static Value maskedEquals(ImplicitLocOpBuilder &b, Value i, uint64_t mask,
                          uint64_t value) {
  Value masked = arith::AndIOp::create(b, i, indexConstant(b, mask));
  return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, masked,
                               indexConstant(b, value));
}

//===----------------------------------------------------------------------===//
// Scans
//===----------------------------------------------------------------------===//

// sklansky 0 op = pure id
// sklansky n op = two (sklansky (n-1) op) ->- pure (fan op) ->- sync
//
// For a length that is not a power of two, the same network by stages: at
// distance d = 1, 2, 4, ..., element i with bit d set takes the last
// element of the left half of its block of 2d, (i & ~(2d-1)) + d - 1.
Value dsl::sklansky(ImplicitLocOpBuilder &b, Value array, BinaryFn combine) {
  uint64_t n = length(array);
  if (n == 1)
    return array;
  if (!llvm::has_single_bit(n)) {
    for (uint64_t distance = 1; distance < n; distance *= 2)
      array = sync(b, updateStage(
                          b, array, combine,
                          [&](Value i) {
                            return maskedEquals(b, i, distance, distance);
                          },
                          [&](Value i) {
                            Value start = arith::AndIOp::create(
                                b, i, indexConstant(b, ~(2 * distance - 1)));
                            return arith::AddIOp::create(
                                b, start, indexConstant(b, distance - 1));
                          }));
    return array;
  }
  Value halves = two(b, array, [&](ImplicitLocOpBuilder &b, Value half) {
    return sklansky(b, half, combine);
  });
  return sync(b, fan(b, halves, combine));
}

// for s = 1, 2, 4, ..., N/2:  x[i] = i >= s ? x[i-s] op x[i] : x[i]; sync
Value dsl::koggeStone(ImplicitLocOpBuilder &b, Value array, BinaryFn combine) {
  for (uint64_t distance = 1; distance < length(array); distance *= 2)
    array = sync(b, updateStage(b, array, distance, combine, [&](Value i) {
                   return arith::CmpIOp::create(b, arith::CmpIPredicate::uge, i,
                                                indexConstant(b, distance));
                 }));
  return array;
}

// up:   for s = 1, 2, ..., N/2:  x[i] = x[i-s] op x[i] where i+1 = 0 mod 2s
// down: for s = N/4, ..., 1:     x[i] = x[i-s] op x[i] where i+1 = s mod 2s
//                                                      and i+1 > 2s
// (N rounded up to a power of two: the stages of a shorter array are those
// of the longer one on its first elements.)
Value dsl::brentKung(ImplicitLocOpBuilder &b, Value array, BinaryFn combine) {
  uint64_t n = length(array);
  for (uint64_t distance = 1; distance < n; distance *= 2)
    array = sync(b, updateStage(b, array, distance, combine, [&](Value i) {
                   uint64_t span = 2 * distance;
                   return maskedEquals(b, i, span - 1, span - 1);
                 }));
  for (uint64_t distance = llvm::bit_ceil(n) / 4; distance >= 1; distance /= 2)
    array = sync(b, updateStage(b, array, distance, combine, [&](Value i) {
                   uint64_t span = 2 * distance;
                   Value aligned = maskedEquals(b, i, span - 1, distance - 1);
                   Value late = arith::CmpIOp::create(
                       b, arith::CmpIPredicate::uge, i,
                       indexConstant(b, 3 * distance - 1));
                   return arith::AndIOp::create(b, aligned, late);
                 }));
  return array;
}

//===----------------------------------------------------------------------===//
// Sorts
//===----------------------------------------------------------------------===//

// tau = unriffle ->>- one rev
// merger = repE k (riffle ->>- evens (cmpSwap (<*)) ->- sync)
// sorter = repE k (tau ->>- merger)          where k = log2 N
Value dsl::periodicSort(ImplicitLocOpBuilder &b, Value array, BinaryFn less) {
  uint64_t n = length(array);
  if (n == 1)
    return array;
  uint64_t k = llvm::Log2_64(n);
  auto cmpSwap = [&](ImplicitLocOpBuilder &b, ValueRange x, ValueRange y) {
    return compareSwap(b, less, x, y);
  };
  return repeat(b, k, array, [&](ImplicitLocOpBuilder &b, Value a) {
    Value unriffled = sync(b, unriffle(b, a));
    Value tau =
        sync(b, one(b, unriffled, [&](ImplicitLocOpBuilder &b, Value half) {
               return rev(b, half);
             }));
    return repeat(b, k, tau, [&](ImplicitLocOpBuilder &b, Value c) {
      Value riffled = sync(b, riffle(b, c));
      return sync(b, evens(b, riffled, cmpSwap));
    });
  });
}

// mergeOE 1 cmp = pure (evens cmp)
// mergeOE n cmp = ilv (mergeOE (n-1) cmp) ->- sync ->- pure (odds cmp)
Value dsl::oddEvenMerge(ImplicitLocOpBuilder &b, Value array, BinaryFn less) {
  auto cmpSwap = [&](ImplicitLocOpBuilder &b, ValueRange x, ValueRange y) {
    return compareSwap(b, less, x, y);
  };
  if (length(array) == 2)
    return evens(b, array, cmpSwap);
  Value merged =
      sync(b, ilv(b, array, [&](ImplicitLocOpBuilder &b, Value part) {
             return oddEvenMerge(b, part, less);
           }));
  return odds(b, merged, cmpSwap);
}

// sortOE 0 = pure id
// sortOE n = two (sortOE (n-1)) ->- sync ->- mergeOE n cmp
Value dsl::oddEvenMergeSort(ImplicitLocOpBuilder &b, Value array,
                            BinaryFn less) {
  if (length(array) == 1)
    return array;
  Value sorted =
      sync(b, two(b, array, [&](ImplicitLocOpBuilder &b, Value half) {
             return oddEvenMergeSort(b, half, less);
           }));
  return oddEvenMerge(b, sorted, less);
}

// halfClean = riffle ->- evens cmpSwap ->- unriffle    (x[i] vs x[i + N/2])
// bmerge 1 = pure id
// bmerge 2 = halfClean
// bmerge n = halfClean ->- sync ->- two (bmerge (n-1))
Value dsl::bitonicMerge(ImplicitLocOpBuilder &b, Value array, BinaryFn less) {
  uint64_t n = length(array);
  if (n == 1)
    return array;
  auto cmpSwap = [&](ImplicitLocOpBuilder &b, ValueRange x, ValueRange y) {
    return compareSwap(b, less, x, y);
  };
  Value cleaned = unriffle(b, evens(b, riffle(b, array), cmpSwap));
  if (n == 2)
    return cleaned;
  return two(b, sync(b, cleaned), [&](ImplicitLocOpBuilder &b, Value half) {
    return bitonicMerge(b, half, less);
  });
}

// bsort 0 = pure id
// bsort n = two (bsort (n-1)) ->- sync ->- one rev ->- bmerge n
// (no sync after halves of one element, which are sorted as they come)
Value dsl::bitonicSort(ImplicitLocOpBuilder &b, Value array, BinaryFn less) {
  uint64_t n = length(array);
  if (n == 1)
    return array;
  Value sortedHalves = array;
  if (n > 2)
    sortedHalves =
        sync(b, two(b, array, [&](ImplicitLocOpBuilder &b, Value half) {
               return bitonicSort(b, half, less);
             }));
  Value bitonic =
      one(b, sortedHalves,
          [&](ImplicitLocOpBuilder &b, Value half) { return rev(b, half); });
  return bitonicMerge(b, bitonic, less);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// while n > 1:  x'[j] = 2j+1 < n ? x[2j] op x[2j+1] : x[2j];  sync
SmallVector<Value> dsl::treeReduce(ImplicitLocOpBuilder &b, Value array,
                                   BinaryFn combine) {
  ArrType type = arrType(array);
  SmallVector<Type> types;
  flattenElementType(type.getElementType(), types);
  for (uint64_t n = length(array); n > 1; n = (n + 1) / 2) {
    Value level = array;
    array = sync(
        b, generate(b, type.withLength((n + 1) / 2),
                    [&](ImplicitLocOpBuilder &b, Value j) {
                      Value left =
                          arith::MulIOp::create(b, j, indexConstant(b, 2));
                      Value right =
                          arith::AddIOp::create(b, left, indexConstant(b, 1));
                      auto pairs = [&]() {
                        return combine(b, index(b, level, left),
                                       index(b, level, right));
                      };
                      if (n % 2 == 0)
                        return pairs();
                      // The odd last element moves up.
                      Value paired =
                          arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                                right, indexConstant(b, n));
                      return selectElement(b, types, paired, pairs,
                                           index(b, level, left));
                    }));
  }
  return index(b, array, indexConstant(b, 0));
}

//===----------------------------------------------------------------------===//
// Serial: each thread's run in sequence, then warps, then the block
//===----------------------------------------------------------------------===//

/// The lanes of a warp, within which the serial networks' middle level
/// stays (so that its syncs need only order a warp).
static constexpr uint64_t kWarpLanes = KernelOp::kWarpSize;

namespace {
/// The threads' runs of a serial network: `run` consecutive elements each,
/// `count` runs in all (the last may be shorter). Runs of more than one
/// element have their totals in a stage of their own, `padded` to one per
/// thread where there are fewer runs than threads (the padding is never
/// taken in), so that every lane works in the warps' steps and they can be
/// shuffles.
struct Runs {
  Runs(uint64_t length, uint64_t threads)
      : run(getSerialRunLength(length, threads)),
        count(llvm::divideCeil(length, run)),
        padded(run > 1 ? std::max(threads, count) : count) {}
  uint64_t run, count, padded;
};
} // namespace

/// `array` synced so that thread t computes the run t*run .. t*run+run-1:
/// written, as the network's schedule (the thread that scanned a run in
/// sequence keeps it in its registers); unwritten for runs of one.
static Value syncRuns(ImplicitLocOpBuilder &b, Value array, uint64_t run) {
  if (run == 1)
    return sync(b, array);
  return SyncOp::create(b, array.getType(), array, SyncScopeAttr(),
                        PlacementAttr(), BlockedAttr::get(b.getContext(), run),
                        StorageAttr(), SyncPlanAttr());
}

/// `min(value, bound)`, or `value` where `exact` says it never exceeds it.
static Value clampIndex(ImplicitLocOpBuilder &b, Value value, uint64_t bound,
                        bool exact) {
  if (exact)
    return value;
  return arith::MinUIOp::create(b, value, indexConstant(b, bound));
}

/// Element `offset` of each group of `group` consecutive elements of
/// `array`; the last group may be shorter, and gives its last element
/// where it has no element `offset`. With `padded` more than the groups,
/// the array has that many elements, the ones past the groups the
/// array's last element.
static Value elementOfEachGroup(ImplicitLocOpBuilder &b, Value array,
                                uint64_t group, uint64_t offset,
                                uint64_t padded = 0) {
  uint64_t n = length(array);
  uint64_t groups = std::max(llvm::divideCeil(n, group), padded);
  bool inside = (groups - 1) * group + offset < n;
  return generate(b, arrType(array).withLength(groups),
                  [&](ImplicitLocOpBuilder &b, Value g) {
                    Value at = arith::AddIOp::create(
                        b, arith::MulIOp::create(b, g, indexConstant(b, group)),
                        indexConstant(b, offset));
                    return index(b, array, clampIndex(b, at, n - 1, inside));
                  });
}

/// Each aligned segment of `segment` elements (a power of two) scanned by
/// Kogge-Stone: at distance d, element i with `i mod segment >= d` takes in
/// element i - d. Every element reads, so that the reads of a warp's
/// segment can be shuffles.
static Value segmentedKoggeStone(ImplicitLocOpBuilder &b, Value array,
                                 uint64_t segment, BinaryFn combine) {
  uint64_t end = std::min(segment, length(array));
  for (uint64_t distance = 1; distance < end; distance *= 2)
    array = sync(
        b, updateStage(
               b, array, distance, combine,
               [&](Value i) {
                 Value lane =
                     arith::AndIOp::create(b, i, indexConstant(b, segment - 1));
                 return arith::CmpIOp::create(b, arith::CmpIPredicate::uge,
                                              lane, indexConstant(b, distance));
               },
               UpdateRead::Everywhere));
  return array;
}

/// Each aligned segment's total in its first element, as a warp's
/// shuffle-down reduction computes it: at distance d, element i takes in
/// element i + d where that lies in i's segment and among the first
/// `count` elements (those past them are padding, never taken in). Every
/// element reads, element i + d wherever that lies in its segment and in
/// the array (its own elsewhere), as shfl.sync.down gives, so that the
/// reads of a warp's segment can be shuffles.
static Value segmentedFold(ImplicitLocOpBuilder &b, Value array,
                           uint64_t segment, BinaryFn combine, uint64_t count) {
  uint64_t n = length(array);
  uint64_t end = std::min(segment, count);
  for (uint64_t distance = 1; distance < end; distance *= 2) {
    auto below = [&](Value i, uint64_t bound) -> Value {
      return arith::CmpIOp::create(
          b, arith::CmpIPredicate::ult,
          arith::AddIOp::create(b, i, indexConstant(b, distance)),
          indexConstant(b, bound));
    };
    auto inSegment = [&](Value i) -> Value {
      Value lane = arith::AndIOp::create(b, i, indexConstant(b, segment - 1));
      return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, lane,
                                   indexConstant(b, segment - distance));
    };
    // Within the first `bound` elements and i's segment; the segment test
    // is needed only where the elements span more than one segment, the
    // bound only where it cuts a segment.
    auto inside = [&](Value i, uint64_t bound) -> Value {
      if (bound <= segment)
        return below(i, bound);
      if (bound % segment == 0)
        return inSegment(i);
      return arith::AndIOp::create(b, inSegment(i), below(i, bound));
    };
    array = sync(
        b, updateStage(
               b, array, combine, [&](Value i) { return inside(i, count); },
               [&](Value i) -> Value {
                 return arith::AddIOp::create(b, i, indexConstant(b, distance));
               },
               UpdateOrder::OwnFirst, UpdateRead::Everywhere,
               [&](Value i) { return inside(i, n); }));
  }
  return array;
}

/// Each aligned segment of `segment` elements (a power of two dividing the
/// array's length) folded by butterflies: at distance d, element i becomes
/// `combine(x[i], x[i xor d])`. The segment's first element takes in the
/// elements after it in order, so it ends as the fold of its segment that
/// segmentedFold leaves there, bit for bit and for any associative combine;
/// with a commutative one every element of the segment ends so. No element
/// is left out, so a warp's stages need no lane test, and a warp's fold of
/// an integer add, min, max, and, or or xor is one redux.sync on sm_80 and
/// newer (obs-nvvm-warp-reductions).
static Value butterflyFold(ImplicitLocOpBuilder &b, Value array,
                           uint64_t segment, BinaryFn combine) {
  ArrType type = arrType(array);
  for (uint64_t distance = 1; distance < segment; distance *= 2)
    array = sync(b, generate(b, type, [&](ImplicitLocOpBuilder &b, Value i) {
                   SmallVector<Value> own = index(b, array, i);
                   Value partner =
                       arith::XOrIOp::create(b, i, indexConstant(b, distance));
                   return combine(b, own, index(b, array, partner));
                 }));
  return array;
}

/// `start` with the elements `from` .. `end` - 1 of `array` folded in, left
/// to right, in a loop (element code).
static SmallVector<Value> foldRange(ImplicitLocOpBuilder &b, Value array,
                                    ValueRange start, Value from, Value end,
                                    BinaryFn combine) {
  auto fold = scf::ForOp::create(
      b, from, end, indexConstant(b, 1), start,
      [&](OpBuilder &nested, Location loc, Value j, ValueRange sofar) {
        ImplicitLocOpBuilder body(loc, nested);
        scf::YieldOp::create(body, combine(body, sofar, index(body, array, j)));
      });
  return SmallVector<Value>(fold.getResults());
}

/// One stage of one element per run (padded to one per thread): each
/// run's left fold over its elements `begin` .. `end` - 1 (offsets in the
/// run; the last run's clamped to the array, a padded run's empty),
/// continuing from `before`'s element (a stage like this one) or, without
/// it, from the run's first element. From 0 to the run's length, the runs'
/// totals as seqReduce computes them and the reference target follows (a
/// padded run's: the empty fold of the array's last element).
static Value foldRunsFrom(ImplicitLocOpBuilder &b, Value array,
                          const Runs &runs, BinaryFn combine, Value before,
                          uint64_t begin, uint64_t end) {
  uint64_t n = length(array);
  bool padded = runs.padded > runs.count;
  return sync(
      b,
      generate(
          b, arrType(array).withLength(runs.padded),
          [&](ImplicitLocOpBuilder &b, Value r) -> SmallVector<Value> {
            Value first =
                arith::MulIOp::create(b, r, indexConstant(b, runs.run));
            // One op after the other (not as arguments, whose order of
            // evaluation C++ leaves open).
            Value stop = arith::AddIOp::create(b, first, indexConstant(b, end));
            if (n % runs.run != 0 || padded)
              stop = arith::MinUIOp::create(b, stop, indexConstant(b, n));
            if (before) {
              Value from =
                  arith::AddIOp::create(b, first, indexConstant(b, begin));
              SmallVector<Value> start = index(b, before, r);
              return foldRange(b, array, start, from, stop, combine);
            }
            if (padded)
              first = arith::MinUIOp::create(b, first, indexConstant(b, n - 1));
            Value next = arith::AddIOp::create(b, first, indexConstant(b, 1));
            SmallVector<Value> start = index(b, array, first);
            return foldRange(b, array, start, next, stop, combine);
          }));
}

/// The serial scan's middle level, from `totals`, the runs' totals (one
/// element per run, padded to one per thread for runs of more than one):
/// scanned by Kogge-Stone within each warp, and what comes before each
/// warp (below). For runs of more than one element, returns each run's
/// prefix, what comes before the run (the first run's is never used); for
/// runs of one, where each run is its own total, the scan itself.
static Value scanRunTotals(ImplicitLocOpBuilder &b, Value totals,
                           const Runs &runs, BinaryFn combine) {
  ArrType type = arrType(totals);
  SmallVector<Type> types;
  flattenElementType(type.getElementType(), types);
  totals = segmentedKoggeStone(b, totals, kWarpLanes, combine);
  uint64_t warps = llvm::divideCeil(runs.count, kWarpLanes);
  // Runs of one element: the warps' scans are the answer where there is
  // one warp.
  if (runs.run == 1 && warps == 1)
    return totals;

  // More than 32 warps (a sub-program's or an element's runs of one):
  // their totals are scanned the same way, one level up.
  Value warpTotals;
  if (warps > kWarpLanes)
    warpTotals = dsl::serialScan(
        b, elementOfEachGroup(b, totals, kWarpLanes, kWarpLanes - 1), combine,
        /*threads=*/warps);
  Value zero = indexConstant(b, 0), one = indexConstant(b, 1);
  auto warpOf = [&](ImplicitLocOpBuilder &b, Value r) -> Value {
    return arith::DivUIOp::create(b, r, indexConstant(b, kWarpLanes));
  };
  // The fold of the totals of the warps before `warp`, read and folded in
  // every thread (where `warp` is 0, of warp 0's total: not used), with
  // no branch.
  auto beforeWarp = [&](ImplicitLocOpBuilder &b,
                        Value warp) -> SmallVector<Value> {
    if (warpTotals)
      return index(
          b, warpTotals,
          arith::SubIOp::create(b, arith::MaxUIOp::create(b, warp, one), one));
    auto warpTotal = [&](uint64_t u) {
      return index(b, totals,
                   indexConstant(b, u * kWarpLanes + kWarpLanes - 1));
    };
    SmallVector<Value> folded = warpTotal(0);
    for (uint64_t u = 1; u + 1 < warps; ++u) {
      SmallVector<Value> next = warpTotal(u);
      folded = selectSpeculated(
          b, types,
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                indexConstant(b, u), warp),
          [&] { return combine(b, folded, next); }, folded);
    }
    return folded;
  };
  auto hasWarpBefore = [&](ImplicitLocOpBuilder &b, Value warp) -> Value {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ne, warp, zero);
  };

  if (runs.run == 1) {
    Value result = generate(b, type, [&](ImplicitLocOpBuilder &b, Value r) {
      SmallVector<Value> element = index(b, totals, r);
      Value warp = warpOf(b, r);
      SmallVector<Value> earlier = beforeWarp(b, warp);
      return selectSpeculated(
          b, types, hasWarpBefore(b, warp),
          [&] { return combine(b, earlier, element); }, element);
    });
    return sync(b, result);
  }

  // Each run's prefix, computed once by the thread that scanned the run
  // (in its registers); the first run's is never used.
  return sync(
      b, generate(b, type, [&](ImplicitLocOpBuilder &b, Value r) {
        Value lane =
            arith::AndIOp::create(b, r, indexConstant(b, kWarpLanes - 1));
        Value hasLane =
            arith::CmpIOp::create(b, arith::CmpIPredicate::ne, lane, zero);
        // t[r-1], read in every thread (its own t[r] in a warp's first
        // lane, not used), so that within one warp it can be a shuffle;
        // max(r, 1) - 1 keeps the index's range non-negative.
        Value previous =
            arith::SubIOp::create(b, arith::MaxUIOp::create(b, r, one), one);
        SmallVector<Value> withinWarp =
            index(b, totals, arith::SelectOp::create(b, hasLane, previous, r));
        if (warps == 1)
          return withinWarp;
        Value warp = warpOf(b, r);
        SmallVector<Value> earlier = beforeWarp(b, warp);
        SmallVector<Value> withEarlier = selectSpeculated(
            b, types, hasLane, [&] { return combine(b, earlier, withinWarp); },
            earlier);
        return selectSpeculated(
            b, types, hasWarpBefore(b, warp), [&] { return withEarlier; },
            withinWarp);
      }));
}

/// Each element of `array` whose run is not the first combined with its
/// run's prefix: `out[i] = p[i / run] op element(i)`.
static Value withRunPrefixes(
    ImplicitLocOpBuilder &b, Value array, Value prefixes, uint64_t run,
    BinaryFn combine,
    llvm::function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, Value)>
        element) {
  ArrType type = arrType(array);
  SmallVector<Type> types;
  flattenElementType(type.getElementType(), types);
  return generate(b, type, [&](ImplicitLocOpBuilder &b, Value i) {
    SmallVector<Value> own = element(b, i);
    Value r = arith::DivUIOp::create(b, i, indexConstant(b, run));
    SmallVector<Value> prefix = index(b, prefixes, r);
    return selectSpeculated(
        b, types,
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne, r,
                              indexConstant(b, 0)),
        [&] { return combine(b, prefix, own); }, own);
  });
}

// run = ceil(N / T); each thread scans its run in sequence (seqScan):
//   for j = 1 .. run-1:  x[i] = i mod run == j ? x[i-1] op x[i] : x[i]
// the runs' totals t[r] = x[r*run + run-1] (a stage of their own, as the
// threads' registers hold them; x itself for runs of one), scanned within
// each warp. What comes before warp v is the fold of the warps' totals
// w[u] = t[32u + 31] for u < v, left to right, which every thread computes
// from them (as CUB's BlockScan does: one barrier, no stage of 8 threads);
// with more than 32 warps, the warps' totals are scanned one level up
// instead. Each run's prefix, once per thread:
//   p[r] = w-before(v) op t[r-1]   (t[r-1] where v = 0, w-before(v) where
//                                   r mod 32 = 0)
// and then out[i] = p[r] op x[i] for every r = i / run > 0 (for runs of
// one, out[r] = w-before(v) op t[r] where v > 0).
Value dsl::serialScan(ImplicitLocOpBuilder &b, Value array, BinaryFn combine,
                      uint64_t threads) {
  uint64_t n = length(array);
  if (n <= 1)
    return array;
  Runs runs(n, threads);
  Value scanned = array;
  for (uint64_t step = 1; step < runs.run; ++step)
    scanned = syncRuns(b,
                       updateStage(b, scanned, 1, combine,
                                   [&](Value i) {
                                     Value place = arith::RemUIOp::create(
                                         b, i, indexConstant(b, runs.run));
                                     return arith::CmpIOp::create(
                                         b, arith::CmpIPredicate::eq, place,
                                         indexConstant(b, step));
                                   }),
                       runs.run);
  if (runs.count == 1)
    return scanned;

  // Runs of more than one element: their totals are a stage of their own,
  // each thread writing its run's last element from its registers for
  // the warp's next stage to read across lanes (padded: the array's last
  // element).
  Value totals = scanned;
  if (runs.run > 1)
    totals = sync(
        b, elementOfEachGroup(b, scanned, runs.run, runs.run - 1, runs.padded));
  Value prefixes = scanRunTotals(b, totals, runs, combine);
  if (runs.run == 1)
    return prefixes;
  return syncRuns(b,
                  withRunPrefixes(b, scanned, prefixes, runs.run, combine,
                                  [&](ImplicitLocOpBuilder &b, Value i) {
                                    return index(b, scanned, i);
                                  }),
                  runs.run);
}

/// `arrays` concatenated as a balanced tree, so that an element is found in
/// log2 of the arrays' count comparisons.
static Value concatenateBalanced(ImplicitLocOpBuilder &b,
                                 SmallVector<Value> arrays) {
  while (arrays.size() > 1) {
    SmallVector<Value> level;
    for (size_t i = 0; i + 1 < arrays.size(); i += 2)
      level.push_back(conc(b, arrays[i], arrays[i + 1]));
    if (arrays.size() % 2)
      level.push_back(arrays.back());
    arrays = std::move(level);
  }
  return arrays.front();
}

// The serial scan's association without its run stages. Each run's left
// fold is kept at checkpoints, every `every` elements: stage k holds, for
// every run r (padded to one per thread), the fold of the run's first
// (k + 1) * every elements (the whole run in the last stage, the run's
// total t[r]), each continuing the fold from stage k - 1:
//   c_0[r] = x[r*run] op ... op x[r*run + every - 1]
//   c_k[r] = c_{k-1}[r] op x[r*run + k*every] op ... (within the run)
// Continuing a left fold from a value it reached is the same fold, so the
// order is serial's. The totals are scanned and turned into prefixes as
// serialScan does, and then, with j = (i - r*run) / every:
//   out[i] = p[r] op (c_{j-1}[r] op x[r*run + j*every] op ... op x[i])
// (from x[r*run] where j = 0), each element folding at most `every`.
Value dsl::serialScanFromCheckpoints(ImplicitLocOpBuilder &b, Value array,
                                     BinaryFn combine, uint64_t threads,
                                     uint64_t every) {
  uint64_t n = length(array);
  Runs runs(n, threads);
  // Without run stages, the two are one.
  if (runs.run == 1)
    return serialScan(b, array, combine, threads);
  every = std::min(every, runs.run);
  uint64_t stages = llvm::divideCeil(runs.run, every);
  ArrType type = arrType(array);
  SmallVector<Type> types;
  flattenElementType(type.getElementType(), types);
  Value zero = indexConstant(b, 0), one = indexConstant(b, 1);
  // One run (a chain, among one thread) takes in no prefix: its total, the
  // last checkpoint, is never read.
  bool oneRun = runs.count == 1;
  SmallVector<Value> checkpoints;
  for (uint64_t k = 0; k < (oneRun ? stages - 1 : stages); ++k)
    checkpoints.push_back(
        foldRunsFrom(b, array, runs, combine,
                     checkpoints.empty() ? Value() : checkpoints.back(),
                     k * every, std::min((k + 1) * every, runs.run)));
  // Every checkpoint but the totals, stage after stage, for an element to
  // continue from: c_k[r] at k * padded + r.
  Value kept;
  if (stages > 1)
    kept = concatenateBalanced(
        b,
        SmallVector<Value>(oneRun ? llvm::ArrayRef(checkpoints)
                                  : llvm::ArrayRef(checkpoints).drop_back()));
  auto upTo = [&](ImplicitLocOpBuilder &b, Value i) -> SmallVector<Value> {
    Value r = arith::DivUIOp::create(b, i, indexConstant(b, runs.run));
    Value first = arith::MulIOp::create(b, r, indexConstant(b, runs.run));
    Value end = arith::AddIOp::create(b, i, one);
    Value atFirst = arith::AddIOp::create(b, first, one);
    if (!kept) {
      SmallVector<Value> start = index(b, array, first);
      return foldRange(b, array, start, atFirst, end, combine);
    }
    Value offset = arith::SubIOp::create(b, i, first);
    Value j = arith::DivUIOp::create(b, offset, indexConstant(b, every));
    Value inFirst = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, j, zero);
    // c_{j-1}[r] after the first checkpoint (max(j, 1) - 1 keeps the
    // index in range), x[r*run] before it.
    Value previous =
        arith::SubIOp::create(b, arith::MaxUIOp::create(b, j, one), one);
    Value at = arith::AddIOp::create(
        b, arith::MulIOp::create(b, previous, indexConstant(b, runs.padded)),
        r);
    SmallVector<Value> start = selectElement(
        b, types, inFirst, [&] { return index(b, array, first); },
        index(b, kept, at));
    Value from = arith::SelectOp::create(
        b, inFirst, atFirst,
        arith::AddIOp::create(
            b, first, arith::MulIOp::create(b, j, indexConstant(b, every))));
    return foldRange(b, array, start, from, end, combine);
  };
  if (oneRun)
    return generate(b, type, upTo);
  Value prefixes = scanRunTotals(b, checkpoints.back(), runs, combine);
  return withRunPrefixes(b, array, prefixes, runs.run, combine, upTo);
}

// For block j (elements jB .. jB + count - 1), one stage of count elements:
//   y_j[k] = fold(start, x[from] .. x[jB + k])
// with start = x[0], from = 1 for the first block, and start = y_{j-1}[B-1],
// from = jB after it: the left fold's own order, each block from the one
// before. out = y_0 ++ y_1 ++ ..., concatenated as a balanced tree.
Value dsl::foldScanInBlocks(ImplicitLocOpBuilder &b, Value array,
                            BinaryFn combine, uint64_t block) {
  uint64_t n = length(array);
  ArrType type = arrType(array);
  SmallVector<Value> blocks;
  for (uint64_t first = 0; first < n; first += block) {
    Value before = blocks.empty() ? Value() : blocks.back();
    uint64_t count = std::min(block, n - first);
    blocks.push_back(sync(
        b, generate(b, type.withLength(count),
                    [&](ImplicitLocOpBuilder &b, Value k) {
                      SmallVector<Value> start =
                          before ? index(b, before, indexConstant(b, block - 1))
                                 : index(b, array, indexConstant(b, 0));
                      Value from = indexConstant(b, before ? first : 1);
                      Value end = arith::AddIOp::create(
                          b, k, indexConstant(b, first + 1));
                      return foldRange(b, array, start, from, end, combine);
                    })));
  }
  return concatenateBalanced(b, std::move(blocks));
}

// For each block j but the last, one stage of one element, its last
// element of the left fold:
//   e_j = fold(start, x[from] .. x[jB + B - 1])
// with start = x[0], from = 1 for the first block, and start = e_{j-1},
// from = jB after it. Then, not a stage, each element from its block's
// start: out[i] = fold(start, x[from] .. x[i]) for j = i / B.
Value dsl::foldScanFromBlockEnds(ImplicitLocOpBuilder &b, Value array,
                                 BinaryFn combine, uint64_t block) {
  uint64_t n = length(array);
  ArrType type = arrType(array);
  Value zero = indexConstant(b, 0), one = indexConstant(b, 1);
  SmallVector<Value> ends;
  for (uint64_t first = 0; first + block < n; first += block) {
    Value before = ends.empty() ? Value() : ends.back();
    ends.push_back(sync(
        b, generate(b, type.withLength(1), [&](ImplicitLocOpBuilder &b, Value) {
          SmallVector<Value> start =
              before ? index(b, before, zero) : index(b, array, zero);
          Value from = indexConstant(b, before ? first : 1);
          return foldRange(b, array, start, from,
                           indexConstant(b, first + block), combine);
        })));
  }
  if (ends.empty())
    return foldScanInBlocks(b, array, combine, block);
  Value blockEnds = concatenateBalanced(b, std::move(ends));
  SmallVector<Type> types;
  flattenElementType(type.getElementType(), types);
  return generate(b, type, [&](ImplicitLocOpBuilder &b, Value i) {
    Value j = arith::DivUIOp::create(b, i, indexConstant(b, block));
    Value firstBlock =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, j, zero);
    // e_{j-1} after the first block (max(j, 1) - 1 keeps the index in
    // range), x[0] in it.
    SmallVector<Value> start = selectElement(
        b, types, firstBlock, [&] { return index(b, array, zero); },
        index(
            b, blockEnds,
            arith::SubIOp::create(b, arith::MaxUIOp::create(b, j, one), one)));
    Value from = arith::SelectOp::create(
        b, firstBlock, one,
        arith::MulIOp::create(b, j, indexConstant(b, block)));
    Value end = arith::AddIOp::create(b, i, one);
    return foldRange(b, array, start, from, end, combine);
  });
}

// run = ceil(N / T); each thread folds its run in sequence (seqReduce), in
// one stage:
//   t[r] = x[r*run]; for j = 1 .. run-1:  t[r] = t[r] op x[r*run + j]
// then each warp's 32 totals by halving distances (lane l takes in lane
// l + d), and the warps' totals likewise, level by level.
SmallVector<Value> dsl::serialReduce(ImplicitLocOpBuilder &b, Value array,
                                     BinaryFn combine, uint64_t threads) {
  uint64_t n = length(array);
  Value zero = indexConstant(b, 0);
  if (n == 1)
    return index(b, array, zero);
  Runs runs(n, threads);
  Value totals =
      runs.run > 1 ? foldRunsFrom(b, array, runs, combine, Value(), 0, runs.run)
                   : array;
  if (runs.count == 1)
    return index(b, totals, zero);
  // Level by level, each group of 32 folded into its first element, until
  // one group is left (more than one level above the warps only for a
  // sub-program's or an element's runs of one). The last group of the
  // warps' totals (at most 32, read from shared memory) one thread folds
  // left to right, as CUB's BlockReduce does: a loop, where a fold by
  // halving distances takes a barrier and a lane test per level.
  for (uint64_t count = runs.count, level = 0;; ++level) {
    if (level > 0 && count <= kWarpLanes) {
      Value total =
          sync(b, generate(b, arrType(totals).withLength(1),
                           [&](ImplicitLocOpBuilder &b, Value) {
                             return foldRange(b, totals, index(b, totals, zero),
                                              indexConstant(b, 1),
                                              indexConstant(b, count), combine);
                           }));
      return index(b, total, zero);
    }
    // Whole warps of totals fold by butterflies, any others as before.
    totals = count % kWarpLanes == 0 && length(totals) % kWarpLanes == 0
                 ? butterflyFold(b, totals, kWarpLanes, combine)
                 : segmentedFold(b, totals, kWarpLanes, combine, count);
    uint64_t groups = llvm::divideCeil(count, kWarpLanes);
    if (groups == 1)
      break;
    totals = elementOfEachGroup(b, totals, kWarpLanes, 0);
    count = groups;
  }
  return index(b, totals, zero);
}
