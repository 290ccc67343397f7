//===- ByteSpan.cpp - where a memref's elements lie at run time -----------===//
//
// Spans are computed in i128 from descriptors whose sizes, strides and
// offset are each checked below 2^48: no real allocation is larger, and
// no product or sum then wraps. In index arithmetic, a view of 2^62 i32
// spanned 2^64 bytes, that is 0, and was taken to lie within its
// allocation.
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/ByteSpan.h"
#include "Obs/Support/MemoryBytes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

Value obs::emitWideIndex(ImplicitLocOpBuilder &b, Value index) {
  return arith::ExtSIOp::create(
      b, b.getIntegerType(128),
      arith::IndexCastOp::create(b, b.getI64Type(), index));
}

obs::ByteSpan obs::emitByteSpan(ImplicitLocOpBuilder &b, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Type wide = b.getIntegerType(128);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, wide, value);
  };
  auto widen = [&](Value index) { return emitWideIndex(b, index); };
  Value zero = constant(0), one = constant(1),
        most = constant(kMostPlausibleBytes);
  Value bytes = constant(getElementBytes(type));
  auto metadata = memref::ExtractStridedMetadataOp::create(b, memref);
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, memref);
  Value plausible = arith::ConstantIntOp::create(b, 1, 1);
  auto bounded = [&](Value value) {
    Value magnitude =
        arith::MaxSIOp::create(b, value, arith::SubIOp::create(b, zero, value));
    plausible = arith::AndIOp::create(
        b, plausible,
        arith::CmpIOp::create(b, arith::CmpIPredicate::slt, magnitude, most));
  };
  // The elements' offsets from the first, lowest and highest: sums of
  // (size - 1) * stride, by the stride's sign.
  Value low = zero, high = zero;
  Value empty = arith::ConstantIntOp::create(b, 0, 1);
  for (auto [size, stride] :
       llvm::zip(metadata.getSizes(), metadata.getStrides())) {
    Value wideSize = widen(size), wideStride = widen(stride);
    bounded(wideSize);
    bounded(wideStride);
    // A negative size is no memref at all (MLIR leaves it undefined): it
    // was taken as empty, so any offset passed, and a view of -1 elements
    // from data let launches and device ops write past their allocation
    // (heap corruption; an adversarial run).
    plausible = arith::AndIOp::create(
        b, plausible,
        arith::CmpIOp::create(b, arith::CmpIPredicate::sge, wideSize, zero));
    empty = arith::OrIOp::create(
        b, empty,
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, wideSize, zero));
    Value reach = arith::MulIOp::create(
        b, arith::SubIOp::create(b, wideSize, one), wideStride);
    low = arith::AddIOp::create(b, low, arith::MinSIOp::create(b, reach, zero));
    high =
        arith::AddIOp::create(b, high, arith::MaxSIOp::create(b, reach, zero));
  }
  Value offset = widen(metadata.getOffset());
  bounded(offset);
  Value first = arith::AddIOp::create(
      b,
      arith::ExtUIOp::create(
          b, wide, arith::IndexCastUIOp::create(b, b.getI64Type(), pointer)),
      arith::MulIOp::create(b, offset, bytes));
  Value begin =
      arith::AddIOp::create(b, first, arith::MulIOp::create(b, low, bytes));
  Value end = arith::AddIOp::create(
      b, first,
      arith::MulIOp::create(b, arith::AddIOp::create(b, high, one), bytes));
  return {pointer, begin, end, empty, plausible};
}

Value obs::emitSpanWithin(ImplicitLocOpBuilder &b, const ByteSpan &inner,
                          const ByteSpan &outer) {
  Value within =
      arith::AndIOp::create(b,
                            arith::CmpIOp::create(b, arith::CmpIPredicate::sge,
                                                  inner.begin, outer.begin),
                            arith::CmpIOp::create(b, arith::CmpIPredicate::sle,
                                                  inner.end, outer.end));
  // An empty outer span holds nothing, though its begin and end are one
  // element apart (as every span's are at least): a view of one element of
  // an empty allocation read heap bytes.
  Value outerHolds = arith::XOrIOp::create(
      b, outer.empty, arith::ConstantIntOp::create(b, 1, 1));
  within = arith::AndIOp::create(b, within, outerHolds);
  // Empty holds nothing, but only a memref: a negative size is none.
  return arith::AndIOp::create(b, inner.plausible,
                               arith::OrIOp::create(b, inner.empty, within));
}

Value obs::emitSpansApart(ImplicitLocOpBuilder &b, const ByteSpan &first,
                          const ByteSpan &second) {
  Value apart =
      arith::OrIOp::create(b,
                           arith::CmpIOp::create(b, arith::CmpIPredicate::sle,
                                                 first.end, second.begin),
                           arith::CmpIOp::create(b, arith::CmpIPredicate::sle,
                                                 second.end, first.begin));
  Value bothPlausible =
      arith::AndIOp::create(b, first.plausible, second.plausible);
  return arith::AndIOp::create(
      b, bothPlausible,
      arith::OrIOp::create(b, apart,
                           arith::OrIOp::create(b, first.empty, second.empty)));
}

void obs::emitAllocatedCheck(ImplicitLocOpBuilder &b, Value memref, Value empty,
                             StringRef message) {
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, memref);
  Value given = arith::CmpIOp::create(b, arith::CmpIPredicate::ne, pointer,
                                      arith::ConstantIndexOp::create(b, 0));
  if (empty)
    given = arith::OrIOp::create(b, given, empty);
  cf::AssertOp::create(b, given, message);
}

void obs::eraseAllocatedChecks(Value memref) {
  SmallVector<Operation *> checks;
  for (Operation *pointer : memref.getUsers()) {
    if (!isa<memref::ExtractAlignedPointerAsIndexOp>(pointer))
      continue;
    for (Operation *given : pointer->getUsers()) {
      auto compare = dyn_cast<arith::CmpIOp>(given);
      if (!compare || compare.getPredicate() != arith::CmpIPredicate::ne ||
          !matchPattern(compare.getRhs(), m_Zero()))
        continue;
      for (Operation *user : compare->getUsers()) {
        if (isa<arith::OrIOp>(user) && user->hasOneUse())
          user = *user->getUsers().begin();
        if (isa<cf::AssertOp>(user))
          checks.push_back(user);
      }
    }
  }
  for (Operation *check : checks)
    check->erase();
}
