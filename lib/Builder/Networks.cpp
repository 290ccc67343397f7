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

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::dsl;

static Value indexConstant(ImplicitLocOpBuilder &b, int64_t value) {
  return arith::ConstantIndexOp::create(b, value);
}

/// A stage in which element i becomes `combine(x[from(i)], x[i])` where
/// `updates(i)` holds and stays x[i] elsewhere; the update is an scf.if, so
/// the lowering drops the elements a thread leaves unchanged.
static Value updateStage(ImplicitLocOpBuilder &b, Value array, BinaryFn combine,
                         llvm::function_ref<Value(Value)> updates,
                         llvm::function_ref<Value(Value)> from) {
  ArrType type = arrType(array);
  SmallVector<Type> types;
  flattenElementType(type.getElementType(), types);
  return generate(b, type, [&](ImplicitLocOpBuilder &b, Value i) {
    auto choice = scf::IfOp::create(b, types, updates(i),
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(choice.thenBlock());
      scf::YieldOp::create(
          b, combine(b, index(b, array, from(i)), index(b, array, i)));
      b.setInsertionPointToStart(choice.elseBlock());
      scf::YieldOp::create(b, index(b, array, i));
    }
    return SmallVector<Value>(choice.getResults());
  });
}

/// The same, combining x[i - distance] into x[i].
static Value updateStage(ImplicitLocOpBuilder &b, Value array,
                         uint64_t distance, BinaryFn combine,
                         llvm::function_ref<Value(Value)> updates) {
  return updateStage(b, array, combine, updates, [&](Value i) -> Value {
    return arith::SubIOp::create(b, i, indexConstant(b, distance));
  });
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
                      auto choice = scf::IfOp::create(b, types, paired,
                                                      /*withElseRegion=*/true);
                      OpBuilder::InsertionGuard guard(b);
                      b.setInsertionPointToStart(choice.thenBlock());
                      scf::YieldOp::create(b, pairs());
                      b.setInsertionPointToStart(choice.elseBlock());
                      scf::YieldOp::create(b, index(b, level, left));
                      return SmallVector<Value>(choice.getResults());
                    }));
  }
  return index(b, array, indexConstant(b, 0));
}
