//===- NetworkScan.cpp - the reference's scans in a network's order ------===//
//
// The reference target's scan of a kernel's `obs.scan` in the association
// order of its network (ReferenceLowering::scanInNetworkOrder): its own
// loops, independent of lib/Builder/Networks.cpp, which builds the GPU
// targets' stages, so that a float scan is checked bit for bit.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/Storage.h"
#include "ReferenceLowering.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::reference;

/// One scanInNetworkOrder: the scan whose combine it applies, and the
/// loops, branches and index arithmetic its networks are built from.
class ReferenceLowering::NetworkScan {
public:
  NetworkScan(ReferenceLowering &lowering, ScanOp scan, bool &failed)
      : lowering(lowering), builder(lowering.builder), scan(scan),
        loc(scan.getLoc()), type(cast<ArrType>(scan.getType())),
        scalarTypes(flattenElementType(type.getElementType())), failed(failed) {
  }

  /// Scans the `length` elements in `data` in the order of `network` (see
  /// scanInNetworkOrder).
  void run(const Buffer &data, uint64_t length, ScanNetwork network,
           uint64_t threads);

private:
  SmallVector<Value> read(const Buffer &buffer, Value index) {
    return makeStorageReader(buffer)(builder, loc, index);
  }
  void write(const Buffer &buffer, ValueRange element, Value index) {
    storeLeaf(builder, loc, buffer, element, index);
  }
  SmallVector<Value> combine(ValueRange lhs, ValueRange rhs);
  /// body(i) for i = first .. end-1, in increasing order.
  void forEach(uint64_t first, uint64_t end, function_ref<void(Value)> body);
  /// One level: for i = 0 .. size-1 (in decreasing order: a level that
  /// reads an element it also updates, Kogge-Stone's, reads it unchanged),
  /// element i takes in element source(i) where takes(i):
  /// buffer[i] = buffer[source(i)] (+) buffer[i].
  void level(const Buffer &buffer, uint64_t size,
             function_ref<Value(Value)> takes,
             function_ref<Value(Value)> source);
  /// A level in which element i takes in element i - distance.
  void levelBack(const Buffer &buffer, uint64_t size, uint64_t distance,
                 function_ref<Value(Value)> takes) {
    level(buffer, size, takes, [&](Value i) { return minus(i, distance); });
  }
  /// `condition ? taken() : otherwise()`, only the chosen side computed.
  SmallVector<Value> choose(Value condition,
                            function_ref<SmallVector<Value>()> taken,
                            function_ref<SmallVector<Value>()> otherwise);
  Value constant(int64_t value) { return lowering.constant(loc, value); }
  Value minus(Value value, uint64_t amount) {
    return arith::SubIOp::create(builder, loc, value, constant(amount));
  }
  Value compare(arith::CmpIPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpIOp::create(builder, loc, predicate, lhs, rhs);
  }
  Value remainder(Value value, uint64_t divisor) {
    return arith::RemUIOp::create(builder, loc, value, constant(divisor));
  }
  Value quotient(Value value, uint64_t divisor) {
    return arith::DivUIOp::create(builder, loc, value, constant(divisor));
  }
  Value masked(Value value, uint64_t mask) {
    return arith::AndIOp::create(builder, loc, value, constant(mask));
  }
  /// The last of group g's `group` elements, or the last of `size`.
  Value lastOfGroup(Value g, uint64_t group, uint64_t size);

  void sklansky(const Buffer &data, uint64_t length);
  void koggeStone(const Buffer &data, uint64_t length);
  void brentKung(const Buffer &data, uint64_t length);
  /// serial among `threads` (see scanInNetworkOrder).
  void serial(const Buffer &data, uint64_t length, uint64_t threads);
  /// Each run of `run` elements left to right: an element that does not
  /// start its run takes in the one before.
  void foldRuns(const Buffer &data, uint64_t length, uint64_t run);
  /// The `count` runs' totals (the last run's: the array's last element),
  /// scanned within each warp: at distance d, run c with c mod 32 >= d
  /// takes in run c - d of the level below.
  Buffer scanRunTotals(const Buffer &data, uint64_t length, uint64_t run,
                       uint64_t count);
  /// before[w], w >= 1: the fold of the totals of the `warps` warps
  /// before w, whose runs' totals, `count` of them, `totals` scans.
  Buffer foldWarpsBefore(const Buffer &totals, uint64_t count, uint64_t warps);
  /// The fold of the warps before w combined with `element`, or `element`
  /// in warp 0.
  SmallVector<Value>
  withEarlierWarps(const Buffer &before, uint64_t warps, Value w,
                   function_ref<SmallVector<Value>()> element);
  /// Every run but the first takes in the fold of the runs before it.
  void takeInEarlierRuns(const Buffer &data, uint64_t length, uint64_t run,
                         const Buffer &totals, const Buffer &before,
                         uint64_t warps);

