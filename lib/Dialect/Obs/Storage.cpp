//===- Storage.cpp - how arrays are laid out in memory --------------------===//

#include "Obs/Dialect/Obs/Storage.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::obs;

SmallVector<MemRefType> mlir::obs::getStorageTypes(ArrType type,
                                                   Attribute memorySpace) {
  SmallVector<int64_t> shape;
  for (uint64_t length : type.getShape())
    shape.push_back(static_cast<int64_t>(length));
  return llvm::map_to_vector(
      flattenElementType(type.getLeafType()), [&](Type scalar) {
        return MemRefType::get(shape, scalar, MemRefLayoutAttrInterface(),
                               memorySpace);
      });
}

LeafReader mlir::obs::makeStorageReader(SmallVector<Value> components) {
  return [components](OpBuilder &builder, Location loc, ValueRange path) {
    return llvm::map_to_vector(components, [&](Value memref) -> Value {
      return memref::LoadOp::create(builder, loc, memref, path);
    });
  };
}

void mlir::obs::storeLeaf(OpBuilder &builder, Location loc,
                          ValueRange components, ValueRange scalars,
                          ValueRange path) {
  for (auto [memref, scalar] : llvm::zip_equal(components, scalars))
    memref::StoreOp::create(builder, loc, scalar, memref, path);
}
