//===- Allocations.cpp - memrefs followed to their allocations ------------===//

#include "Obs/Analysis/Allocations.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/MemoryBytes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include <numeric>

using namespace mlir;
using namespace mlir::obs;

std::optional<std::pair<int64_t, SmallVector<int64_t>>>
mlir::obs::staticStrides(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  return std::make_pair(offset, strides);
}

bool mlir::obs::isAllocation(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value))
    return argument.getOwner()->isEntryBlock() &&
           isa<FunctionOpInterface>(argument.getOwner()->getParentOp());
  return isa_and_present<memref::AllocOp, memref::AllocaOp,
                         memref::GetGlobalOp>(value.getDefiningOp());
}

bool mlir::obs::isConstantGlobal(Value root) {
  auto get = root.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return false;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  return global && global.getConstant();
}

FunctionOpInterface
mlir::obs::resolveCalledFunction(CallOpInterface call,
                                 SymbolTableCollection &symbols) {
  // An indirect callee resolves to the op that defines it.
  Operation *callee = call.resolveCallableInTable(&symbols);
  if (auto constant = dyn_cast_if_present<func::ConstantOp>(callee))
    callee = symbols.lookupNearestSymbolFrom(call, constant.getValueAttr());
  return dyn_cast_if_present<FunctionOpInterface>(callee);
}

/// The value that stands for the allocation `root`: itself, except that
/// every memref.get_global of one global in a function is one memory, which
/// the function's first of them stands for. Two of them are two names of
/// the same places, as two views of one alloc are.
static Value canonicalAllocation(Value root) {
  auto get = root.getDefiningOp<memref::GetGlobalOp>();
  auto function =
      get ? get->getParentOfType<FunctionOpInterface>() : FunctionOpInterface();
  if (!function)
    return root;
  Value first;
  function->walk([&](memref::GetGlobalOp other) {
    if (other.getNameAttr() != get.getNameAttr())
      return WalkResult::advance();
    first = other.getResult();
    return WalkResult::interrupt();
  });
  return first;
}

/// The strides of `type`'s layout, static, with an offset known only at
/// run time; none otherwise.
static std::optional<SmallVector<int64_t>>
stridesAtRunTimeOffset(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      !ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  return strides;
}

