//===- ObsLaunchOps.cpp - launches, scatters and device-level ops ---------===//
//
// The verifiers and builders of the ops that reach past a block: obs.launch,
// obs.scatter, obs.block_id and obs.extent, and the device-level ops
// (ObsOps.cpp has the rest, and the ops' generated definitions).
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/CompiledLayout.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/Formatting.h"
#include "OpVerifiers.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::detail;

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

SmallVector<AffineMap> LaunchOp::getLayoutsOrChunks(KernelOp kernel) {
  if (ArrayAttr layouts = getLayoutsAttr())
    return llvm::map_to_vector(layouts, [](Attribute attr) {
      return cast<AffineMapAttr>(attr).getValue();
    });
  MLIRContext *context = getContext();
  AffineExpr block = getAffineDimExpr(0, context);
  AffineExpr element = getAffineDimExpr(1, context);
  return llvm::map_to_vector(
      getLaunchOperandArrays(kernel), [&](const LaunchOperandArray &operand) {
        // Every block sees a whole operand alike.
        if (operand.whole)
          return AffineMap::get(2, 0, element);
        return AffineMap::get(
            2, 0,
            block * static_cast<int64_t>(operand.type.getLength()) + element);
      });
}

FailureOr<SmallVector<std::pair<LaunchOp, KernelOp>>>
mlir::obs::collectLaunchesOfKernelsIn(Operation *module) {
  SmallVector<std::pair<LaunchOp, KernelOp>> launches;
  SymbolTableCollection symbolTables;
  WalkResult result = module->walk([&](LaunchOp launch) {
    auto kernel = symbolTables.lookupNearestSymbolFrom<KernelOp>(
        launch, launch.getKernelAttr());
    if (!kernel || kernel->getParentOp() != module) {
      launch.emitOpError()
          << "launches @" << launch.getKernel()
          << ", which is not an obs.kernel of the module being converted (a "
             "nested module's kernels and launches are converted on their "
             "own)";
      return WalkResult::interrupt();
    }
    launches.emplace_back(launch, kernel);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return launches;
}

void LaunchOp::build(OpBuilder &builder, OperationState &state,
                     StringRef kernel, int64_t grid, ValueRange inputs,
                     ValueRange outputs) {
  build(builder, state, kernel, /*dynamic_grid=*/Value(),
        builder.getI64IntegerAttr(grid), /*grid_columns=*/IntegerAttr(), inputs,
        outputs, ArrayAttr());
}

void LaunchOp::build(OpBuilder &builder, OperationState &state,
                     StringRef kernel, Value grid, ValueRange inputs,
                     ValueRange outputs) {
  build(builder, state, kernel, grid, IntegerAttr(),
        /*grid_columns=*/IntegerAttr(), inputs, outputs, ArrayAttr());
}

bool LaunchOp::hasDynamicSizes() {
  if (getDynamicGrid())
    return true;
  auto dynamic = [](Value memref) {
    return !cast<MemRefType>(memref.getType()).hasStaticShape();
  };
  return llvm::any_of(getInputs(), dynamic) ||
         llvm::any_of(getOutputs(), dynamic);
}

Value LaunchOp::buildGridSize(OpBuilder &builder) {
  if (Value grid = getDynamicGrid())
    return grid;
  return arith::ConstantIndexOp::create(builder, getLoc(),
                                        *getStaticGridSize());
}

LogicalResult LaunchOp::verify() {
  if (static_cast<bool>(getDynamicGrid()) == static_cast<bool>(getGridAttr()))
    return emitOpError() << "needs its grid as a constant or as an index "
                            "value: it has "
                         << (getGridAttr() ? "both" : "neither");
  auto checkMemRefs = [&](StringRef which,
                          ValueRange memrefs) -> LogicalResult {
    for (auto [index, memref] : llvm::enumerate(memrefs)) {
      auto type = cast<MemRefType>(memref.getType());
      // obs places a launch's memrefs on the device itself (the host
      // program's memory on cpu and ref, device memory on cuda); a memref
      // of another space has no meaning there, and the lowerings' views of
      // it dropped the space (an internal error on some targets only).
      if (type.getMemorySpace())
        return emitOpError()
               << which << " " << index << " has type " << type
               << ": a launch's memrefs are in the default memory space";
      if (llvm::any_of(type.getShape().drop_front(), ShapedType::isDynamic))
        return emitOpError()
               << which << " " << index << " has type " << type
               << ": only the outermost dimension of a launch's memref may "
                  "be dynamic (it holds the blocks' chunks)";
    }
    return success();
  };
  if (failed(checkMemRefs("ins", getInputs())) ||
      failed(checkMemRefs("outs", getOutputs())))
    return failure();
  if (isTiled()) {
    if (getDynamicGrid() || hasDynamicSizes())
      return emitOpError() << "tiles 2-D memrefs over a grid of rows and "
                              "columns of blocks, which needs static sizes";
    if (*getStaticGridSize() * getGridColumnsAttr().getInt() > 2147483647)
      return emitOpError()
             << "runs " << *getStaticGridSize() << " x "
             << getGridColumnsAttr().getInt()
             << " blocks, more than 2^31 - 1 (CUDA's limit on a grid)";
  }
  if (getLayoutsAttr() && hasDynamicSizes())
    return emitOpError() << "has layouts and sizes known only at run time: "
                            "layouts place blocks in memrefs of static sizes";
  return success();
}

bool mlir::obs::isRowMajorAtAnyOffset(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  int64_t expected = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (strides[d] != expected)
      return false;
    if (d > 0 && ShapedType::isDynamic(type.getDimSize(d)))
      return false;
    if (d > 0)
      expected *= type.getDimSize(d);
  }
  return true;
}

/// The first divisor of a floordiv, ceildiv or mod in `expr` that is not
/// positive. Every target expands a layout into index arithmetic, where a
/// division by zero or a negative number has no meaning (and no
/// expansion); a layout has no symbols, so every divisor is a constant.
static std::optional<int64_t> findNonPositiveDivisor(AffineExpr expr) {
  std::optional<int64_t> found;
  expr.walk([&](AffineExpr sub) {
    auto binary = dyn_cast<AffineBinaryOpExpr>(sub);
    if (!binary || binary.getKind() == AffineExprKind::Add ||
        binary.getKind() == AffineExprKind::Mul || found)
      return;
    auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    if (divisor && divisor.getValue() <= 0)
      found = divisor.getValue();
  });
  return found;
}

/// Checks `launch`'s `layouts` as maps over its memrefs, whose arrays
/// `operands` gives: one map per memref, each of 2 dimensions, no symbols
/// and `numResults` results (`shape` says which, for the error), dividing
/// only by positive constants, and one map for the memrefs of one array.
/// Shared by launches of one dimension, `(b, i) -> (index)`, and tiled
/// ones, `(r, c) -> (tile row, tile column)`.
static LogicalResult verifyLayoutMaps(LaunchOp launch,
                                      ArrayRef<AffineMap> layouts,
                                      ArrayRef<LaunchOperandArray> operands,
                                      unsigned numResults, StringRef shape) {
  if (layouts.size() != operands.size())
    return launch.emitOpError()
           << "has " << layouts.size() << " layouts for " << operands.size()
           << " memrefs: give one per memref";
  for (auto [index, layout] : llvm::enumerate(layouts)) {
    if (layout.getNumDims() != 2 || layout.getNumSymbols() != 0 ||
        layout.getNumResults() != numResults)
      return launch.emitOpError()
             << (launch.isTiled() ? "tiles its memrefs, so layout " : "layout ")
             << index << " must be a map " << shape << ", but is "
             << AffineMapAttr::get(layout);
    for (AffineExpr result : layout.getResults())
      if (std::optional<int64_t> badDivisor = findNonPositiveDivisor(result))
        return launch.emitOpError()
               << "layout " << index << " divides by " << *badDivisor
               << ": a layout divides only by positive constants";
    if (index > 0 && operands[index].array == operands[index - 1].array &&
        layout != layouts[index - 1])
      return launch.emitOpError()
             << "layouts " << index - 1 << " and " << index
             << " differ, but their memrefs store one array: give the "
                "memrefs of an array one layout";
  }
  return success();
}

/// A launch with layouts places every array by them: an operand whose
/// places are its own (an `obs.global` argument, an obs.carry's chain or a
/// global scatter's result, which every block sees whole, or a halo
/// argument) is refused.
/// `inputs` and `outputs` say which kernel array each operand stores.
static LogicalResult
verifyNoPlacesOfTheirOwn(LaunchOp launch, KernelOp kernel,
                         ArrayRef<LaunchOperandArray> inputs,
                         ArrayRef<LaunchOperandArray> outputs) {
  for (auto [index, operand] : llvm::enumerate(inputs)) {
    bool halo = static_cast<bool>(getHalo(kernel, operand.array));
    if (!halo && !operand.whole)
      continue;
    InFlightDiagnostic diag = launch.emitOpError()
                              << "has layouts, but ins " << index << " holds ";
    if (halo)
      diag << "an argument with a halo, whose places the halo says";
    else if (operand.chain)
      diag << "the chain of an obs.carry, which every block's carry reads "
              "and writes whole";
    else
      diag << "an 'obs.global' argument, which every block sees whole";
    diag << ": launch it without layouts";
    diag.attachNote(kernel.getLoc()) << "the kernel";
    return diag;
  }
  for (auto [index, operand] : llvm::enumerate(outputs))
    if (operand.whole) {
      InFlightDiagnostic diag =
          launch.emitOpError()
          << "has layouts, but outs " << index << " holds a global "
          << "obs.scatter's result, which every block sees whole: launch "
             "it without layouts";
      diag.attachNote(
          kernel.getGlobalScatter(operand.array - kernel.getNumArguments())
              .getLoc())
          << "the scatter";
      return diag;
    }
  return success();
}

/// A bound on the magnitude of every value `expr` computes over dims in
/// [0, `extents`), or none past 2^62: below it, no step of the expression
/// (nor of getBoundForAffineExpr's bounds of it) wraps in 64 bits.
static std::optional<uint64_t> boundMagnitude(AffineExpr expr,
                                              ArrayRef<int64_t> extents) {
  constexpr uint64_t kMost = uint64_t(1) << 62;
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return static_cast<uint64_t>(extents[dim.getPosition()]);
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    uint64_t magnitude = constant.getValue() < 0
                             ? 0 - static_cast<uint64_t>(constant.getValue())
                             : static_cast<uint64_t>(constant.getValue());
    return magnitude < kMost ? std::optional<uint64_t>(magnitude)
                             : std::nullopt;
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  std::optional<uint64_t> lhs = boundMagnitude(binary.getLHS(), extents);
  std::optional<uint64_t> rhs = boundMagnitude(binary.getRHS(), extents);
  if (!lhs || !rhs)
    return std::nullopt;
  uint64_t result = 0;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    result = *lhs + *rhs;
    break;
  case AffineExprKind::Mul:
    // Both below 2^62: a product past 2^62 is refused below, and one
    // that overflows 64 bits is caught by the division back.
    result = *lhs * *rhs;
    if (*lhs != 0 && result / *lhs != *rhs)
      return std::nullopt;
    break;
  case AffineExprKind::Mod:
    result = *rhs;
    break;
  default: // floordiv and ceildiv by at least 1 in magnitude
    result = *lhs + 1;
    break;
  }
  return result < kMost ? std::optional<uint64_t>(result) : std::nullopt;
}