  static constexpr uint64_t warp = KernelOp::kWarpSize;
  ReferenceLowering &lowering;
  OpBuilder &builder;
  ScanOp scan;
  Location loc;
  ArrType type;
  SmallVector<Type> scalarTypes;
  bool &failed;
  Value zero;
};

SmallVector<Value> ReferenceLowering::NetworkScan::combine(ValueRange lhs,
                                                           ValueRange rhs) {
  std::unique_ptr<ElementEmitter> emitter = lowering.makeEmitter(loc);
  SmallVector<Value> combined = emitter->emitRegionOn(scan.getBody(), lhs, rhs);
  failed |= emitter->failed();
  return combined;
}

void ReferenceLowering::NetworkScan::forEach(uint64_t first, uint64_t end,
                                             function_ref<void(Value)> body) {
  if (first >= end)
    return;
  auto loop = scf::ForOp::create(builder, loc, constant(first), constant(end),
                                 constant(1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
}

void ReferenceLowering::NetworkScan::level(const Buffer &buffer, uint64_t size,
                                           function_ref<Value(Value)> takes,
                                           function_ref<Value(Value)> source) {
  forEach(0, size, [&](Value k) {
    Value i = arith::SubIOp::create(builder, loc, constant(size - 1), k);
    auto taking = scf::IfOp::create(builder, loc, takes(i),
                                    /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(taking.thenBlock()->getTerminator());
    write(buffer, combine(read(buffer, source(i)), read(buffer, i)), i);
  });
}

SmallVector<Value> ReferenceLowering::NetworkScan::choose(
    Value condition, function_ref<SmallVector<Value>()> taken,
    function_ref<SmallVector<Value>()> otherwise) {
  auto choice = scf::IfOp::create(builder, loc, scalarTypes, condition,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(choice.thenBlock());
  scf::YieldOp::create(builder, loc, taken());
  builder.setInsertionPointToStart(choice.elseBlock());
  scf::YieldOp::create(builder, loc, otherwise());
  return SmallVector<Value>(choice.getResults());
}

Value ReferenceLowering::NetworkScan::lastOfGroup(Value g, uint64_t group,
                                                  uint64_t size) {
  Value first = arith::MulIOp::create(builder, loc, g, constant(group));
  return arith::MinUIOp::create(
      builder, loc,
      arith::AddIOp::create(builder, loc, first, constant(group - 1)),
      constant(size - 1));
}

void ReferenceLowering::NetworkScan::run(const Buffer &data, uint64_t length,
                                         ScanNetwork network,
                                         uint64_t threads) {
  zero = constant(0);
  switch (network) {
  case ScanNetwork::Sklansky:
    return sklansky(data, length);
  case ScanNetwork::KoggeStone:
    return koggeStone(data, length);
  case ScanNetwork::BrentKung:
    return brentKung(data, length);
  case ScanNetwork::Serial:
    return serial(data, length, threads);
  }
}

void ReferenceLowering::NetworkScan::sklansky(const Buffer &data,
                                              uint64_t length) {
  for (uint64_t distance = 1; distance < length; distance *= 2)
    level(
        data, length,
        [&](Value i) {
          return compare(arith::CmpIPredicate::ne, masked(i, distance), zero);
        },
        [&](Value i) {
          return arith::AddIOp::create(builder, loc,
                                       masked(i, ~(2 * distance - 1)),
                                       constant(distance - 1));
        });
}

void ReferenceLowering::NetworkScan::koggeStone(const Buffer &data,
                                                uint64_t length) {
  for (uint64_t distance = 1; distance < length; distance *= 2)
    levelBack(data, length, distance, [&](Value i) {
      return compare(arith::CmpIPredicate::uge, i, constant(distance));
    });
}

void ReferenceLowering::NetworkScan::brentKung(const Buffer &data,
                                               uint64_t length) {
  for (uint64_t distance = 1; distance < length; distance *= 2)
    levelBack(data, length, distance, [&](Value i) {
      return compare(arith::CmpIPredicate::eq, masked(i, 2 * distance - 1),
                     constant(2 * distance - 1));
    });
  for (uint64_t distance = llvm::bit_ceil(length) / 4; distance >= 1;
       distance /= 2)
    levelBack(data, length, distance, [&](Value i) {
      return arith::AndIOp::create(
          builder, loc,
          compare(arith::CmpIPredicate::eq, masked(i, 2 * distance - 1),
                  constant(distance - 1)),
          compare(arith::CmpIPredicate::uge, i, constant(3 * distance - 1)));
    });
}

void ReferenceLowering::NetworkScan::serial(const Buffer &data, uint64_t length,
                                            uint64_t threads) {
  uint64_t run = getSerialRunLength(length, threads);
  uint64_t count = llvm::divideCeil(length, run);
  if (run > 1)
    foldRuns(data, length, run);
  if (count == 1)
    return;
  Buffer totals = scanRunTotals(data, length, run, count);
  uint64_t warps = llvm::divideCeil(count, warp);
  Buffer before = foldWarpsBefore(totals, count, warps);
  if (run == 1) {
    forEach(0, count, [&](Value r) {
      write(data,
            withEarlierWarps(before, warps, quotient(r, warp),
                             [&] { return read(totals, r); }),
            r);
    });
    return;
  }
  takeInEarlierRuns(data, length, run, totals, before, warps);
}

void ReferenceLowering::NetworkScan::foldRuns(const Buffer &data,
                                              uint64_t length, uint64_t run) {
  forEach(1, length, [&](Value i) {
    auto inRun = scf::IfOp::create(
        builder, loc,
        compare(arith::CmpIPredicate::ne, remainder(i, run), zero),
        /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(inRun.thenBlock()->getTerminator());
    write(data, combine(read(data, minus(i, 1)), read(data, i)), i);
  });
}

Buffer ReferenceLowering::NetworkScan::scanRunTotals(const Buffer &data,
                                                     uint64_t length,
                                                     uint64_t run,
                                                     uint64_t count) {
  Buffer totals = lowering.allocate(type.withLength(count), loc);
  forEach(0, count, [&](Value r) {
    write(totals, read(data, lastOfGroup(r, run, length)), r);
  });
  for (uint64_t distance = 1; distance < std::min(warp, count); distance *= 2)
    levelBack(totals, count, distance, [&](Value c) {
      return compare(arith::CmpIPredicate::uge, remainder(c, warp),
                     constant(distance));
    });
  return totals;
}

Buffer ReferenceLowering::NetworkScan::foldWarpsBefore(const Buffer &totals,
                                                       uint64_t count,
                                                       uint64_t warps) {
  Buffer before;
  if (warps <= 1)
    return before;
  before = lowering.allocate(type.withLength(warps), loc);
  auto warpTotal = [&](Value u) {
    return read(totals, lastOfGroup(u, warp, count));
  };
  if (warps > warp) {
    // Scanned one level up, each warp's total its own run.
    Buffer warpTotals = lowering.allocate(type.withLength(warps), loc);
    forEach(0, warps, [&](Value u) { write(warpTotals, warpTotal(u), u); });
    lowering.scanInNetworkOrder(scan, warpTotals, warps, ScanNetwork::Serial,
                                /*threads=*/warps, failed);
    forEach(1, warps,
            [&](Value w) { write(before, read(warpTotals, minus(w, 1)), w); });
  } else {
    write(before, warpTotal(zero), constant(1));
    forEach(2, warps, [&](Value w) {
      write(before, combine(read(before, minus(w, 1)), warpTotal(minus(w, 1))),
            w);
    });
  }
  return before;
}

SmallVector<Value> ReferenceLowering::NetworkScan::withEarlierWarps(
    const Buffer &before, uint64_t warps, Value w,
    function_ref<SmallVector<Value>()> element) {
  if (warps == 1)
    return element();
  return choose(
      compare(arith::CmpIPredicate::ne, w, zero),
      [&] { return combine(read(before, w), element()); }, element);
}

void ReferenceLowering::NetworkScan::takeInEarlierRuns(
    const Buffer &data, uint64_t length, uint64_t run, const Buffer &totals,
    const Buffer &before, uint64_t warps) {
  forEach(run, length, [&](Value i) {
    Value r = quotient(i, run);
    Value w = quotient(r, warp);
    auto runBefore = [&] { return read(totals, minus(r, 1)); };
    // A warp's first run takes in only the warps before it.
    SmallVector<Value> prefix =
        warps == 1
            ? runBefore()
            : choose(
                  compare(arith::CmpIPredicate::ne, remainder(r, warp), zero),
                  [&] { return withEarlierWarps(before, warps, w, runBefore); },
                  [&] { return read(before, w); });
    write(data, combine(prefix, read(data, i)), i);
  });
}

void ReferenceLowering::scanInNetworkOrder(ScanOp scan, const Buffer &data,
                                           uint64_t length, ScanNetwork network,
                                           uint64_t threads, bool &failed) {
  NetworkScan(*this, scan, failed).run(data, length, network, threads);
}
