//===- TiledLaunches.cpp - 2-D grids as grids of one dimension ------------===//
//
// A tiled launch, `grid(R, C)`, gives block (r, c) a tile of rows and
// columns of each 2-D memref. It becomes a launch of R C blocks with
// layouts, which every proof and target already handles: each memref is
// viewed as its rows of one tile's width (expand_shape splits the columns
// into tiles, collapse_shape joins a row's tiles into rows of their own),
// and a layout sends row i of block b's tile to the view's row
// `(ty TR + i) T + tx`, where (ty, tx) is the tile block b = r C + c reads
// or writes and T the number of tiles across the memref. The launch proof
// follows both views to the memref, so it compares the places of the 2-D
// memrefs themselves.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Transforms/DeviceExpansion.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::obs;

/// `memref` (R' x C' x ...) as rows of `tileColumns` elements:
/// ((R' C' / tileColumns) x tileColumns x ...).
static Value viewAsTileRows(OpBuilder &b, Location loc, Value memref,
                            int64_t tileColumns) {
  auto type = cast<MemRefType>(memref.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t across = shape[1] / tileColumns;
  SmallVector<int64_t> split{shape[0], across, tileColumns};
  SmallVector<ReassociationIndices> splitting{{0}, {1, 2}};
  SmallVector<int64_t> joined{shape[0] * across, tileColumns};
  SmallVector<ReassociationIndices> joining{{0, 1}, {2}};
  for (int64_t d = 2, e = type.getRank(); d < e; ++d) {
    split.push_back(shape[d]);
    splitting.push_back({d + 1});
    joined.push_back(shape[d]);
    joining.push_back({d + 1});
  }
  Value tiles = memref::ExpandShapeOp::create(
      b, loc, MemRefType::get(split, type.getElementType()), memref, splitting);
  return memref::CollapseShapeOp::create(
      b, loc, MemRefType::get(joined, type.getElementType()), tiles, joining);
}

/// Replaces the tiled `launch` of `kernel` by its launch over a grid of one
/// dimension (see the file's comment).
static void expandTiledLaunch(LaunchOp launch, KernelOp kernel) {
  MLIRContext *context = launch.getContext();
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  int64_t rows = *launch.getStaticGridSize();
  int64_t columns = launch.getGridColumnsAttr().getInt();
  AffineExpr block = getAffineDimExpr(0, context);
  AffineExpr element = getAffineDimExpr(1, context);
  // Block b is block (b floordiv C, b mod C) of the tiled grid.
  SmallVector<AffineExpr> blockOfGrid{block.floorDiv(columns), block % columns};
  ArrayAttr tileLayouts = launch.getLayoutsAttr();

  SmallVector<Value> memrefs(launch.getInputs());
  llvm::append_range(memrefs, launch.getOutputs());
  SmallVector<Value> views;
  SmallVector<Attribute> layouts;
  for (auto [index, memref, operand] :
       llvm::enumerate(memrefs, getLaunchOperandArrays(kernel))) {
    SmallVector<uint64_t> shape(operand.type.getShape());
    int64_t tileRows = static_cast<int64_t>(shape[0]);
    int64_t tileColumns = static_cast<int64_t>(shape[1]);
    int64_t across =
        cast<MemRefType>(memref.getType()).getDimSize(1) / tileColumns;
    AffineExpr tileRow = blockOfGrid[0], tileColumn = blockOfGrid[1];
    if (tileLayouts) {
      AffineMap tile = cast<AffineMapAttr>(tileLayouts[index]).getValue();
      tileRow = tile.getResult(0).replaceDims(blockOfGrid);
      tileColumn = tile.getResult(1).replaceDims(blockOfGrid);
    }
    AffineExpr row = (tileRow * tileRows + element) * across + tileColumn;
    layouts.push_back(AffineMapAttr::get(AffineMap::get(2, 0, row)));
    views.push_back(viewAsTileRows(b, loc, memref, tileColumns));
  }
  size_t numInputs = launch.getInputs().size();
  auto expanded = LaunchOp::create(
      b, loc, launch.getKernelAttr(), /*dynamic_grid=*/Value(),
      b.getI64IntegerAttr(rows * columns), /*grid_columns=*/IntegerAttr(),
      ArrayRef(views).take_front(numInputs),
      ArrayRef(views).drop_front(numInputs), b.getArrayAttr(layouts));
  // What else the launch carries (attributes of the user's) stays with it.
  for (NamedAttribute attr : launch->getDiscardableAttrs())
    expanded->setAttr(attr.getName(), attr.getValue());
  // The proof names blocks as the user wrote them: (row, column).
  ObsDialect::TiledColumnsAttrHelper(context).setAttr(
      expanded, b.getI64IntegerAttr(columns));
  launch.erase();
}

LogicalResult mlir::obs::expandTiledLaunches(ModuleOp module) {
  SmallVector<LaunchOp> tiled;
  module.walk([&](LaunchOp launch) {
    if (launch.isTiled())
      tiled.push_back(launch);
  });
  SymbolTableCollection symbols;
  for (LaunchOp launch : tiled) {
    auto kernel = symbols.lookupNearestSymbolFrom<KernelOp>(
        launch, launch.getKernelAttr());
    // The verifier has checked the launch against its kernel; a launch
    // that names no kernel was refused there.
    if (!kernel)
      return launch.emitOpError() << "launches @" << launch.getKernel()
                                  << ", which is not an obs.kernel";
    expandTiledLaunch(launch, kernel);
  }
  return success();
}