/// Fails, with the error at `launch`, where layout `index`, `tile`, sends a
/// block of the `rows` x `columns` grid outside the `down` x `across` tiles
/// of its memref `type`. A tile column past the last would otherwise be,
/// once the launch is expanded to rows of one tile's width, the next row's
/// first tile: inside the memref, where the launch proof could not tell it
/// from the tile the layout means. Layouts whose every value stays far
/// from 2^63 are bounded over the grid at once; others are evaluated block
/// by block, exactly (a bound of r * 2^62 wrapped to a negative maximum,
/// and the evaluation wrapped too: a tile at row 2^62 was taken for tile 0,
/// found by an adversarial run).
static LogicalResult verifyTilesInside(LaunchOp launch, size_t index,
                                       AffineMap tile, int64_t rows,
                                       int64_t columns, int64_t down,
                                       int64_t across, MemRefType type) {
  SmallVector<std::optional<int64_t>> lower{0, 0}, upper{rows - 1, columns - 1};
  SmallVector<int64_t> limits{down, across}, extents{rows, columns};
  bool bounded = true;
  for (auto [result, limit] : llvm::zip_equal(tile.getResults(), limits)) {
    if (!boundMagnitude(result, extents)) {
      bounded = false;
      break;
    }
    std::optional<int64_t> least =
        getBoundForAffineExpr(result, 2, 0, lower, upper, /*isUpper=*/false);
    std::optional<int64_t> most =
        getBoundForAffineExpr(result, 2, 0, lower, upper, /*isUpper=*/true);
    bounded &= least && most && *least >= 0 && *most < limit;
  }
  if (bounded)
    return success();
  if (static_cast<uint64_t>(rows * columns) > LaunchOp::kMostProvedPlaces)
    return launch.emitOpError()
           << "has " << rows << " x " << columns << " blocks, more than the "
           << LaunchOp::kMostProvedPlaces << " whose tiles layout " << index
           << " places one by one: split it into launches of fewer blocks";
  CompiledLayout row(tile.getResult(0)), column(tile.getResult(1));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < columns; ++c) {
      std::optional<int64_t> at[] = {row(r, c), column(r, c)};
      if (at[0] && at[1] && *at[0] >= 0 && *at[0] < down && *at[1] >= 0 &&
          *at[1] < across)
        continue;
      auto spell = [](std::optional<int64_t> value) {
        return value ? std::to_string(*value) : std::string("none");
      };
      return launch.emitOpError()
             << "layout " << index << " places block (" << r << ", " << c
             << ") at tile (" << spell(at[0]) << ", " << spell(at[1])
             << "), outside the " << down << " x " << across << " tiles of "
             << type;
    }
  return success();
}

