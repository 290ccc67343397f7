//===- ByteSpan.cpp - where a memref's elements lie at run time -----------===//

#include "Obs/Support/ByteSpan.h"
#include "Obs/Support/MemoryBytes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

obs::ByteSpan obs::emitByteSpan(ImplicitLocOpBuilder &b, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value one = arith::ConstantIndexOp::create(b, 1);
  Value bytes = arith::ConstantIndexOp::create(b, getElementBytes(type));
  auto metadata = memref::ExtractStridedMetadataOp::create(b, memref);
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, memref);
  // The last element's offset from the first: sum of (size - 1) * stride.
  Value last = zero;
  Value empty = arith::ConstantIntOp::create(b, 0, 1);
  for (auto [size, stride] :
       llvm::zip(metadata.getSizes(), metadata.getStrides())) {
    empty = arith::OrIOp::create(
        b, empty,
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, size, zero));
    last = arith::AddIOp::create(
        b, last,
        arith::MulIOp::create(b, arith::SubIOp::create(b, size, one), stride));
  }
  Value begin = arith::AddIOp::create(
      b, pointer, arith::MulIOp::create(b, metadata.getOffset(), bytes));
  Value end = arith::AddIOp::create(
      b, begin,
      arith::MulIOp::create(b, arith::AddIOp::create(b, last, one), bytes));
  return {pointer, begin, end, empty};
}

Value obs::emitSpanWithin(ImplicitLocOpBuilder &b, const ByteSpan &inner,
                          const ByteSpan &outer) {
  // Unsigned: a begin that wrapped below 0 is far past every end.
  Value within =
      arith::AndIOp::create(b,
                            arith::CmpIOp::create(b, arith::CmpIPredicate::uge,
                                                  inner.begin, outer.begin),
                            arith::CmpIOp::create(b, arith::CmpIPredicate::ule,
                                                  inner.end, outer.end));
  within =
      arith::AndIOp::create(b, within,
                            arith::CmpIOp::create(b, arith::CmpIPredicate::ule,
                                                  inner.begin, inner.end));
  return arith::OrIOp::create(b, inner.empty, within);
}

Value obs::emitSpansApart(ImplicitLocOpBuilder &b, const ByteSpan &first,
                          const ByteSpan &second) {
  return arith::OrIOp::create(
      b, arith::OrIOp::create(b, first.empty, second.empty),
      arith::OrIOp::create(b,
                           arith::CmpIOp::create(b, arith::CmpIPredicate::ule,
                                                 first.end, second.begin),
                           arith::CmpIOp::create(b, arith::CmpIPredicate::ule,
                                                 second.end, first.begin)));
}
