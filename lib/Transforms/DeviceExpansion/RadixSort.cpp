//===- RadixSort.cpp - obs.device_sort by digits -------------------------===//
//
// A device sort whose order is one comparison of its keys: a radix sort,
// eight bits a pass.
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::device_expansion;

namespace {

/// How many counts a row of the radix sort holds: one per digit of 8 bits.
constexpr uint64_t kDigits = 256;

/// A tile is ranked by digit in segments of at most this many keys, each
/// sorted by a bitonic network of its own (45 stages, where one over a
/// tile of 4,096 has 78), then placed after the equal digits of the
/// segments before it by their counts (segments * kDigits of them).
constexpr uint64_t kRankSegment = 512;

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

/// A radix sort's kernels and plan (docs/Rationale.md, "The device level").
class RadixSortPlan : public LaunchPlan {
public:
  RadixSortPlan(DeviceSortOp sort, KeyOrder keyOrder,
                const DeviceExpansionOptions &options)
      : LaunchPlan(sort, sort.getElementTypes(), sort.getBody(),
                   chooseSortTiling(options.tile), /*identity=*/{},
                   options.statistics),
        keyOrder(keyOrder),
        group(std::max<uint64_t>(2, tiling.tile / kDigits)) {}

  /// Writes the plan before `sort`.
  void expand(DeviceSortOp sort);

private:
  /// The key `key` as unsigned bits whose order is the sort's.
  Value orderedBits(ImplicitLocOpBuilder &b, Value key) const;
  /// The digit of `bits` `shift` bits up (an i32, 8 per pass), an i32.
  Value digitOf(ImplicitLocOpBuilder &b, Value bits, Value shift) const;
  /// Counts a tile's digits into kDigits counts: the first pass's from the
  /// keys, with the first pass's shift (0) for the tile's scatter, a later
  /// pass's from the digit bytes the pass before wrote (`fromDigits`).
  KernelOp getCountKernel(bool fromDigits);
  /// Rows of 256 counts, `group` rows per block: their column totals.
  KernelOp getRowTotalsKernel();
  /// Each row's offsets: for every digit, where the row's first element of
  /// that digit goes. `top`: all rows in the block, whose column totals
  /// place the digits one after the other; otherwise from a carry row.
  KernelOp getRowOffsetsKernel(bool top);
  /// A tile's elements written stably to their places for the digit its
  /// block's shift gives, with the next pass's digits beside them, and the
  /// next pass's shift. Every pass runs the same kernel (one compilation,
  /// one proof): the pass is data, and the last is given an empty array for
  /// the digits, every place of which is past its end (a global scatter
  /// writes only places inside its memref).
  KernelOp getScatterKernel();
  /// Where the scatter kernel writes each element of its tile `elements`
  /// for the digit `shift` bits up, given the tile's digit `offsets`: the
  /// tile as `digit << log2(tile) | index`, stably sorted by digit in each
  /// segment of kRankSegment, and each of its positions' place in the
  /// pass's destination (-1 for an absent element).
  std::pair<Value, Value> emitPlaces(ImplicitLocOpBuilder &b, Value elements,
                                     Value offsets, Value shift) const;
  /// The identity on tiles, for an in-place sort of an odd number of passes.
  KernelOp getCopyKernel();
  /// Turns `rows` rows of counts in `counts` into `offsets` (rows of
  /// digit-major exclusive sums).
  void emitRowOffsets(ImplicitLocOpBuilder &b, Value counts, Value offsets,
                      Value rows, uint64_t most, Value active,
                      unsigned depth = 0);