/// A tiled launch (`grid(R, C)`): each array of `kernel` is a tile
/// `!obs.arr<TR x !obs.arr<TC x T>>`, passed as a 2-D memref of whole tiles
/// (`R TR` by `C TC` without layouts), and `layouts`, where given, are maps
/// `(r, c) -> (tile row, tile column)`.
static LogicalResult verifyTiledLaunch(LaunchOp launch, KernelOp kernel) {
  int64_t rows = *launch.getStaticGridSize();
  int64_t columns = launch.getGridColumnsAttr().getInt();
  bool laidOut = static_cast<bool>(launch.getLayoutsAttr());
  SmallVector<Value> memrefs(launch.getInputs());
  llvm::append_range(memrefs, launch.getOutputs());
  SmallVector<LaunchOperandArray> operands = getLaunchOperandArrays(kernel);
  if (memrefs.size() != operands.size())
    return launch.emitOpError()
           << "passes " << memrefs.size() << " memrefs, but @"
           << launch.getKernel() << " takes and gives " << operands.size()
           << " (one per scalar of each array's element)";
  unsigned numInputs = launch.getInputs().size();
  for (auto [index, memref, operand] : llvm::enumerate(memrefs, operands)) {
    bool isInput = index < numInputs;
    StringRef which = isInput ? "ins" : "outs";
    unsigned position = isInput ? index : index - numInputs;
    bool halo = operand.array < kernel.getNumArguments() &&
                static_cast<bool>(getHalo(kernel, operand.array));
    if (operand.whole || halo) {
      InFlightDiagnostic diag =
          launch.emitOpError()
          << "tiles its memrefs, but " << which << " " << position << " holds "
          << (halo      ? "an argument with a halo"
              : isInput ? "an 'obs.global' argument"
                        : "a global obs.scatter's result")
          << ", which a tiled launch does not take: launch it over a grid "
             "of one dimension";
      diag.attachNote(kernel.getLoc()) << "the kernel";
      return diag;
    }
    SmallVector<uint64_t> shape(operand.type.getShape());
    auto type = cast<MemRefType>(memref.getType());
    // A tile of no rows or no columns tiles nothing, and places a block's
    // tile by dividing by its sizes.
    if (shape.size() >= 2 && (shape[0] == 0 || shape[1] == 0)) {
      InFlightDiagnostic diag =
          launch.emitOpError()
          << "tiles its memrefs, but " << which << " " << position << " holds "
          << operand.type
          << ", a tile of no rows or no columns: a tile has at least one of "
             "each";
      diag.attachNote(kernel.getLoc()) << "the kernel";
      return diag;
    }
    Type scalar =
        flattenElementType(operand.type.getLeafType())[operand.component];
    bool ok = shape.size() >= 2 && type.getRank() == int64_t(shape.size()) &&
              type.getElementType() == scalar &&
              type.getLayout().isIdentity() && type.hasStaticShape();
    for (size_t d = 2; ok && d < shape.size(); ++d)
      ok = type.getDimSize(d) == int64_t(shape[d]);
    if (ok && laidOut)
      ok = type.getDimSize(0) % int64_t(shape[0]) == 0 &&
           type.getDimSize(1) % int64_t(shape[1]) == 0;
    else if (ok)
      ok = type.getDimSize(0) == rows * int64_t(shape[0]) &&
           type.getDimSize(1) == columns * int64_t(shape[1]);
    if (ok)
      continue;
    InFlightDiagnostic diag = launch.emitOpError()
                              << "tiles its memrefs, but " << which << " "
                              << position << " is " << type << " for ";
    if (shape.size() < 2) {
      diag << operand.type << ", which is not a tile: tiled launches take "
           << "kernels whose arrays are arrays of rows "
           << "(!obs.arr<TR x !obs.arr<TC x T>>)";
      return diag;
    }
    SmallVector<int64_t> expected;
    expected.push_back(laidOut ? int64_t(shape[0]) : rows * int64_t(shape[0]));
    expected.push_back(laidOut ? int64_t(shape[1])
                               : columns * int64_t(shape[1]));
    for (size_t d = 2; d < shape.size(); ++d)
      expected.push_back(int64_t(shape[d]));
    diag << "tiles of " << shape[0] << " x " << shape[1] << ": it must be "
         << MemRefType::get(expected, scalar);
    if (laidOut)
      diag << " or any whole number of tiles in each of its first two "
              "dimensions";
    else
      diag << ", " << rows << " x " << columns << " tiles";
    diag << ", with no layout";
    return diag;
  }
  if (!laidOut)
    return success();
  SmallVector<AffineMap> layouts = launch.getLayoutsOrChunks(kernel);
  if (failed(verifyLayoutMaps(
          launch, layouts, operands, /*numResults=*/2,
          "(block row, block column) -> (tile row, tile column)")))
    return failure();
  for (auto [index, memref, operand] : llvm::enumerate(memrefs, operands)) {
    auto type = cast<MemRefType>(memref.getType());
    // The memrefs of one array have one shape, one tile and one layout:
    // the first of them stands for the others.
    bool sameArray = index > 0 && operand.array == operands[index - 1].array;
    if (sameArray &&
        type.getShape() !=
            cast<MemRefType>(memrefs[index - 1].getType()).getShape())
      return launch.emitOpError()
             << "tiles its memrefs, but " << index - 1 << " and " << index
             << " (of ins, then outs) store one array in memrefs of two "
                "shapes: give the memrefs of an array one shape";
    if (sameArray)
      continue;
    SmallVector<uint64_t> shape(operand.type.getShape());
    int64_t down = type.getDimSize(0) / static_cast<int64_t>(shape[0]);
    int64_t across = type.getDimSize(1) / static_cast<int64_t>(shape[1]);
    if (failed(verifyTilesInside(launch, index, layouts[index], rows, columns,
                                 down, across, type)))
      return failure();
  }
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  if (failed(verifyOperandsAgainstKernel(symbolTable)))
    return failure();
  const ObsDialect::LaunchCheck &check =
      cast<ObsDialect>((*this)->getDialect())->getLaunchCheck();
  if (!check)
    return success();
  // Once per module: at its first launch, for all of them.
  Operation *module = (*this)->getParentOfType<ModuleOp>();
  while (module && module->getParentOfType<ModuleOp>())
    module = module->getParentOfType<ModuleOp>();
  LaunchOp first;
  if (module)
    module->walk([&](LaunchOp launch) {
      first = launch;
      return WalkResult::interrupt();
    });
  return first == *this ? check(module) : success();
}

