//===- Storage.cpp - how arrays are laid out in memory --------------------===//

#include "Obs/Dialect/Obs/Storage.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/MemoryBytes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::obs;

SmallVector<MemRefType> mlir::obs::getStorageTypes(ArrType type,
                                                   Attribute memorySpace,
                                                   uint64_t rowPadding) {
  SmallVector<int64_t> shape;
  for (uint64_t length : type.getShape())
    shape.push_back(static_cast<int64_t>(length));
  shape = getPaddedShape(shape, rowPadding);
  return llvm::map_to_vector(
      flattenElementType(type.getLeafType()), [&](Type scalar) {
        return MemRefType::get(shape, scalar, MemRefLayoutAttrInterface(),
                               memorySpace);
      });
}

SmallVector<int64_t> mlir::obs::getPaddedShape(ArrayRef<int64_t> shape,
                                               uint64_t rowPadding) {
  SmallVector<int64_t> padded(shape);
  if (!rowPadding)
    return padded;
  if (padded.size() >= 2) {
    padded.back() += static_cast<int64_t>(rowPadding);
    return padded;
  }
  return {llvm::divideCeilSigned(padded.front(), kPaddedRowElements),
          kPaddedRowElements + static_cast<int64_t>(rowPadding)};
}

bool mlir::obs::ownsSharedRows(Operation *op) {
  if (!isa<SyncOp, RepeatOp>(op) || op->getNumResults() != 1)
    return false;
  auto type = dyn_cast<ArrType>(op->getResult(0).getType());
  return type && (type.getShape().size() > 1 ||
                  type.getLength() >= 2 * kPaddedRowElements);
}

SmallVector<Value> mlir::obs::getStoragePlace(OpBuilder &builder, Location loc,
                                              Value memref, ValueRange path) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == static_cast<int64_t>(path.size()))
    return SmallVector<Value>(path);
  // A padded one-dimensional buffer: rows of kPaddedRowElements.
  Value width =
      arith::ConstantIndexOp::create(builder, loc, kPaddedRowElements);
  return {arith::DivUIOp::create(builder, loc, path.front(), width),
          arith::RemUIOp::create(builder, loc, path.front(), width)};
}

uint64_t mlir::obs::getSharedPadding(Operation *owner) {
  IntegerAttr padding =
      ObsDialect::SharedPaddingAttrHelper(owner->getContext()).getAttr(owner);
  return padding ? static_cast<uint64_t>(padding.getInt()) : 0;
}

uint64_t mlir::obs::getArrayBytes(ArrType type, uint64_t rowPadding) {
  uint64_t bytes = 0;
  for (MemRefType storage : getStorageTypes(type, {}, rowPadding))
    bytes += getTotalBytes(storage);
  return bytes;
}

LeafReader mlir::obs::makeStorageReader(SmallVector<Value> components) {
  return [components](OpBuilder &builder, Location loc, ValueRange path) {
    return llvm::map_to_vector(components, [&](Value memref) -> Value {
      return memref::LoadOp::create(
          builder, loc, memref, getStoragePlace(builder, loc, memref, path));
    });
  };
}

LeafReader mlir::obs::makePresentStorageReader(SmallVector<Value> components,
                                               SmallVector<Value> lengths,
                                               SmallVector<TypedAttr> absent) {
  return [components, lengths, absent](OpBuilder &builder, Location loc,
                                       ValueRange path) {
    SmallVector<Value> scalars;
    for (auto [memref, length, value] :
         llvm::zip_equal(components, lengths, absent)) {
      Value present = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, path[0], length);
      auto ifPresent = scf::IfOp::create(builder, loc, value.getType(), present,
                                         /*withElseRegion=*/true);
      OpBuilder then = ifPresent.getThenBodyBuilder();
      scf::YieldOp::create(
          then, loc,
          memref::LoadOp::create(then, loc, memref,
                                 getStoragePlace(then, loc, memref, path))
              .getResult());
      OpBuilder otherwise = ifPresent.getElseBodyBuilder();
      scf::YieldOp::create(
          otherwise, loc,
          arith::ConstantOp::create(otherwise, loc, value).getResult());
      scalars.push_back(ifPresent.getResult(0));
    }
    return scalars;
  };
}

void mlir::obs::storeLeaf(OpBuilder &builder, Location loc,
                          ValueRange components, ValueRange scalars,
                          ValueRange path) {
  for (auto [memref, scalar] : llvm::zip_equal(components, scalars))
    memref::StoreOp::create(builder, loc, scalar, memref,
                            getStoragePlace(builder, loc, memref, path));
}