  KeyOrder keyOrder;
  /// Rows of counts per block in the sort's offsets (`group * kDigits`
  /// counts, the tile's elements but never fewer than 2 rows).
  uint64_t group;
  KernelOp countKernels[2], rowTotals, rowOffsets[2], copyKernel, scatterKernel;
  /// The totals and carries of each level of the rows' offsets, allocated
  /// by the first pass and used by every pass.
  SmallVector<std::pair<Value, Value>> rowLevels;
};

/// The order `less` gives, where it is one comparison of the two elements'
/// first scalars: `cmpi slt`/`ult` or `cmpf olt`/`ult` ascending, their
/// `gt` forms (or the operands swapped) descending.
std::optional<KeyOrder> matchKeyOrder(Region &less,
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

/// obs.device_sort by one comparison of the first scalars: a radix sort.
/// Of higher benefit than the merge sort, which sorts by any order.
struct ExpandRadixSort : OpRewritePattern<DeviceSortOp> {
  ExpandRadixSort(MLIRContext *context, const DeviceExpansionOptions &options)
      : OpRewritePattern(context, /*benefit=*/2), options(options) {}

  LogicalResult matchAndRewrite(DeviceSortOp sort,
                                PatternRewriter &rewriter) const override {
    std::optional<KeyOrder> keyOrder =
        matchKeyOrder(sort.getBody(), sort.getElementTypes().size());
    if (!keyOrder)
      return failure();
    // An order that is not strict is left to the merge sort's pattern,
    // which reports it once.
    {
      ScopedDiagnosticHandler quiet(sort.getContext(),
                                    [](Diagnostic &) { return success(); });
      if (failed(checkStrictWeakOrder(sort)))
        return failure();
    }
    if (failed(emitSortLengthsCheck(sort)))
      return failure();
    RadixSortPlan plan(sort, *keyOrder, options);
    plan.expand(sort);
    if (options.statistics)
      ++options.statistics->radixSorts;
    rewriter.eraseOp(sort);
    return success();
  }

  DeviceExpansionOptions options;
};

} // namespace

//===----------------------------------------------------------------------===//
// The radix sort
//===----------------------------------------------------------------------===//

/// A constant of `type` (an integer type) with bits `value`.
static Value constantBits(ImplicitLocOpBuilder &b, Type type,
                          const APInt &value) {
  return arith::ConstantOp::create(b, b.getIntegerAttr(type, value));
}

/// A tile's shift: one i32 for its block, which the count of the keys and
/// each scatter write and each scatter reads.
static ArrType getShiftType(MLIRContext *context) {
  return ArrType::get(1, IntegerType::get(context, 32));
}

/// `shift` as a tile's shift, for a kernel to write.
static Value generateShift(ImplicitLocOpBuilder &b, Value shift) {
  return dsl::generate(
      b, getShiftType(b.getContext()),
      [&](ImplicitLocOpBuilder &, Value) { return SmallVector<Value>{shift}; });
}

Value RadixSortPlan::orderedBits(ImplicitLocOpBuilder &b, Value key) const {
  unsigned width = keyOrder.bits;
  Type bitsType = b.getIntegerType(width);
  APInt signMask = APInt::getSignMask(width);
  Value bits = key;
  switch (keyOrder.kind) {
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
  if (keyOrder.descending)
    bits = arith::XOrIOp::create(
        b, bits, constantBits(b, bitsType, APInt::getAllOnes(width)));
  return bits;
}

Value RadixSortPlan::digitOf(ImplicitLocOpBuilder &b, Value bits,
                             Value shift) const {
  unsigned width = keyOrder.bits;
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

KernelOp RadixSortPlan::getCountKernel(bool fromDigits) {
  KernelOp &kernel = countKernels[fromDigits];
  if (kernel)
    return kernel;
  Type digitType = IntegerType::get(op->getContext(), 8);
  Type read = fromDigits ? digitType : scalars.front();
  Type i32 = IntegerType::get(op->getContext(), 32);
  SmallVector<Type> results = {ArrType::get(kDigits, i32)};
  if (!fromDigits)
    results.push_back(getShiftType(op->getContext()));
  kernel = buildKernel(
      fromDigits ? "count_digits" : "count_keys",
      {{ArrType::get(tiling.tile, read), zerosOf(read)}}, results,
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
        SmallVector<Value> written = {dsl::scatter(b, ones, digits, kDigits,
                                                   ScatterCombine::Add,
                                                   b.getI32IntegerAttr(0))};
        // The first pass's shift, which each pass's scatter then advances.
        if (!fromDigits)
          written.push_back(generateShift(b, constantI32(b, 0)));
        return written;
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

KernelOp RadixSortPlan::getRowTotalsKernel() {
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

KernelOp RadixSortPlan::getRowOffsetsKernel(bool top) {
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

std::pair<Value, Value> RadixSortPlan::emitPlaces(ImplicitLocOpBuilder &b,
                                                  Value elements, Value offsets,
                                                  Value shift) const {
  Type i32 = b.getI32Type();
  uint64_t tile = tiling.tile;
  unsigned indexBits = llvm::Log2_64(tile);
  uint64_t segment = std::min(tile, kRankSegment);
  uint64_t segments = tile / segment;
  Value present = ExtentOp::create(b, elements);
  ArrType tileI32 = ArrType::get(tile, i32);
  auto keyBits = [&](ImplicitLocOpBuilder &b, Value i) {
    return orderedBits(b, dsl::index(b, elements, i).front());
  };
  // Each segment of the tile sorted stably by digit: each element's
  // digit (kDigits for an absent one, after every digit) above its
  // index, sorted within its segment. Segments are sorted apart (a
  // bitonic network of 512 keys has 45 stages, one of 4,096 has 78);
  // the digit counts of the segments before place an element after
  // the equal digits of those.
  auto sortSegment = [&](ImplicitLocOpBuilder &b, Value segment) {
    return dsl::sort(
        b, segment,
        [](ImplicitLocOpBuilder &b, ValueRange x, ValueRange y) {
          return SmallVector<Value>{arith::CmpIOp::create(
              b, arith::CmpIPredicate::slt, x.front(), y.front())};
        },
        SortNetwork::Bitonic);
  };
  std::function<Value(ImplicitLocOpBuilder &, Value)> sortSegments =
      [&](ImplicitLocOpBuilder &b, Value part) -> Value {
    if (dsl::length(part) <= segment)
      return sortSegment(b, part);
    return dsl::two(b, part, sortSegments);
  };
  Value sorted = dsl::sync(
      b,
      sortSegments(
          b, dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value i) {
            Value inside =
                arith::CmpIOp::create(b, arith::CmpIPredicate::ult, i, present);
            Value digit = arith::SelectOp::create(
                b, inside, digitOf(b, keyBits(b, i), shift),
                constantI32(b, kDigits));
            Value above =
                arith::ShLIOp::create(b, digit, constantI32(b, indexBits));
            return SmallVector<Value>{
                arith::OrIOp::create(b, above, indexToI32(b, i))};
          })));
  auto digitAt = [&](ImplicitLocOpBuilder &b, Value s) -> Value {
    return arith::ShRUIOp::create(b, dsl::index(b, sorted, s).front(),
                                  constantI32(b, indexBits));
  };
  // The count of segment g's digit d is at g * kDigits + d; an absent
  // element's place is -1, nowhere.
  ArrType countsType = ArrType::get(segments * kDigits, i32);
  auto countPlace = [&](ImplicitLocOpBuilder &b, Value s) -> Value {
    Value digit = digitAt(b, s);
    Value group = arith::DivUIOp::create(
        b, s, arith::ConstantIndexOp::create(b, segment));
    Value place = arith::AddIOp::create(
        b,
        arith::MulIOp::create(b, indexToI32(b, group), constantI32(b, kDigits)),
        digit);
    Value absent = arith::CmpIOp::create(b, arith::CmpIPredicate::uge, digit,
                                         constantI32(b, kDigits));
    return arith::SelectOp::create(b, absent, constantI32(b, -1), place);
  };
  auto countPlaces =
      dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value s) {
        return SmallVector<Value>{countPlace(b, s)};
      });
  // Where each segment's run of each digit starts in the sorted tile.
  Value positions =
      dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value s) {
        return SmallVector<Value>{indexToI32(b, s)};
      });
  Value runStarts =
      dsl::scatter(b, positions, countPlaces, segments * kDigits,
                   ScatterCombine::Min, b.getI32IntegerAttr(tile));
  // What an element's position in the sorted tile needs added to be
  // its rank among the tile's equal digits: the equal digits of the
  // segments before, less where its run starts.
  Value adjustments = runStarts;
  if (segments > 1) {
    Value ones = dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value) {
      return SmallVector<Value>{constantI32(b, 1)};
    });
    Value counts = dsl::scatter(b, ones, countPlaces, segments * kDigits,
                                ScatterCombine::Add, b.getI32IntegerAttr(0));
    adjustments = dsl::sync(
        b,
        dsl::generate(b, countsType, [&](ImplicitLocOpBuilder &b, Value place) {
          Value width = arith::ConstantIndexOp::create(b, kDigits);
          Value group = arith::DivUIOp::create(b, place, width);
          Value d = arith::RemUIOp::create(b, place, width);
          Value earlier = columnSum(b, counts, d, group, constantI32(b, 0));
          return SmallVector<Value>{arith::SubIOp::create(
              b, earlier, dsl::index(b, runStarts, place).front())};
        }));
  }
  // An element's place: its digit's offset for the tile, plus its
  // rank among the tile's equal digits. An absent element has none.
  Value places = dsl::sync(
      b, dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value s) {
        Value countAt = countPlace(b, s);
        Value absent = arith::CmpIOp::create(b, arith::CmpIPredicate::slt,
                                             countAt, constantI32(b, 0));
        // An absent element reads in bounds, and its place is -1.
        Value bounded = i32ToIndex(
            b, arith::SelectOp::create(b, absent, constantI32(b, 0), countAt));
        Value digit = arith::RemUIOp::create(
            b, bounded, arith::ConstantIndexOp::create(b, kDigits));
        Value adjustment = dsl::index(b, adjustments, bounded).front();
        Value position = indexToI32(b, s);
        Value rank =
            segments > 1
                ? Value(arith::AddIOp::create(b, position, adjustment))
                : Value(arith::SubIOp::create(b, position, adjustment));
        Value place = arith::AddIOp::create(
            b, dsl::index(b, offsets, digit).front(), rank);
        return SmallVector<Value>{
            arith::SelectOp::create(b, absent, constantI32(b, -1), place)};
      }));
  return {sorted, places};
}