LogicalResult
LaunchOp::verifyOperandsAgainstKernel(SymbolTableCollection &symbolTable) {
  auto kernel =
      symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel)
    return emitOpError() << "launches @" << getKernel()
                         << ", which is not an obs.kernel";
  if (isTiled())
    return verifyTiledLaunch(*this, kernel);
  // Each array is passed as one memref per scalar of its element, holding
  // the chunks of all blocks, or as laid out. With sizes known at run time,
  // the outermost dimension may have any length.
  bool laidOut = static_cast<bool>(getLayoutsAttr());
  bool dynamic = hasDynamicSizes();
  std::optional<int64_t> grid = getStaticGridSize();
  // The memref each operand must be (getLaunchOperandArrays says which
  // array and scalar it stores): a global scatter's result is one memref
  // for every block.
  struct Slot {
    LaunchOperandArray operand;
    MemRefType expected;
  };
  SmallVector<Slot> slots;
  for (const LaunchOperandArray &operand : getLaunchOperandArrays(kernel)) {
    SmallVector<int64_t> shape;
    for (uint64_t length : operand.type.getShape())
      shape.push_back(static_cast<int64_t>(length));
    // A halo argument's array is its block's tile and the places on each
    // side, which are other blocks' or past the ends.
    HaloAttr halo = operand.array < kernel.getNumArguments()
                        ? getHalo(kernel, operand.array)
                        : HaloAttr();
    if (halo)
      shape[0] = static_cast<int64_t>(halo.getTileLength(shape[0]));
    if (dynamic)
      shape[0] = ShapedType::kDynamic;
    else if (!operand.whole)
      shape[0] *= *grid;
    Type scalar =
        flattenElementType(operand.type.getLeafType())[operand.component];
    slots.push_back({operand, MemRefType::get(shape, scalar)});
  }
  // With layouts or dynamic sizes, the outermost dimension may differ; with
  // dynamic sizes, a memref may also start at an offset known only at run
  // time (a subview at a run-time place), row-major as the identity.
  auto matches = [&](MemRefType actual, MemRefType expected) {
    if (!laidOut && !dynamic)
      return actual == expected;
    return actual.getElementType() == expected.getElementType() &&
           actual.getRank() == expected.getRank() &&
           (dynamic ? isRowMajorAtAnyOffset(actual)
                    : actual.getLayout().isIdentity()) &&
           actual.getShape().drop_front() == expected.getShape().drop_front();
  };
  auto check = [&](StringRef which, ValueRange memrefs,
                   ArrayRef<Slot> slots) -> LogicalResult {
    bool ok = memrefs.size() == slots.size();
    for (auto [memref, slot] : llvm::zip(memrefs, slots))
      ok &= matches(cast<MemRefType>(memref.getType()), slot.expected);
    if (ok)
      return success();
    SmallVector<Type> expected = llvm::map_to_vector(
        slots, [](const Slot &slot) -> Type { return slot.expected; });
    InFlightDiagnostic diag = emitOpError() << "passes " << which << " "
                                            << formatTypes(memrefs.getTypes())
                                            << ", but @" << getKernel();
    if (grid && !dynamic)
      diag << " over " << *grid << " blocks";
    diag << " needs " << formatTypes(expected);
    if (laidOut)
      diag << " (with layouts, the outermost dimensions may differ)";
    else if (dynamic)
      diag << " (the outermost dimensions may have any length)";
    return diag;
  };
  auto firstOutput = llvm::find_if(slots, [&](const Slot &slot) {
    return slot.operand.array >= kernel.getNumArguments();
  });
  ArrayRef<Slot> inputs(slots.begin(), firstOutput),
      outputs(firstOutput, slots.end());
  if (failed(verifyChainLength(*this, kernel)) ||
      failed(check("ins", getInputs(), inputs)) ||
      failed(check("outs", getOutputs(), outputs)))
    return failure();
  auto operandsOf = [](ArrayRef<Slot> slots) {
    return llvm::map_to_vector(slots,
                               [](const Slot &slot) { return slot.operand; });
  };
  if (laidOut && failed(verifyNoPlacesOfTheirOwn(
                     *this, kernel, operandsOf(inputs), operandsOf(outputs))))
    return failure();
  if (dynamic) {
    // A partial block reads its absent elements as the kernel says. A
    // halo argument's places outside the memref read as its boundary says
    // (`zero`: the absent value, or zeros without one, which the expansion
    // then writes as its absent value).
    for (unsigned index = 0, e = kernel.getNumArguments(); index < e; ++index)
      if (!getHalo(kernel, index) && !isChainArgument(kernel, index) &&
          !kernel.getArgAttr(index,
                             ObsDialect::AbsentAttrHelper::getNameStr())) {
        // What makes its sizes run-time ones: a user who wrote a static
        // grid and one memref<?> (a global scatter's bound) sees which.
        std::string why = "its grid is a value";
        if (!getDynamicGrid()) {
          auto isDynamic = [](Value memref) {
            return !cast<MemRefType>(memref.getType()).hasStaticShape();
          };
          auto input = llvm::find_if(getInputs(), isDynamic);
          why = input != getInputs().end()
                    ? "ins " + std::to_string(
                                   std::distance(getInputs().begin(), input))
                    : "outs " + std::to_string(std::distance(
                                    getOutputs().begin(),
                                    llvm::find_if(getOutputs(), isDynamic)));
          why += " has a size known only at run time";
        }
        InFlightDiagnostic diag =
            emitOpError()
            << "has sizes known only at run time (" << why
            << "), so its last blocks may be partial, but argument " << index
            << " of @" << getKernel() << " does not say what its "
            << "absent elements read as: give it an 'obs.absent' value";
        diag.attachNote(kernel.getLoc()) << "the kernel";
        return diag;
      }
    return success();
  }
  if (!laidOut)
    return success();

  // Layouts: one map (b, i) -> (index) per memref, shared within an array.
  return verifyLayoutMaps(*this, getLayoutsOrChunks(kernel), operandsOf(slots),
                          /*numResults=*/1, "(block, element) -> (index)");
}