FailureOr<AllocationView> mlir::obs::followToAllocation(Value memref,
                                                        Operation *user,
                                                        const Twine &describe,
                                                        bool runTimeOffsets) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type) {
    if (!user)
      return failure();
    return tagError(user->emitOpError()
                        << "cannot place " << describe
                        << ": it is an unranked memref, whose places are "
                           "not in its type",
                    ErrorKind::RejectedChoice);
  }
  AllocationView placement;
  placement.elementBytes = getElementBytes(type);
  auto strides = staticStrides(type);
  // At a run-time place: its strides, and an offset that stays unknown.
  auto atRunTimeOffset = [&](MemRefType type) {
    return runTimeOffsets ? stridesAtRunTimeOffset(type) : std::nullopt;
  };
  if (!strides)
    if (std::optional<SmallVector<int64_t>> runTime = atRunTimeOffset(type)) {
      strides.emplace(ShapedType::kDynamic, std::move(*runTime));
      placement.offsetAtRunTime = true;
    }
  if (!strides) {
    if (!user)
      return failure();
    InFlightDiagnostic diag = user->emitOpError()
                              << "cannot place " << describe << " of type "
                              << type
                              << ": its layout has no static offset and "
                                 "strides";
    return tagError(diag, ErrorKind::RejectedChoice);
  }
  std::tie(placement.offset, placement.strides) = *strides;
  Value current = memref;
  while (!isAllocation(current)) {
    // Every memref on the way has static places: a cast may claim an
    // offset (static) for one that was only known at run time. An
    // unranked one has none to read (a cast through memref<*x> crashed the
    // launch proof, found by a review).
    auto currentType = dyn_cast<MemRefType>(current.getType());
    bool staticPlaces = currentType && staticStrides(currentType).has_value();
    if (!staticPlaces && currentType && atRunTimeOffset(currentType))
      placement.offsetAtRunTime = true;
    else if (!staticPlaces) {
      if (!user)
        return failure();
      InFlightDiagnostic diag =
          user->emitOpError()
          << "cannot follow " << describe
          << " to its allocation: it is a view of a memref of type "
          << current.getType() << ", whose offset or strides are not static";
      diag.attachNote(current.getLoc()) << "it comes from here";
      return tagError(diag, ErrorKind::RejectedChoice);
    }
    Operation *producer = current.getDefiningOp();
    if (isa_and_present<memref::SubViewOp, memref::ExpandShapeOp,
                        memref::CollapseShapeOp, memref::CastOp,
                        memref::ReinterpretCastOp, memref::TransposeOp>(
            producer)) {
      current = cast<ViewLikeOpInterface>(producer).getViewSource();
      continue;
    }
    // A byte shift known only at run time is not followed: nothing would
    // keep the elements aligned.
    if (auto view = dyn_cast_if_present<memref::ViewOp>(producer)) {
      APInt shift;
      if (matchPattern(view.getByteShift(), m_ConstantInt(&shift))) {
        // A GPU loads and stores an element only at a multiple of its
        // size: a view of i32 at byte 1 ran on ref and cpu, and its
        // kernel's st.global.b32 would fault (an adversarial run).
        int64_t elementBytes =
            static_cast<int64_t>(getElementBytes(view.getType()));
        if (shift.getSExtValue() % elementBytes != 0) {
          if (!user)
            return failure();
          InFlightDiagnostic diag =
              user->emitOpError()
              << "cannot take " << describe << ": it is a view at byte "
              << shift.getSExtValue() << " of its memory, not a multiple of "
              << "its elements' " << elementBytes
              << " bytes, where a GPU loads and stores them";
          diag.attachNote(view.getLoc()) << "the view";
          return tagError(diag, ErrorKind::RejectedChoice);
        }
        placement.baseBytes += shift.getSExtValue();
        current = view.getSource();
        continue;
      }
    }
    if (!user)
      return failure();
    InFlightDiagnostic diag = user->emitOpError()
                              << "cannot follow " << describe
                              << " to its allocation: ";
    if (producer)
      diag << "it comes from '" << producer->getName()
           << "', which is neither a view with static places (subview, "
              "expand_shape, collapse_shape, cast, reinterpret_cast, "
              "transpose, view by a constant) nor an allocation";
    else
      diag << "it is an argument of a block that is not a function's entry";
    diag.attachNote(current.getLoc()) << "it comes from here";
    return tagError(diag, ErrorKind::RejectedChoice);
  }
  if (placement.offsetAtRunTime)
    placement.offset = ShapedType::kDynamic;
  placement.root = canonicalAllocation(current);
  return placement;
}

namespace {
using Variable = ValueBoundsConstraintSet::Variable;

/// The bytes of a memref within its allocation lie in [begin, end), each an
/// affine sum of constants and values. Bytes, not elements: a memref.view
/// reinterprets an i8 buffer as elements of any width.
struct ByteInterval {
  Variable begin, end;
};

/// An affine sum over the symbols `terms` stand for, built as views are
/// followed.
class AffineSum {
public:
  explicit AffineSum(MLIRContext *context)
      : sum(getAffineConstantExpr(0, context)) {}
  /// Adds `scale` times `value` (a constant or an index value).
  void add(OpFoldResult value, int64_t scale) {
    if (std::optional<int64_t> constant = getConstantIntValue(value)) {
      sum = sum + *constant * scale;
      return;
    }
    add(Variable(value), scale);
  }
  /// Adds `scale` times `variable`.
  void add(Variable variable, int64_t scale) {
    sum = sum + getAffineSymbolExpr(terms.size(), sum.getContext()) * scale;
    terms.push_back(std::move(variable));
  }
  Variable get() const {
    return Variable(AffineMap::get(0, terms.size(), sum), terms);
  }

private:
  AffineExpr sum;
  SmallVector<Variable> terms;
};
} // namespace

