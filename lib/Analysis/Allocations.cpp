//===- Allocations.cpp - memrefs followed to their allocations ------------===//

#include "Obs/Analysis/Allocations.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/MemoryBytes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
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

FailureOr<AllocationView> mlir::obs::followToAllocation(Value memref,
                                                        Operation *user,
                                                        const Twine &describe) {
  auto type = cast<MemRefType>(memref.getType());
  AllocationView placement;
  placement.elementBytes = getElementBytes(type);
  auto strides = staticStrides(type);
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
    // offset (static) for one that was only known at run time.
    if (!staticStrides(cast<MemRefType>(current.getType()))) {
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
    if (auto view = dyn_cast_if_present<memref::ViewOp>(producer)) {
      APInt shift;
      if (matchPattern(view.getByteShift(), m_ConstantInt(&shift))) {
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
  placement.root = canonicalAllocation(current);
  return placement;
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
