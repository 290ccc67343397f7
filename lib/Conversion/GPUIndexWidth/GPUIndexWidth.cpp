//===- GPUIndexWidth.cpp - 32-bit indices where every one fits ------------===//
//
// A kernel's indices are element offsets, thread and block ids and the
// masks and comparisons on them: bounded by the kernel's sizes, which are
// static for every kernel whose launches are. Where the integer range
// analysis proves every index value of a module within 32 bits, the module
// is lowered with 32-bit indices, which halves the integer work PTX issues
// for them; anywhere it cannot, nothing changes.
//
//===----------------------------------------------------------------------===//

#include "Obs/Conversion/Passes.h"
#include "Obs/Support/Statistics.h"
#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSGPUINDEXWIDTH
#include "Obs/Conversion/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// Whether `solver` bounds `value` (an index) within 32 bits, as a signed
/// number, and as an unsigned one where `unsignedToo`.
static bool fitsIn32Bits(DataFlowSolver &solver, Value value,
                         bool unsignedToo) {
  auto *lattice = solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return false;
  const ConstantIntRanges &range = lattice->getValue().getValue();
  if (range.smin().getBitWidth() < 32)
    return true;
  if (range.smin().slt(
          APInt::getSignedMinValue(32).sext(range.smin().getBitWidth())) ||
      range.smax().sgt(
          APInt::getSignedMaxValue(32).sext(range.smax().getBitWidth())))
    return false;
  return !unsignedToo || range.umax().ule(APInt::getSignedMaxValue(32).zext(
                             range.umax().getBitWidth()));
}

namespace {
struct ObsGPUIndexWidthPass
    : mlir::obs::impl::ObsGPUIndexWidthBase<ObsGPUIndexWidthPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (module->hasAttr(DLTIDialect::kDataLayoutAttrName))
      return;
    DataFlowSolver solver;
    solver.load<dataflow::DeadCodeAnalysis>();
    solver.load<dataflow::SparseConstantPropagation>();
    solver.load<dataflow::IntegerRangeAnalysis>();
    if (failed(solver.initializeAndRun(module)))
      return signalPassFailure();
    // Every index value: block arguments (kernel arguments, loop induction
    // variables) and op results, and the operands of unsigned casts.
    auto indexFits = [&](Value value) {
      return !value.getType().isIndex() ||
             fitsIn32Bits(solver, value, /*unsignedToo=*/false);
    };
    WalkResult walk = module.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (!llvm::all_of(block.getArguments(), indexFits))
            return WalkResult::interrupt();
      if (!llvm::all_of(op->getResults(), indexFits))
        return WalkResult::interrupt();
      if (auto cast = dyn_cast<arith::IndexCastUIOp>(op);
          cast && cast.getIn().getType().isIndex() &&
          !fitsIn32Bits(solver, cast.getIn(), /*unsignedToo=*/true))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return;
    MLIRContext *context = module.getContext();
    auto entry = DataLayoutEntryAttr::get(
        IndexType::get(context),
        IntegerAttr::get(IntegerType::get(context, 64), 32));
    module->setAttr(DLTIDialect::kDataLayoutAttrName,
                    DataLayoutSpecAttr::get(context, {entry}));
    addToStatistic(*this, numNarrowed, "narrowed-modules");
  }
};
} // namespace