/// The static strides of `type`'s layout, each at least 1; none otherwise.
static std::optional<SmallVector<int64_t>> positiveStrides(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, [](int64_t stride) {
        return ShapedType::isDynamic(stride) || stride < 1;
      }))
    return std::nullopt;
  return strides;
}

/// `memref`'s ByteInterval, where the views from its allocation are
/// subviews (of memrefs with static strides), memref.views (of the 1-D
/// byte buffers they take), reshapes and casts; none otherwise. The
/// interval runs from the view's first byte to one past its last element,
/// which its own strides place: a view of rows and columns, or one with a
/// stride above 1, holds only some of the interval's bytes, but none
/// outside it.
static std::optional<ByteInterval> getByteInterval(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  std::optional<SmallVector<int64_t>> strides = positiveStrides(type);
  if (type.getRank() == 0 || !strides)
    return std::nullopt;
  AffineSum begin(memref.getContext());
  for (Value current = memref; !isAllocation(current);) {
    Operation *producer = current.getDefiningOp();
    // A cast and a reshape lie within their source's bytes (the end is
    // placed by the memref's own type below, not the source's).
    if (isa_and_present<memref::CastOp, memref::ExpandShapeOp,
                        memref::CollapseShapeOp>(producer)) {
      current = cast<ViewLikeOpInterface>(producer).getViewSource();
      continue;
    }
    // A memref.view's source is a 1-D i8 buffer of identity layout: its
    // elements start `byte_shift` bytes in. (A cast that claims that layout
    // for a view at an offset is checked as the program runs:
    // obs-check-launches.)
    if (auto view = dyn_cast_if_present<memref::ViewOp>(producer)) {
      begin.add(OpFoldResult(view.getByteShift()), 1);
      current = view.getSource();
      continue;
    }
    auto subview = dyn_cast_if_present<memref::SubViewOp>(producer);
    if (!subview)
      return std::nullopt;
    SmallVector<int64_t> sourceStrides;
    int64_t offset;
    if (failed(subview.getSourceType().getStridesAndOffset(sourceStrides,
                                                           offset)) ||
        llvm::any_of(sourceStrides, ShapedType::isDynamic))
      return std::nullopt;
    int64_t elementBytes = getElementBytes(subview.getSourceType());
    for (auto [place, stride] :
         llvm::zip_equal(subview.getMixedOffsets(), sourceStrides))
      begin.add(place, stride * elementBytes);
    current = subview.getSource();
    // The allocation's own offset is the same for every view of it: the
    // walk ends there.
  }
  // The last element is at begin + sum_d (size_d - 1) stride_d elements,
  // and ends an element's bytes later. An empty view's end may fall before
  // its begin; it meets nothing, so whatever the comparison then proves is
  // true.
  int64_t elementBytes = getElementBytes(type);
  AffineSum end = begin;
  Builder builder(memref.getContext());
  end.add(OpFoldResult(builder.getIndexAttr(1)), elementBytes);
  for (auto [dimension, stride] : llvm::enumerate(*strides)) {
    if (type.isDynamicDim(dimension))
      end.add(Variable(memref, dimension), stride * elementBytes);
    else
      end.add(OpFoldResult(builder.getIndexAttr(type.getDimSize(dimension))),
              stride * elementBytes);
    end.add(OpFoldResult(builder.getIndexAttr(-1)), stride * elementBytes);
  }
  return ByteInterval{begin.get(), end.get()};
}

llvm::SetVector<Operation *> mlir::obs::getLaunchingFunctions(
    ModuleOp module, llvm::function_ref<bool(Operation *)> isLaunch) {
  SymbolTableCollection symbols;
  llvm::SetVector<Operation *> launching;
  module.walk([&](Operation *op) {
    if (isLaunch(op))
      if (auto function = op->getParentOfType<FunctionOpInterface>())
        launching.insert(function);
  });
  for (bool grew = true; grew;) {
    grew = false;
    module.walk([&](CallOpInterface call) {
      FunctionOpInterface callee = resolveCalledFunction(call, symbols);
      auto caller = call->getParentOfType<FunctionOpInterface>();
      if (callee && caller && launching.contains(callee))
        grew |= launching.insert(caller);
    });
  }
  return launching;
}

