//===- CheckHostCode.cpp - host functions checked as they run -------------===//
//
// obs-check-host-code: kernels prove every place they touch and define
// their arithmetic; host functions index their memrefs and divide with
// values only the run knows. Each op of a host function that MLIR's
// RuntimeVerifiableOpInterface can check gets that check, with a message
// that names the op's source line; each view, affine access and integer
// division one of obs's own; obs-lower-host-checks turns them into calls of
// the runner's report. Writes into constant globals are refused here.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/Allocations.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Support/ByteSpan.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/RuntimeVerifiableOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSCHECKHOSTCODE
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

/// Whether `memref` may be a constant global's memory: followed through
/// views and casts, both values a select or an scf.if may give, a loop's
/// start and next values, and a host function's argument to what each of
/// its calls passes (a store in a function that a constant global reaches
/// through a call, a select or a branch was lost silently).
static bool mayBeConstantGlobal(Value memref, ModuleOp module,
                                llvm::DenseSet<Value> &visited) {
  if (!visited.insert(memref).second)
    return false;
  auto follow = [&](Value next) {
    return mayBeConstantGlobal(next, module, visited);
  };
  if (auto argument = dyn_cast<BlockArgument>(memref)) {
    Operation *owner = argument.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner)) {
      OpOperand *init = loop.getTiedLoopInit(argument);
      return init && (follow(init->get()) ||
                      follow(loop.getTiedLoopYieldedValue(argument)->get()));
    }
    auto function = dyn_cast<func::FuncOp>(owner);
    if (!function || argument.getOwner() != &function.getBody().front())
      return false;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(function, module);
    if (!uses)
      return false;
    for (const SymbolTable::SymbolUse &use : *uses)
      if (auto call = dyn_cast<func::CallOp>(use.getUser()))
        if (follow(call.getOperand(argument.getArgNumber())))
          return true;
    return false;
  }
  Operation *def = memref.getDefiningOp();
  if (isConstantGlobal(memref))
    return true;
  if (auto cast = dyn_cast<memref::CastOp>(def))
    return follow(cast.getSource());
  if (auto view = dyn_cast<ViewLikeOpInterface>(def))
    return follow(view.getViewSource());
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return follow(select.getTrueValue()) || follow(select.getFalseValue());
  if (auto choice = dyn_cast<scf::IfOp>(def)) {
    unsigned index = cast<OpResult>(memref).getResultNumber();
    return llvm::any_of(choice->getRegions(), [&](Region &region) {
      return !region.empty() &&
             follow(region.front().getTerminator()->getOperand(index));
    });
  }
  if (auto loop = dyn_cast<scf::ForOp>(def)) {
    unsigned index = cast<OpResult>(memref).getResultNumber();
    return follow(loop.getInitArgs()[index]) ||
           follow(loop.getYieldedValues()[index]);
  }
  return false;
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
  if (auto store = dyn_cast<affine::AffineStoreOp>(op))
    return store.getMemRef();
  return {};
}

/// Checks, before `op` (an affine.load or affine.store, which are not
/// memref ops when this pass runs: they become ones after it), that each
/// place its map computes lies within its memref's dimension.
static void emitAffineAccessCheck(Operation *op) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Value memref;
  AffineMap map;
  ValueRange operands;
  if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
    memref = load.getMemRef();
    map = load.getAffineMap();
    operands = load.getMapOperands();
  } else {
    auto store = cast<affine::AffineStoreOp>(op);
    memref = store.getMemRef();
    map = store.getAffineMap();
    operands = store.getMapOperands();
  }
  std::optional<SmallVector<Value, 8>> places =
      affine::expandAffineMap(b, b.getLoc(), map, operands);
  if (!places)
    return;
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value holds = arith::ConstantIntOp::create(b, 1, 1);
  for (auto [dim, place] : llvm::enumerate(*places)) {
    Value size = memref::DimOp::create(b, memref, dim);
    holds = arith::AndIOp::create(
        b, holds,
        arith::AndIOp::create(
            b, arith::CmpIOp::create(b, arith::CmpIPredicate::sge, place, zero),
            arith::CmpIOp::create(b, arith::CmpIPredicate::slt, place, size)));
  }
  cf::AssertOp::create(b, holds,
                       describeFailure(op, isa<affine::AffineLoadOp>(op)
                                               ? "reads outside its memref"
                                               : "writes outside its memref"));
}

