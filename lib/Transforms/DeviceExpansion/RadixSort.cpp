//===- RadixSort.cpp - obs.device_sort by digits -------------------------===//
//
// A device sort whose order is one comparison of its keys: a radix sort,
// eight bits a pass, in onesweep's shape (Adinets and Merrill): one count
// of every pass's digits, then one kernel a pass that ranks its tile,
// finds where each digit of the tile goes by looking back over the tiles
// before it (obs.carry of 256 counts) and scatters.
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::device_expansion;

namespace {

/// How many digits a pass has: 8 bits.
constexpr uint64_t kDigits = 256;

/// The all-pass count's tile is this many of the sort's tiles, on as many
/// times the threads (at most 1,024): 16,384 keys on 1,024 threads for
/// tiles of 4,096, so that each block's global additions of 256 counts a
/// pass add a sixteenth of a byte a key and pass to the 4 bytes a key it
/// reads.
constexpr uint64_t kCountTilesPerBlock = 4;

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
        keyOrder(keyOrder) {}

  /// Writes the plan before `sort`.
  void expand(DeviceSortOp sort);

private:
  /// The key `key` as unsigned bits whose order is the sort's.
  Value orderedBits(ImplicitLocOpBuilder &b, Value key) const;
  /// The digit of `bits` `shift` bits up (an i32, 8 per pass), an i32.
  Value digitOf(ImplicitLocOpBuilder &b, Value bits, Value shift) const;
  /// The kDigits counts of the digits `shift` bits up of a tile's keys.
  Value countDigits(ImplicitLocOpBuilder &b, Value keys, Value shift) const;
  /// Zeros over every pass's kDigits digit totals, and each pass's shift
  /// (8 bits a pass), for the count and the passes to read.
  KernelOp getStartKernel();
  /// Every pass's digits of a block's keys counted, and the counts added
  /// into each pass's digit totals (a global scatter each).
  KernelOp getCountKernel();
  /// A tile's elements written stably to their places for the digit its
  /// pass's shift gives: ranked in the tile (emitPlaces), placed after every
  /// smaller digit (the exclusive scan of the pass's digit totals) and after
  /// the tile's digit in the tiles before (an obs.carry of the tile's 256
  /// counts, by decoupled look-back). Every pass runs the same kernel (one
  /// compilation, one proof): the pass is data, its totals' row and shift
  /// `obs.global` arguments.
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

  KeyOrder keyOrder;
  KernelOp startKernel, countKernel, copyKernel, scatterKernel;
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

/// The all-pass count's tile, and its block's threads.
static Tiling getCountTiling(Tiling sortTiling) {
  return {sortTiling.tile * kCountTilesPerBlock,
          std::min<uint64_t>(1024, sortTiling.threads * kCountTilesPerBlock)};
}

/// The count of each digit `shift` bits up among the keys of `keys` (a
/// tile of a kernel's argument), kDigits of them; an absent key counts
/// nowhere (place -1).
Value RadixSortPlan::countDigits(ImplicitLocOpBuilder &b, Value keys,
                                 Value shift) const {
  Value present = ExtentOp::create(b, keys);
  ArrType tileI32 = ArrType::get(dsl::length(keys), b.getI32Type());
  Value ones = dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value) {
    return SmallVector<Value>{constantI32(b, 1)};
  });
  Value digits =
      dsl::generate(b, tileI32, [&](ImplicitLocOpBuilder &b, Value i) {
        Value digit =
            digitOf(b, orderedBits(b, dsl::index(b, keys, i).front()), shift);
        Value inside =
            arith::CmpIOp::create(b, arith::CmpIPredicate::ult, i, present);
        return SmallVector<Value>{
            arith::SelectOp::create(b, inside, digit, constantI32(b, -1))};
      });
  return dsl::scatter(b, ones, digits, kDigits, ScatterCombine::Add,
                      b.getI32IntegerAttr(0));
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

KernelOp RadixSortPlan::getStartKernel() {
  if (startKernel)
    return startKernel;
  unsigned passes = keyOrder.getPasses();
  Type i32 = IntegerType::get(op->getContext(), 32);
  SmallVector<Type> results(passes, ArrType::get(kDigits, i32));
  results.append(passes, ArrType::get(1, i32));
  startKernel = buildKernel(
      "start", {}, results, [&](ImplicitLocOpBuilder &b, ValueRange) {
        SmallVector<Value> written;
        for (unsigned pass = 0; pass < passes; ++pass)
          written.push_back(dsl::generate(b, ArrType::get(kDigits, i32),
                                          [](ImplicitLocOpBuilder &b, Value) {
                                            return SmallVector<Value>{
                                                constantI32(b, 0)};
                                          }));
        for (unsigned pass = 0; pass < passes; ++pass)
          written.push_back(dsl::generate(
              b, ArrType::get(1, i32), [&](ImplicitLocOpBuilder &b, Value) {
                return SmallVector<Value>{constantI32(b, 8 * pass)};
              }));
        return written;
      });
  return startKernel;
}