//===----------------------------------------------------------------------===//
// ScatterOp
//===----------------------------------------------------------------------===//

void ScatterOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getGlobal())
    effects.emplace_back(MemoryEffects::Write::get());
}

Speculation::Speculatability ScatterOp::getSpeculatability() {
  return getGlobal() ? Speculation::NotSpeculatable : Speculation::Speculatable;
}

LogicalResult ScatterOp::verify() {
  ArrType values = arrType(getValues()), places = arrType(getPlaces());
  ArrType result = getType();
  if (values.getLength() != places.getLength())
    return emitOpError() << "writes one value per place, but has "
                         << values.getLength() << " values and "
                         << places.getLength() << " places";
  Type element = values.getElementType();
  if (!element.isIntOrFloat())
    return emitOpError() << "scatters scalars, not " << element;
  if (!places.getElementType().isInteger())
    return emitOpError() << "takes places that are integers, not "
                         << places.getElementType();
  if (result.getElementType() != element)
    return emitOpError() << "has a result of " << result.getElementType()
                         << " elements, but scatters " << element;
  if (static_cast<bool>(getInitialAttr()) == getGlobal())
    return emitOpError() << "needs either an `initial` value (a result in "
                            "shared memory) or `global` (a result that is "
                            "the launch's memref), and only one";
  if (TypedAttr initial = getInitialAttr();
      initial && !isa<IntegerAttr, FloatAttr>(initial)) {
    std::string spelled;
    llvm::raw_string_ostream(spelled) << element;
    return emitOpError() << "has the initial value " << initial
                         << ", which is no number: give a constant of the "
                            "element type, as initial(0 : "
                         << spelled << ")";
  }
  if (getInitialAttr() && getInitialAttr().getType() != element)
    return emitOpError() << "has an initial value of type "
                         << getInitialAttr().getType()
                         << ", not the element type " << element;
  if (getGlobal()) {
    // Its result is the memref a launch passes for one of the kernel's
    // results: nothing inside the kernel may read it.
    Value result = getResult();
    auto ret = dyn_cast<ReturnOp>(getOperation()->getBlock()->getTerminator());
    if (!result.hasOneUse() || !ret || *result.user_begin() != ret)
      return emitOpError() << "is `global`, so its result must be returned "
                              "by its kernel, once, and have no other use";
  }
  std::optional<ScatterCombine> combine = getCombine();
  // A combine is an atomic read-modify-write of the place, and no target
  // has one for a single bit (LLVM's atomicrmw takes whole bytes); ref,
  // which needs none, took i1 where cpu and cuda failed inside LLVM.
  if (combine && element.isInteger(1))
    return emitOpError() << "cannot combine i1 elements: a combine is an "
                            "atomic update of its place, which takes a whole "
                            "byte; scatter i8 values (0 or 1) instead";
  if (!combine || !isa<FloatType>(element) || *combine == ScatterCombine::Min ||
      *combine == ScatterCombine::Max)
    return success();
  // Collisions merge in whatever order the threads (and blocks) reach the
  // place. min and max pick the same float in any order; a float sum rounds
  // differently in each, so targets and thread orders would disagree.
  if (*combine == ScatterCombine::Add)
    return emitOpError() << "cannot combine floats with `add`: collisions "
                            "merge in no fixed order, and a float sum's "
                            "rounding depends on it; `min` and `max` apply "
                            "to floats";
  return emitOpError() << "cannot combine floats with `"
                       << stringifyScatterCombine(*combine)
                       << "`: `min` and `max` apply to floats";
}

