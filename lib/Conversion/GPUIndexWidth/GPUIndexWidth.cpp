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
#include "mlir/Dialect/SCF/IR/SCF.h"
#include <limits>

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

/// Whether `type`, if a memref, has a static shape of fewer than 2^31
/// elements, so that the linear offset of an element fits in 32 bits.
static bool hasSmallStaticShape(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return true;
  return memref.hasStaticShape() &&
         memref.getNumElements() <= std::numeric_limits<int32_t>::max();
}

/// Whether a loop's last increment, its bound plus its step at most, fits
/// in 32 bits as a signed number.
static bool boundPlusStepFits(DataFlowSolver &solver, scf::ForOp loop) {
  auto largest = [&](Value value) -> std::optional<int64_t> {
    auto *lattice =
        solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
    if (!lattice || lattice->getValue().isUninitialized())
      return std::nullopt;
    const APInt &max = lattice->getValue().getValue().smax();
    if (max.getSignificantBits() > 33)
      return std::nullopt;
    return max.getSExtValue();
  };
  if (!loop.getUpperBound().getType().isIndex())
    return true;
  std::optional<int64_t> bound = largest(loop.getUpperBound()),
                         step = largest(loop.getStep());
  return bound && step && *bound + *step <= std::numeric_limits<int32_t>::max();
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
      // Ops that read an index as unsigned see a negative one as a
      // different number in 32 bits.
      if (isa<arith::IndexCastUIOp, arith::DivUIOp, arith::RemUIOp,
              arith::CeilDivUIOp, arith::ShRUIOp>(op) &&
          !llvm::all_of(op->getOperands(), [&](Value operand) {
            return !operand.getType().isIndex() ||
                   fitsIn32Bits(solver, operand, /*unsignedToo=*/true);
          }))
        return WalkResult::interrupt();
      // Values the lowering makes: a loop's next induction value (up to
      // its bound plus its step), and a memref's linear offset (below its
      // size, for accesses in bounds).
      if (auto loop = dyn_cast<scf::ForOp>(op);
          loop && !boundPlusStepFits(solver, loop))
        return WalkResult::interrupt();
      for (Value result : op->getResults())
        if (!hasSmallStaticShape(result.getType()))
          return WalkResult::interrupt();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            if (!hasSmallStaticShape(argument.getType()))
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