KernelOp RadixSortPlan::getCountKernel() {
  if (countKernel)
    return countKernel;
  unsigned passes = keyOrder.getPasses();
  Tiling counting = getCountTiling(tiling);
  Type i32 = IntegerType::get(op->getContext(), 32);
  ArrType row = ArrType::get(kDigits, i32);
  countKernel = buildKernel(
      "count",
      {{ArrType::get(counting.tile, scalars.front()),
        zerosOf(scalars.front())}},
      SmallVector<Type>(passes, row),
      [&](ImplicitLocOpBuilder &b, ValueRange args) {
        Value bins =
            dsl::generate(b, row, [&](ImplicitLocOpBuilder &b, Value place) {
              return SmallVector<Value>{indexToI32(b, place)};
            });
        // Each pass's digits counted in the block, then added into the
        // pass's totals.
        SmallVector<Value> written;
        for (unsigned pass = 0; pass < passes; ++pass)
          written.push_back(dsl::scatter(
              b, countDigits(b, args.front(), constantI32(b, 8 * pass)), bins,
              kDigits, ScatterCombine::Add, TypedAttr()));
        return written;
      });
  countKernel.setThreads(counting.threads);
  return countKernel;
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
  Type i64 = IntegerType::get(context, 64);
  uint64_t tile = tiling.tile;
  ArrType digitsType = ArrType::get(kDigits, i32);
  SmallVector<Type> results;
  for (Type scalar : scalars)
    results.push_back(ArrType::get(kDynamicGridLength, scalar));
  // The chain holds a word per digit a tile after the ticket counter; a
  // chain's words are never absent (it is whole).
  kernel = buildKernel(
      "scatter",
      {{tileType(tile), zerosOf(scalars)},
       {ArrType::get(kDigits + 1, i64), IntegerAttr::get(i64, 0)},
       {digitsType, zerosOf(i32)},
       {ArrType::get(1, i32), zerosOf(i32)}},
      results, [&](ImplicitLocOpBuilder &b, ValueRange args) {
        Value elements = args[0], chain = args[1], totals = args[2];
        Value zero = arith::ConstantIndexOp::create(b, 0);
        Value shift = dsl::index(b, args[3], zero).front();
        // The tile's count of each digit, and the counts of the tiles
        // before it.
        Value before = CarryOp::create(b, countDigits(b, elements, shift),
                                       chain, ScatterCombine::Add);
        // Digit d of the tile starts after every smaller digit of the whole
        // array (the exclusive scan of the pass's totals) and after digit d
        // of the tiles before.
        Value ends = dsl::scan(
            b, totals,
            [](ImplicitLocOpBuilder &b, ValueRange x, ValueRange y) {
              return SmallVector<Value>{
                  arith::AddIOp::create(b, x.front(), y.front())};
            },
            ScanNetwork::Sklansky);
        Value offsets = dsl::sync(
            b,
            dsl::generate(b, digitsType, [&](ImplicitLocOpBuilder &b, Value d) {
              Value start =
                  arith::SubIOp::create(b, dsl::index(b, ends, d).front(),
                                        dsl::index(b, totals, d).front());
              return SmallVector<Value>{arith::AddIOp::create(
                  b, start, dsl::index(b, before, d).front())};
            }));
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
        return written;
      });
  markChainArgument(kernel, 1);
  markGlobalArgument(kernel, 2);
  markGlobalArgument(kernel, 3);
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

void RadixSortPlan::expand(DeviceSortOp sort) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  ValueRange inputs = sort.getInputs(), outputs = sort.getOutputs();
  Value length = lengthOf(b, inputs.front());
  Value tiles = ceilTiles(b, length);
  unsigned passes = keyOrder.getPasses();
  // Each pass's digit totals and shift, each an allocation of its own (a
  // view at an offset would compile the scatter twice, for the first pass
  // and the others), and the chain every pass's look-back takes (cleared
  // before each pass).
  SmallVector<Value> totals, shifts;
  for (unsigned pass = 0; pass < passes; ++pass) {
    totals.push_back(
        memref::AllocOp::create(b, MemRefType::get({kDigits}, b.getI32Type())));
    shifts.push_back(
        memref::AllocOp::create(b, MemRefType::get({1}, b.getI32Type())));
  }
  Value chain = allocateOf(b, b.getI64Type(),
                           buildChainLength(b, b.getLoc(), tiles, kDigits));
  llvm::append_range(temporaries, totals);
  llvm::append_range(temporaries, shifts);
  temporaries.push_back(chain);
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
  SmallVector<Value> source(inputs);
  if (copyFirst) {
    launch(b, getCopyKernel(), tiles, inputs, spare);
    source = spare;
  }
  Value one = arith::ConstantIndexOp::create(b, 1);
  SmallVector<Value> started(totals);
  llvm::append_range(started, shifts);
  launch(b, getStartKernel(), one, ValueRange{}, started);
  launch(b, getCountKernel(), ceilTiles(b, length, getCountTiling(tiling).tile),
         source.front(), totals);
  for (unsigned pass = 0; pass < passes; ++pass) {
    // Passes alternate between the outputs and the spare memrefs, so that
    // the last writes the outputs.
    SmallVector<Value> destination =
        (passes - pass) % 2 == 1 ? SmallVector<Value>(outputs) : spare;
    SmallVector<Value> scatterInputs(source);
    scatterInputs.push_back(chain);
    scatterInputs.push_back(totals[pass]);
    scatterInputs.push_back(shifts[pass]);
    launch(b, getScatterKernel(), tiles, scatterInputs, destination);
    source = destination;
  }
  deallocate(b, temporaries);
}

void mlir::obs::populateRadixSortExpansionPatterns(
    RewritePatternSet &patterns, const DeviceExpansionOptions &options) {
  patterns.add<ExpandRadixSort>(patterns.getContext(), options);
}
