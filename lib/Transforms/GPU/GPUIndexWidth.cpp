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

#include "Obs/Analysis/SoundIntegerRanges.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

namespace mlir::obs {
#define GEN_PASS_DEF_OBSGPUINDEXWIDTH
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// What `solver` knows of the index `value`'s range: its signed bounds,
/// and its unsigned upper bound, as 64-bit numbers (an index's ranges are
/// 64 bits wide); nothing where the analysis did not reach it.
namespace {
struct IndexRange {
  int64_t smin, smax;
  uint64_t umax;
};
} // namespace
static std::optional<IndexRange> rangeOf(DataFlowSolver &solver, Value value) {
  auto *lattice = solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return std::nullopt;
  const ConstantIntRanges &range = lattice->getValue().getValue();
  return IndexRange{range.smin().getSExtValue(), range.smax().getSExtValue(),
                    range.umax().getZExtValue()};
}

/// Whether `solver` bounds `value` (an index) within 32 bits, as a signed
/// number, and as an unsigned one where `unsignedToo`.
static bool fitsIn32Bits(DataFlowSolver &solver, Value value,
                         bool unsignedToo) {
  std::optional<IndexRange> range = rangeOf(solver, value);
  return range && range->smin >= std::numeric_limits<int32_t>::min() &&
         range->smax <= std::numeric_limits<int32_t>::max() &&
         (!unsignedToo ||
          range->umax <= uint64_t(std::numeric_limits<int32_t>::max()));
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
/// in 32 bits as a signed number. (The bound and the step themselves are
/// index values the walk checks.)
static bool boundPlusStepFits(DataFlowSolver &solver, scf::ForOp loop) {
  if (!loop.getUpperBound().getType().isIndex())
    return true;
  std::optional<IndexRange> bound = rangeOf(solver, loop.getUpperBound()),
                            step = rangeOf(solver, loop.getStep());
  int64_t last;
  return bound && step && !llvm::AddOverflow(bound->smax, step->smax, last) &&
         last <= std::numeric_limits<int32_t>::max();
}

/// Whether a shift of an index by `amount` means the same in 32 bits: an
/// amount of 32 or more is defined in 64 bits and poison in 32.
static bool shiftAmountFits(DataFlowSolver &solver, Value amount) {
  std::optional<IndexRange> range = rangeOf(solver, amount);
  return range && range->umax < 32;
}

namespace {
struct ObsGPUIndexWidthPass
    : mlir::obs::impl::ObsGPUIndexWidthBase<ObsGPUIndexWidthPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (module->hasAttr(DLTIDialect::kDataLayoutAttrName))
      return;
    DataFlowSolver solver;
    if (failed(solveSoundIntegerRanges(solver, module)))
      return signalPassFailure();
    // Every value, block arguments (kernel arguments, loop induction
    // variables) and op results: an index within 32 bits, a memref with a
    // linear offset (below its size, for accesses in bounds) within them.
    auto valueFits = [&](Value value) {
      return (!value.getType().isIndex() ||
              fitsIn32Bits(solver, value, /*unsignedToo=*/false)) &&
             hasSmallStaticShape(value.getType());
    };
    WalkResult walk = module.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (!llvm::all_of(block.getArguments(), valueFits))
            return WalkResult::interrupt();
      if (!llvm::all_of(op->getResults(), valueFits))
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
      if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(op) &&
          op->getResult(0).getType().isIndex() &&
          !shiftAmountFits(solver, op->getOperand(1)))
        return WalkResult::interrupt();
      // A value the lowering makes: a loop's next induction value (up to
      // its bound plus its step).
      if (auto loop = dyn_cast<scf::ForOp>(op);
          loop && !boundPlusStepFits(solver, loop))
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