KernelOp RadixSortPlan::getScatterKernel() {
  KernelOp &kernel = scatterKernel;
  if (kernel)
    return kernel;
  MLIRContext *context = op->getContext();
  Type i32 = IntegerType::get(context, 32);
  Type digitType = IntegerType::get(context, 8);
  uint64_t tile = tiling.tile;
  SmallVector<Type> results;
  for (Type scalar : scalars)
    results.push_back(ArrType::get(kDynamicGridLength, scalar));
  results.push_back(ArrType::get(kDynamicGridLength, digitType));
  results.push_back(getShiftType(context));
  kernel = buildKernel(
      "scatter",
      {{tileType(tiling.tile), zerosOf(scalars)},
       {ArrType::get(kDigits, i32), zerosOf(i32)},
       {getShiftType(context), zerosOf(i32)}},
      results, [&](ImplicitLocOpBuilder &b, ValueRange args) {
        Value elements = args[0], offsets = args[1];
        Value zero = arith::ConstantIndexOp::create(b, 0);
        Value shift = dsl::index(b, args[2], zero).front();
        auto keyBits = [&](ImplicitLocOpBuilder &b, Value i) {
          return orderedBits(b, dsl::index(b, elements, i).front());
        };
        Value sorted, places;
        std::tie(sorted, places) = emitPlaces(b, elements, offsets, shift);
        auto sourceAt = [&](ImplicitLocOpBuilder &b, Value s) -> Value {
          return i32ToIndex(
              b, arith::AndIOp::create(b, dsl::index(b, sorted, s).front(),
                                       constantI32(b, tile - 1)));
        };
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
        // The next pass's digits (past a key's width after the last pass, a
        // defined value written nowhere) and shift.
        Value nextShift = arith::AddIOp::create(b, shift, constantI32(b, 8));
        {
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
        written.push_back(generateShift(b, nextShift));
        return written;
      });
  // Strided is what obs-assign-work's cost strategy chooses for this
  // kernel (its bitonic sorts of segments dominate it), for every key type
  // and with values: written, the kernel is dealt out once instead of
  // refined and simulated three times (the PTX is the same).
  // test/Transforms/expand-device-sort-strategy.mlir checks that the cost
  // strategy still chooses it.
  kernel.setStrategy(WorkStrategy::Strided);
  return kernel;
}

KernelOp RadixSortPlan::getCopyKernel() {
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

void RadixSortPlan::emitRowOffsets(ImplicitLocOpBuilder &b, Value counts,
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

void RadixSortPlan::expand(DeviceSortOp sort) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  ValueRange inputs = sort.getInputs(), outputs = sort.getOutputs();
  Value length = lengthOf(b, inputs.front());
  uint64_t most = mostLength(inputs.front());
  Value tiles = ceilTiles(b, length);
  Value rowsLength = arith::MulIOp::create(
      b, tiles, arith::ConstantIndexOp::create(b, kDigits));
  Value counts = allocateOf(b, b.getI32Type(), rowsLength);
  Value offsets = allocateOf(b, b.getI32Type(), rowsLength);
  // Each pass's shift, one per tile: the first pass's from the count of the
  // keys, each next one from the scatter before (two arrays in turn, since
  // a kernel may not read what it writes).
  Value shifts[2] = {allocateOf(b, b.getI32Type(), tiles),
                     allocateOf(b, b.getI32Type(), tiles)};
  temporaries.push_back(counts);
  temporaries.push_back(offsets);
  temporaries.push_back(shifts[0]);
  temporaries.push_back(shifts[1]);
  unsigned passes = keyOrder.getPasses();
  // An odd number of passes ends in the outputs only if it starts from the
  // inputs; when an output shares an input's memory it starts from a copy.
  // By allocation, not by value: an i8 sort into a reinterpret_cast of its
  // input scattered over what it read (refused by the launch proof, in its
  // own terms; an adversarial run).
  bool copyFirst = passes % 2 == 1 && mayShareMemory(outputs, inputs);
  SmallVector<Value> spare;
  if (passes > 1 || copyFirst) {
    spare = allocate(b, length);
    llvm::append_range(temporaries, spare);
  }
  // The last pass's next digits and shift go nowhere: into empty arrays.
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value noDigits = allocateOf(b, b.getI8Type(), zero);
  Value noShift = allocateOf(b, b.getI32Type(), zero);
  temporaries.push_back(noDigits);
  temporaries.push_back(noShift);
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
    Value shift = shifts[pass % 2];
    if (pass == 0)
      launch(b, getCountKernel(/*fromDigits=*/false), tiles, source.front(),
             ValueRange{counts, shift});
    else
      launch(b, getCountKernel(/*fromDigits=*/true), tiles, digits, counts);
    emitRowOffsets(b, counts, offsets, tiles,
                   llvm::divideCeil(most, tiling.tile), /*active=*/Value());
    SmallVector<Value> scatterInputs(source);
    scatterInputs.push_back(offsets);
    scatterInputs.push_back(shift);
    SmallVector<Value> scatterOutputs(destination);
    scatterOutputs.push_back(last ? noDigits : digits);
    scatterOutputs.push_back(last ? noShift : shifts[(pass + 1) % 2]);
    launch(b, getScatterKernel(), tiles, scatterInputs, scatterOutputs);
    source = destination;
  }
  deallocate(b, temporaries);
}

void mlir::obs::populateRadixSortExpansionPatterns(
    RewritePatternSet &patterns, const DeviceExpansionOptions &options) {
  patterns.add<ExpandRadixSort>(patterns.getContext(), options);
}