std::pair<Value, Value> ScatterOp::buildPlace(OpBuilder &builder, Location loc,
                                              Value place) {
  Value index =
      arith::IndexCastOp::create(builder, loc, builder.getIndexType(), place);
  // A negative place is past the end as an unsigned index.
  Value length =
      arith::ConstantIndexOp::create(builder, loc, getType().getLength());
  Value inside = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                       index, length);
  return {index, inside};
}

std::pair<Value, Value> ScatterOp::buildPlace(OpBuilder &builder, Location loc,
                                              Value place, Value length) {
  auto [index, inside] = buildPlace(builder, loc, place);
  Value present = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                        index, length);
  return {index, arith::AndIOp::create(builder, loc, inside, present)};
}

arith::AtomicRMWKind ScatterOp::getAtomicKind() {
  bool isFloat = isa<FloatType>(getType().getElementType());
  switch (*getCombine()) {
  case ScatterCombine::Add:
    return isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
  case ScatterCombine::Min:
    return isFloat ? arith::AtomicRMWKind::minimumf
                   : arith::AtomicRMWKind::mins;
  case ScatterCombine::Max:
    return isFloat ? arith::AtomicRMWKind::maximumf
                   : arith::AtomicRMWKind::maxs;
  case ScatterCombine::Or:
    return arith::AtomicRMWKind::ori;
  case ScatterCombine::And:
    return arith::AtomicRMWKind::andi;
  }
  llvm_unreachable("unknown scatter combine");
}

