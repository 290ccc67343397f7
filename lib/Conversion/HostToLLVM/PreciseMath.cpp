//===- PreciseMath.cpp - libm's expm1 and log1p on the host ---------------===//
//
// obs-precise-math-to-libm: upstream's convert-math-to-llvm computes
// math.expm1 as exp(x) - 1 and math.log1p as log(1 + x), which lose every
// digit for small x, the inputs these functions exist for. On the host
// (ref, cpu) they call libm instead, through convert-math-to-libm's
// patterns with only these two ops illegal.
//
//===----------------------------------------------------------------------===//

#include "Obs/Conversion/Passes.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSPRECISEMATHTOLIBM
#include "Obs/Conversion/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;

namespace {
struct ObsPreciseMathToLibmPass
    : obs::impl::ObsPreciseMathToLibmBase<ObsPreciseMathToLibmPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathToLibmConversionPatterns(patterns);
    // Every math op but these two stays for convert-math-to-llvm: only
    // illegal ops are converted by a partial conversion.
    ConversionTarget target(getContext());
    target.addIllegalOp<math::ExpM1Op, math::Log1pOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
