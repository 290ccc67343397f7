//===- PreciseGPUMath.cpp - correctly rounded square roots in PTX ---------===//
//
// libdevice's square roots are approximate unless the module asks for
// precise ones; the host's are IEEE's. See the pass's description in
// GPUPasses.td.
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSPRECISEGPUMATH
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// The correctly rounded square root of `value`: PTX's `sqrt.rn.f32` for f16
/// and bf16 (through f32, whose root rounds to the same 16-bit float: f32
/// has more than twice their digits and two) and f32, written as
/// inline PTX (convert-gpu-to-nvvm takes llvm.intr.sqrt for illegal);
/// math.sqrt for f64 (libdevice's sqrt.rn.f64).
static Value buildPreciseSqrt(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  if (!type.isF16() && !type.isBF16() && !type.isF32())
    return math::SqrtOp::create(b, loc, value);
  Value wide = type.isF32()
                   ? value
                   : arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  Value root =
      LLVM::InlineAsmOp::create(
          b, loc, b.getF32Type(), ValueRange{wide}, "sqrt.rn.f32 $0, $1;",
          "=f,f", /*has_side_effects=*/false, /*is_align_stack=*/false,
          LLVM::TailCallKind::None, /*asm_dialect=*/LLVM::AsmDialectAttr(),
          /*operand_attrs=*/ArrayAttr())
          .getResult(0);
  return type.isF32() ? root
                      : arith::TruncFOp::create(b, loc, type, root).getResult();
}

/// `op`, one of IEEE's sign-bit operations (abs, negate, copySign) on a
/// float of 16, 32 or 64 bits, as the integer operation on its bits that
/// IEEE defines it to be: NVPTX computes 16-bit ones through f32 (copysign
/// always, abs and neg on chips without 16-bit arithmetic), whose
/// conversions make a NaN's payload the canonical one, and PTX's own
/// `neg.f32`, `neg.f64` and `abs.f32` leave the NaN they give unspecified
/// (read in the PTX by adversarial runs: absf, then copysign, then f32 and
/// f64), where the host changes only the sign bit.
static Value buildSignBitOperation(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  unsigned width = op->getResult(0).getType().getIntOrFloatBitWidth();
  Type bits = b.getIntegerType(width);
  APInt sign = APInt::getSignMask(width);
  auto raw = [&](Value value) {
    return arith::BitcastOp::create(b, loc, bits, value).getResult();
  };
  auto constant = [&](const APInt &value) {
    return arith::ConstantOp::create(b, loc, bits,
                                     b.getIntegerAttr(bits, value))
        .getResult();
  };
  Value x = raw(op->getOperand(0)), result;
  if (isa<arith::NegFOp>(op)) {
    result = arith::XOrIOp::create(b, loc, x, constant(sign));
  } else {
    result = arith::AndIOp::create(b, loc, x, constant(~sign));
    if (isa<math::CopySignOp>(op))
      result = arith::OrIOp::create(
          b, loc, result,
          arith::AndIOp::create(b, loc, raw(op->getOperand(1)),
                                constant(sign)));
  }
  return arith::BitcastOp::create(b, loc, op->getResult(0).getType(), result);
}

/// `op`, an `arith.remf` of f16, bf16 or f32, computed in f64 and
/// narrowed back: libdevice's `__nv_fmodf`, which NVPTX calls for it (the
/// 16-bit types through f32), divides with `div.approx.f32`, whose
/// reciprocal of a subnormal divisor overflows (2^-140 rem 2^-149 would
/// be infinity, where IEEE's remainder is 0: read in the PTX by an
/// adversarial run), and `__nv_fmod` is an exact shift-and-subtract on the
/// significands. A remainder of two floats is exact in their type, so the
/// narrowing rounds nothing, and their subnormals are normal in f64.
static Value buildRemainderInF64(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  Type wide = b.getF64Type();
  auto widen = [&](Value value) {
    return arith::ExtFOp::create(b, loc, wide, value).getResult();
  };
  Value remainder = arith::RemFOp::create(b, loc, widen(op->getOperand(0)),
                                          widen(op->getOperand(1)));
  return arith::TruncFOp::create(b, loc, op->getResult(0).getType(), remainder);
}

/// The precise form of `op`, built before it, where PTX would compute it
/// otherwise than the host: square roots and reciprocal square roots,
/// IEEE's sign-bit operations, and 16-bit and f32 remainders. Null for any
/// other op, and for vectors (element code computes on scalars; a vector's
/// are left to the libraries).
static Value buildPreciseForm(Operation *op) {
  if (op->getNumResults() != 1)
    return {};
  Type type = op->getResult(0).getType();
  bool narrow = type.isF16() || type.isBF16() || type.isF32();
  OpBuilder b(op);
  Location loc = op->getLoc();
  if (isa<math::SqrtOp>(op) && narrow)
    return buildPreciseSqrt(b, loc, op->getOperand(0));
  if (isa<math::RsqrtOp>(op) && isa<FloatType>(type)) {
    Value root = buildPreciseSqrt(b, loc, op->getOperand(0));
    Value one =
        arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, 1.0));
    return arith::DivFOp::create(b, loc, one, root);
  }
  if (isa<math::AbsFOp, arith::NegFOp, math::CopySignOp>(op) &&
      (narrow || type.isF64()))
    return buildSignBitOperation(b, op);
  if (isa<arith::RemFOp>(op) && narrow)
    return buildRemainderInF64(b, op);
  return {};
}

namespace {
struct ObsPreciseGPUMathPass
    : mlir::obs::impl::ObsPreciseGPUMathBase<ObsPreciseGPUMathPass> {
  void runOnOperation() override {
    // Post-order: an op is replaced once the walk has left it.
    getOperation().walk([&](Operation *op) {
      Value precise = buildPreciseForm(op);
      if (!precise)
        return;
      op->getResult(0).replaceAllUsesWith(precise);
      op->erase();
      addToStatistic(*this, numRewritten, "rewritten");
    });
  }
};
} // namespace