//===----------------------------------------------------------------------===//
// BlockIdOp, ExtentOp
//===----------------------------------------------------------------------===//

LogicalResult BlockIdOp::verify() {
  if (!(*this)->getParentOfType<KernelOp>())
    return emitOpError() << "belongs in an obs.kernel";
  return success();
}

LogicalResult ExtentOp::verify() {
  auto argument = dyn_cast<BlockArgument>(getArray());
  if (!argument ||
      !isa_and_present<KernelOp>(argument.getOwner()->getParentOp()))
    return emitOpError() << "needs an argument of its kernel: only the "
                            "arrays a launch passes in have a present part";
  auto kernel = cast<KernelOp>(argument.getOwner()->getParentOp());
  if (getHalo(kernel, argument.getArgNumber()))
    return emitOpError()
           << "takes the extent of an argument with a halo, whose places "
              "are all read (past the memref's ends, as its boundary "
              "says): take another argument's, or the output's tile";
  return success();
}

//===----------------------------------------------------------------------===//
// Device-level ops
//===----------------------------------------------------------------------===//

/// The scalars of memrefs `memrefs` (each of rank 1), or an error naming
/// `which` when one holds no array element scalar.
static FailureOr<SmallVector<Type>>
deviceScalars(Operation *op, ValueRange memrefs, StringRef which) {
  if (memrefs.empty())
    return op->emitOpError()
           << "needs at least one memref in `" << which << "`";
  SmallVector<Type> types;
  for (auto [index, memref] : llvm::enumerate(memrefs)) {
    auto type = cast<MemRefType>(memref.getType());
    if (!isScalarElementType(type.getElementType()) ||
        !type.getLayout().isIdentity() || type.getMemorySpace())
      return op->emitOpError()
             << which << " " << index << " has type " << type
             << ": a device array is memrefs of i1, i8, i16, i32, i64, f16, "
                "f32 or f64 with no layout, in the default memory space, one "
                "per scalar of its element";
    types.push_back(type.getElementType());
  }
  return types;
}

/// `identity` holds one typed constant of each of `types`.
static LogicalResult verifyIdentity(Operation *op, ArrayAttr identity,
                                    TypeRange types) {
  SmallVector<Type> given;
  for (Attribute value : identity)
    given.push_back(isa<IntegerAttr, FloatAttr>(value)
                        ? cast<TypedAttr>(value).getType()
                        : NoneType::get(op->getContext()));
  if (given != SmallVector<Type>(types))
    return op->emitOpError()
           << "identity must be one constant of each of " << formatTypes(types)
           << ", not of " << formatTypes(given);
  return success();
}

/// Inputs and outputs of one element type: its scalars.
static FailureOr<SmallVector<Type>>
verifySameElements(Operation *op, ValueRange inputs, ValueRange outputs) {
  FailureOr<SmallVector<Type>> in = deviceScalars(op, inputs, "ins");
  if (failed(in))
    return failure();
  FailureOr<SmallVector<Type>> out = deviceScalars(op, outputs, "outs");
  if (failed(out))
    return failure();
  if (*in != *out)
    return op->emitOpError()
           << "outs must hold the element type of ins, " << formatTypes(*in)
           << ", not " << formatTypes(*out);
  return in;
}