ArgumentsReaching mlir::obs::getArgumentsReaching(
    ModuleOp module,
    llvm::function_ref<SmallVector<Value>(Operation *)> operandsOf,
    llvm::function_ref<Value(Value)> rootOf) {
  auto argumentOf = [&](Value memref,
                        Operation *function) -> std::optional<unsigned> {
    Value root = rootOf(memref);
    auto argument = dyn_cast_if_present<BlockArgument>(root);
    if (!argument || argument.getOwner()->getParentOp() != function)
      return std::nullopt;
    return argument.getArgNumber();
  };
  ArgumentsReaching reaching;
  module.walk([&](Operation *op) {
    SmallVector<Value> operands = operandsOf(op);
    auto function = op->getParentOfType<FunctionOpInterface>();
    if (operands.empty() || !function)
      return;
    for (Value operand : operands)
      if (std::optional<unsigned> number = argumentOf(operand, function))
        reaching[function].insert(*number);
  });
  SymbolTableCollection symbols;
  for (bool grew = true; grew;) {
    grew = false;
    module.walk([&](CallOpInterface call) {
      FunctionOpInterface callee = resolveCalledFunction(call, symbols);
      auto caller = call->getParentOfType<FunctionOpInterface>();
      if (!callee || !caller)
        return;
      auto it = reaching.find(callee);
      if (it == reaching.end())
        return;
      SmallVector<unsigned> numbers(it->second.begin(), it->second.end());
      for (unsigned number : numbers)
        if (number < call.getArgOperands().size())
          if (std::optional<unsigned> outer =
                  argumentOf(call.getArgOperands()[number], caller))
            grew |= reaching[caller].insert(*outer).second;
    });
  }
  return reaching;
}

bool mlir::obs::provedApart(Value first, Value second) {
  std::optional<ByteInterval> a = getByteInterval(first),
                              b = getByteInterval(second);
  if (!a || !b)
    return false;
  using Comparison = ValueBoundsConstraintSet::ComparisonOperator;
  return ValueBoundsConstraintSet::compare(a->end, Comparison::LE, b->begin) ||
         ValueBoundsConstraintSet::compare(b->end, Comparison::LE, a->begin);
}

bool mlir::obs::provedWithin(Value view, Value root) {
  if (view == root)
    return true;
  std::optional<ByteInterval> inner = getByteInterval(view),
                              outer = getByteInterval(root);
  if (!inner || !outer)
    return false;
  using Comparison = ValueBoundsConstraintSet::ComparisonOperator;
  return ValueBoundsConstraintSet::compare(inner->begin, Comparison::GE,
                                           outer->begin) &&
         ValueBoundsConstraintSet::compare(inner->end, Comparison::LE,
                                           outer->end);
}

uint64_t mlir::obs::getAllocationAlignment(Value root) {
  auto type = cast<MemRefType>(root.getType());
  uint64_t elementBytes = getElementBytes(type);
  // A launching function's memref arguments are allocations aligned to
  // kArgumentAlignment: the function checks it as it starts
  // (convert-obs-to-gpu's entry checks).
  if (isa<BlockArgument>(root))
    return std::max<uint64_t>(kArgumentAlignment, elementBytes);
  std::optional<uint64_t> alignment;
  Operation *producer = root.getDefiningOp();
  if (auto alloc = dyn_cast_if_present<memref::AllocOp>(producer))
    alignment = alloc.getAlignment();
  else if (auto alloca = dyn_cast_if_present<memref::AllocaOp>(producer))
    alignment = alloca.getAlignment();
  else if (auto get = dyn_cast_if_present<memref::GetGlobalOp>(producer))
    if (auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
            get, get.getNameAttr()))
      alignment = global.getAlignment();
  return std::max<uint64_t>(alignment.value_or(0), elementBytes);
}