/// Whether `op` is an integer division or remainder of scalars, which LLVM
/// leaves undefined for a divisor of 0 (and, signed, the least integer by
/// -1): the host traps (SIGFPE) where kernels' element code defines them.
static bool isIntegerDivision(Operation *op) {
  return isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
             arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op) &&
         op->getResult(0).getType().isIntOrIndex();
}

/// Checks, before `op` (isIntegerDivision), that its divisor is not 0 and,
/// for a signed one, that it is not the least integer divided by -1.
static void emitDivisionCheck(Operation *op) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Value dividend = op->getOperand(0), divisor = op->getOperand(1);
  Type type = divisor.getType();
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(type));
  Value holds =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ne, divisor, zero);
  bool isSigned = isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
                      arith::FloorDivSIOp>(op);
  if (isSigned) {
    unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
    Value least = arith::ConstantOp::create(
        b, type.isIndex() ? cast<TypedAttr>(b.getIndexAttr(
                                APInt::getSignedMinValue(width).getSExtValue()))
                          : cast<TypedAttr>(b.getIntegerAttr(
                                type, APInt::getSignedMinValue(width))));
    Value minusOne = arith::ConstantOp::create(
        b, type.isIndex() ? cast<TypedAttr>(b.getIndexAttr(-1))
                          : cast<TypedAttr>(b.getIntegerAttr(
                                type, APInt::getAllOnes(width))));
    Value overflows = arith::AndIOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, dividend, least),
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, divisor, minusOne));
    holds = arith::AndIOp::create(
        b, holds,
        arith::XOrIOp::create(b, overflows,
                              arith::ConstantIntOp::create(b, 1, 1)));
  }
  cf::AssertOp::create(
      b, holds,
      describeFailure(op, isSigned ? "divides by zero, or the least integer "
                                     "by -1, which overflows"
                                   : "divides by zero"));
}

/// An expand_shape MLIR cannot lower: a group of more than one size known
/// only at run time (upstream's lowering and its run-time check stop with a
/// crash on one).
static bool expandsIntoSeveralDynamicSizes(memref::ExpandShapeOp expand) {
  MemRefType type = expand.getResultType();
  return llvm::any_of(expand.getReassociationIndices(),
                      [&](const ReassociationIndices &group) {
                        return llvm::count_if(group, [&](int64_t dim) {
                                 return type.isDynamicDim(dim);
                               }) > 1;
                      });
}

/// Whether `op` makes a view that obs checks itself: upstream's checks of
/// subview and reinterpret_cast are missing or crash in LLVM 22 (a subview
/// at a run-time offset), and memref.view has none.
static bool isCheckedView(Operation *op) {
  return isa<memref::SubViewOp, memref::ReinterpretCastOp, memref::ViewOp,
             memref::CollapseShapeOp>(op);
}

/// Checks, after `view` (a subview, reinterpret_cast, view or collapse_shape,
/// which reads dimensions of run-time strides as one run even where they
/// are none: a transposed view, an overlapping one), that its
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
struct ObsCheckHostCodePass
    : obs::impl::ObsCheckHostCodeBase<ObsCheckHostCodePass> {
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
    ModuleOp module = getOperation();
    function.walk<WalkOrder::PreOrder>([&](Operation *op) {
      // An obs op's regions are element code, whose arithmetic obs defines
      // (a division by 0 is 0) and whose places the kernels' proofs cover.
      if (isa_and_present<ObsDialect>(op->getDialect()))
        return WalkResult::skip();
      llvm::DenseSet<Value> visited;
      if (Value written = getWrittenMemRef(op);
          written && mayBeConstantGlobal(written, module, visited)) {
        op->emitOpError() << "writes into a constant global, which is "
                             "read-only (through views, calls or branches)";
        refused = true;
      }
      if (auto expand = dyn_cast<memref::ExpandShapeOp>(op);
          expand && expandsIntoSeveralDynamicSizes(expand)) {
        expand.emitOpError() << "expands one dimension into more than one of "
                                "run-time size, which MLIR cannot lower";
        refused = true;
      }
      if (isCheckedView(op) || isa<RuntimeVerifiableOpInterface>(op) ||
          isa<affine::AffineLoadOp, affine::AffineStoreOp>(op) ||
          isIntegerDivision(op))
        checked.push_back(op);
      return WalkResult::advance();
    });
    if (refused)
      return failure();
    for (Operation *op : checked) {
      if (isCheckedView(op)) {
        emitViewCheck(op);
      } else if (isa<affine::AffineLoadOp, affine::AffineStoreOp>(op)) {
        emitAffineAccessCheck(op);
      } else if (isIntegerDivision(op)) {
        emitDivisionCheck(op);
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