/// Inputs and outputs of one element type, the outputs of length 1 when
/// `single`.
static LogicalResult verifyFoldOperands(Operation *op, ValueRange inputs,
                                        ValueRange outputs, ArrayAttr identity,
                                        bool single) {
  FailureOr<SmallVector<Type>> in = verifySameElements(op, inputs, outputs);
  if (failed(in))
    return failure();
  if (single)
    for (auto [index, memref] : llvm::enumerate(outputs))
      if (cast<MemRefType>(memref.getType()).getShape() != ArrayRef<int64_t>{1})
        return op->emitOpError()
               << "outs " << index << " has type " << memref.getType()
               << ": the result is one element, a memref<1x...> per scalar";
  return verifyIdentity(op, identity, *in);
}

LogicalResult DeviceMapOp::verify() {
  if (failed(deviceScalars(*this, getInputs(), "ins")) ||
      failed(deviceScalars(*this, getOutputs(), "outs")))
    return failure();
  // A broadcast scalar is one element: a memref<1xT>, read whole.
  for (auto [index, scalar] : llvm::enumerate(getScalars())) {
    auto type = cast<MemRefType>(scalar.getType());
    if (type.getShape() != ArrayRef<int64_t>{1} ||
        !isScalarElementType(type.getElementType()) ||
        !type.getLayout().isIdentity() || type.getMemorySpace())
      return emitOpError()
             << "scalars " << index << " has type " << type
             << ": a broadcast scalar is a memref<1xT> with no layout, in "
                "the default memory space, T one of i1, i8, i16, i32, i64, "
                "f16, f32 or f64";
    // Every element reads the scalar; an output over it would be written
    // while other blocks still read it (the launch proof refuses any
    // overlap, but names the operands of the plan, not these).
    for (auto [position, output] : llvm::enumerate(getOutputs()))
      if (output == scalar)
        return emitOpError()
               << "scalars " << index << " is also outs " << position
               << ": every element reads a broadcast scalar, so no output "
                  "may write it";
  }
  return success();
}

LogicalResult DeviceMapOp::verifyRegions() {
  SmallVector<Type> results;
  for (Value output : getOutputs())
    results.push_back(cast<MemRefType>(output.getType()).getElementType());
  if (failed(verifyElementCode(getBody())))
    return failure();
  SmallVector<Type> arguments = getElementTypes();
  llvm::append_range(arguments, getScalarTypes());
  return verifyRegionSignature(*this, getBody(), arguments, results,
                               "a scalar of each input, then of each "
                               "`scalars` memref, to one of each output");
}

LogicalResult DeviceReduceOp::verify() {
  return verifyFoldOperands(*this, getInputs(), getOutputs(), getIdentity(),
                            /*single=*/true);
}

/// A fold's or scan's combine: two elements (`element`'s scalars each) to
/// one, the two in the order `order` says.
static LogicalResult verifyCombineRegion(Operation *op, Region &body,
                                         ArrayRef<Type> element,
                                         StringRef order) {
  if (failed(verifyElementCode(body)))
    return failure();
  SmallVector<Type> both(element);
  both.append(element.begin(), element.end());
  return verifyRegionSignature(op, body, both, element, order);
}

LogicalResult DeviceReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getBody(), getElementTypes(),
                             "the accumulated element and the next, to "
                             "their combination");
}

LogicalResult DeviceScanOp::verify() {
  return verifyFoldOperands(*this, getInputs(), getOutputs(), getIdentity(),
                            /*single=*/false);
}

LogicalResult DeviceSortOp::verify() {
  if (failed(verifySameElements(*this, getInputs(), getOutputs())))
    return failure();
  // One length for every array (a shorter one has no meaning to sort by or
  // into); where a length is dynamic, the host code checks it as it runs.
  auto lengthOf = [](Value memref) {
    return cast<MemRefType>(memref.getType()).getDimSize(0);
  };
  int64_t first = lengthOf(getInputs().front());
  // Where the length is dynamic, the host code checks it as it runs.
  if (!ShapedType::isDynamic(first) && first > kMostElements)
    return emitOpError() << "sorts " << first << " elements, more than the "
                         << kMostElements << " a sort takes";
  SmallVector<Value> arrays(getInputs());
  llvm::append_range(arrays, getOutputs());
  for (auto [index, memref] : llvm::enumerate(arrays)) {
    int64_t length = lengthOf(memref);
    if (ShapedType::isDynamic(first) || ShapedType::isDynamic(length) ||
        length == first)
      continue;
    unsigned numInputs = getInputs().size();
    return emitOpError() << (index < numInputs ? "ins " : "outs ")
                         << (index < numInputs ? index : index - numInputs)
                         << " holds " << length << " elements and ins 0 holds "
                         << first
                         << ": a sort's arrays hold one number of elements";
  }
  return success();
}

LogicalResult DeviceSortOp::verifyRegions() {
  if (failed(verifyElementCode(getBody())))
    return failure();
  SmallVector<Type> element = getElementTypes();
  SmallVector<Type> both(element);
  both.append(element.begin(), element.end());
  return verifyRegionSignature(*this, getBody(), both,
                               IntegerType::get(getContext(), 1),
                               "two elements, to whether the first must "
                               "come before the second");
}

LogicalResult DeviceScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getBody(), getElementTypes(),
                             "an earlier and a later element, to their "
                             "combination");
}
