//===- CheckHostMemory.cpp - host functions' accesses checked as they run -===//
//
// obs-check-host-memory: kernels prove every place they touch; host
// functions index their memrefs with values only the run knows. Each op of
// a host function that MLIR's RuntimeVerifiableOpInterface can check gets
// that check, with a message that names the op's source line, and each
// memref.view one of obs's own; obs-lower-host-checks turns them into calls
// of the runner's report. Writes into constant globals are refused here.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/Allocations.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Support/ByteSpan.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/RuntimeVerifiableOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSCHECKHOSTMEMORY
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// `loc` as a diagnostic prints it: the first file, line and column in it,
/// or the location itself where it has none.
static std::string describeLocation(Location loc) {
  std::string text;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
              ":" + Twine(file.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (text.empty())
    llvm::raw_string_ostream(text) << loc;
  return text;
}

/// The one line a failed check of `op` reports: where, which op, and what
/// failed, in the words of a diagnostic.
static std::string describeFailure(Operation *op, StringRef what) {
  std::string failure = what.str();
  // Upstream's words for a load's or a store's place.
  if (what == "out-of-bounds access")
    failure = isa<memref::LoadOp>(op)
                  ? "reads outside its memref"
                  : (isa<memref::StoreOp>(op) ? "writes outside its memref"
                                              : "updates outside its memref");
  return describeLocation(op->getLoc()) + ": '" +
         op->getName().getStringRef().str() + "' op " + failure;
}

/// The memref `memref` is a view of, through views and casts: an
/// allocation, an argument, or what cannot be looked through.
static Value findViewedMemory(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    if (auto cast = dyn_cast<memref::CastOp>(def))
      memref = cast.getSource();
    else if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      memref = view.getViewSource();
    else
      break;
  }
  return memref;
}

/// The memref `op` writes, if it writes one itself.
static Value getWrittenMemRef(Operation *op) {
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getTarget();
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    return atomic.getMemref();
  if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(op))
    return atomic.getMemref();
  return {};
}

/// Whether `op` makes a view that obs checks itself: upstream's checks of
/// subview and reinterpret_cast are missing or crash in LLVM 22 (a subview
/// at a run-time offset), and memref.view has none.
static bool isCheckedView(Operation *op) {
  return isa<memref::SubViewOp, memref::ReinterpretCastOp, memref::ViewOp>(op);
}

/// Checks, after `view` (a subview, reinterpret_cast or view), that its
/// elements lie within its source's bytes (ByteSpan: in i128, so that no
/// size or offset wraps), and for a subview that each dimension's places
/// lie within the source's dimension, as the op means.
static void emitViewCheck(Operation *view) {
  ImplicitLocOpBuilder b(view->getLoc(), view->getBlock(),
                         std::next(view->getIterator()));
  Value source = view->getOperand(0);
  Value holds = emitSpanWithin(b, emitByteSpan(b, view->getResult(0)),
                               emitByteSpan(b, source));
  if (auto subview = dyn_cast<memref::SubViewOp>(view)) {
    Type wide = b.getIntegerType(128);
    auto widen = [&](OpFoldResult value) -> Value {
      Value index = getValueOrCreateConstantIndexOp(b, b.getLoc(), value);
      return arith::ExtSIOp::create(
          b, wide, arith::IndexCastOp::create(b, b.getI64Type(), index));
    };
    Value zero = arith::ConstantIntOp::create(b, wide, 0);
    Value one = arith::ConstantIntOp::create(b, wide, 1);
    for (auto [dim, offset, size, stride] :
         llvm::enumerate(subview.getMixedOffsets(), subview.getMixedSizes(),
                         subview.getMixedStrides())) {
      // Empty, or its first place at least 0 and its last below the
      // source's size (strides are positive in a subview's meaning).
      Value first = widen(offset), count = widen(size);
      Value last = arith::AddIOp::create(
          b, first,
          arith::MulIOp::create(b, arith::SubIOp::create(b, count, one),
                                widen(stride)));
      Value bound = widen(
          OpFoldResult(memref::DimOp::create(b, source, dim).getResult()));
      Value inside = arith::AndIOp::create(
          b, arith::CmpIOp::create(b, arith::CmpIPredicate::sge, first, zero),
          arith::CmpIOp::create(b, arith::CmpIPredicate::slt, last, bound));
      Value empty =
          arith::CmpIOp::create(b, arith::CmpIPredicate::sle, count, zero);
      holds = arith::AndIOp::create(b, holds,
                                    arith::OrIOp::create(b, empty, inside));
    }
  }
  cf::AssertOp::create(
      b, holds,
      describeFailure(view, "views places outside the memref it views"));
}

namespace {
struct ObsCheckHostMemoryPass
    : obs::impl::ObsCheckHostMemoryBase<ObsCheckHostMemoryPass> {
  void runOnOperation() override {
    bool failedAny = false;
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      ObsDialect::HostCheckedAttrHelper checkedMark(&getContext());
      if (function.isExternal() || checkedMark.isAttrPresent(function))
        continue;
      failedAny |= failed(checkFunction(function));
      checkedMark.setAttr(function, UnitAttr::get(&getContext()));
    }
    if (failedAny)
      signalPassFailure();
  }

  LogicalResult checkFunction(func::FuncOp function) {
    SmallVector<Operation *> checked;
    bool refused = false;
    function.walk(
        [&](Operation *op) {
          if (Value written = getWrittenMemRef(op);
              written && isConstantGlobal(findViewedMemory(written))) {
            op->emitOpError()
                << "writes into a constant global, which is read-only";
            refused = true;
          }
          if (isCheckedView(op) || isa<RuntimeVerifiableOpInterface>(op))
            checked.push_back(op);
        });
    if (refused)
      return failure();
    for (Operation *op : checked) {
      if (isCheckedView(op)) {
        emitViewCheck(op);
      } else {
        OpBuilder b(op);
        cast<RuntimeVerifiableOpInterface>(op).generateRuntimeVerification(
            b, op->getLoc(), describeFailure);
      }
      addToStatistic(*this, numChecked, "checked-ops");
    }
    return success();
  }
};
} // namespace
