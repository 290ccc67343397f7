//===- ReferenceLaunch.cpp - launches on the reference target -------------===//
//
// A launch runs its blocks one after another, each on copies of its chunks
// (the reference target's meaning of a launch, which the proof makes every
// other order's).
//
//===----------------------------------------------------------------------===//

#include "ReferenceLaunch.h"
#include "Obs/Dialect/Obs/Storage.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::reference;

std::string mlir::obs::reference::blockFunctionName(KernelOp kernel) {
  return (kernel.getSymName() + ".block").str();
}

bool mlir::obs::reference::needsBlockFunction(KernelOp kernel) {
  // An obs.index at a place from data reports the block it fails in, as
  // on the GPU targets.
  auto readsByIndex = [&] {
    return kernel.walk([](IndexOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  };
  return usesBlockPosition(kernel) || hasGlobalResults(kernel) ||
         hasGlobalArguments(kernel) || getChainArgument(kernel) ||
         readsByIndex();
}

MemRefType mlir::obs::reference::wholeMemRefType(Type element) {
  return MemRefType::get({ShapedType::kDynamic}, element);
}

MemRefType mlir::obs::reference::anyViewMemRefType(MemRefType like) {
  SmallVector<int64_t> shape(like.getShape());
  shape.front() = ShapedType::kDynamic;
  SmallVector<int64_t> strides(shape.size(), ShapedType::kDynamic);
  return MemRefType::get(
      shape, like.getElementType(),
      StridedLayoutAttr::get(like.getContext(), ShapedType::kDynamic, strides));
}

Value mlir::obs::reference::allocateWrittenTable(OpBuilder &builder,
                                                 Location loc, Value length) {
  Value table = memref::AllocOp::create(
      builder, loc, wholeMemRefType(builder.getI1Type()), ValueRange{length});
  Value no = arith::ConstantIntOp::create(builder, loc, 0, 1);
  auto clear = scf::ForOp::create(
      builder, loc, arith::ConstantIndexOp::create(builder, loc, 0), length,
      arith::ConstantIndexOp::create(builder, loc, 1));
  OpBuilder body = OpBuilder::atBlockBegin(clear.getBody());
  memref::StoreOp::create(body, loc, no, table, clear.getInductionVar());
  return table;
}

/// The body of a launch function: the kernel's function once per block of
/// `gridSize`, in order, on copies of the block's chunks of `grids` (the
/// launch's inputs, `numInputs` of them, then its outputs); the kernel's
/// function takes whole memrefs. With sizes known only at run time, a place
/// past the end of its memref is absent: copied in as the argument's absent
/// value, not copied out.
static void buildBlockLoop(OpBuilder &builder, Location loc, KernelOp kernel,
                           ArrayRef<AffineMap> layouts, bool dynamic,
                           Value gridSize, ArrayRef<Value> grids,
                           unsigned numInputs) {
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  // The outermost length of each memref, before the loop.
  SmallVector<Value> lengths;
  if (dynamic)
    for (Value grid : grids)
      lengths.push_back(memref::DimOp::create(builder, loc, grid, 0));
  SmallVector<LaunchOperandArray> operandArrays =
      getLaunchOperandArrays(kernel);
  // The tables of the places global scatters without a combine write, for
  // the whole launch.
  SmallVector<Value> tables;
  for (unsigned index : getUncombinedGlobalResults(kernel)) {
    Value memref = grids[getFirstOperandOf(operandArrays,
                                           kernel.getNumArguments() + index)];
    tables.push_back(allocateWrittenTable(
        builder, loc, memref::DimOp::create(builder, loc, memref, 0)));
  }
  auto blocks =
      scf::ForOp::create(builder, loc, constant(0), gridSize, constant(1));
  builder.setInsertionPoint(blocks.getBody()->getTerminator());
  Value block = blocks.getInductionVar();

  // The kernel's arrays, by memref: the array's length, and its absent
  // values (an argument's, in a launch with dynamic sizes).
  SmallVector<TypedAttr> absentValues;
  for (const LaunchOperandArray &operand : operandArrays) {
    std::optional<SmallVector<TypedAttr>> absent;
    if (dynamic && operand.array < kernel.getNumArguments())
      absent = getAbsentValues(kernel, operand.array);
    absentValues.push_back(absent ? (*absent)[operand.component] : TypedAttr());
  }

  // Copies between a block's buffer and its places in a grid memref, which
  // its layout gives.
  auto copyChunk = [&](unsigned index, MemRefType type, Value local,
                       bool toLocal) {
    SmallVector<Value> lowerBounds, upperBounds, steps;
    for (int64_t extent : type.getShape()) {
      lowerBounds.push_back(constant(0));
      upperBounds.push_back(constant(extent));
      steps.push_back(constant(1));
    }
    Value grid = grids[index];
    scf::buildLoopNest(
        builder, loc, lowerBounds, upperBounds, steps,
        [&](OpBuilder &b, Location, ValueRange path) {
          SmallVector<Value> gridPath(path);
          gridPath[0] = affine::expandAffineExpr(
              b, loc, layouts[index].getResult(0), {block, path[0]}, {});
          auto copy = [&](OpBuilder &b) {
            if (toLocal)
              memref::StoreOp::create(
                  b, loc, memref::LoadOp::create(b, loc, grid, gridPath), local,
                  path);
            else
              memref::StoreOp::create(
                  b, loc, memref::LoadOp::create(b, loc, local, path), grid,
                  gridPath);
          };
          if (!dynamic)
            return copy(b);
          Value present = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, gridPath[0], lengths[index]);
          auto ifPresent = scf::IfOp::create(b, loc, present,
                                             /*withElseRegion=*/toLocal);
          OpBuilder then = ifPresent.getThenBodyBuilder();
          copy(then);
          if (toLocal) {
            OpBuilder otherwise = ifPresent.getElseBodyBuilder();
            Value absent =
                arith::ConstantOp::create(otherwise, loc, absentValues[index]);
            memref::StoreOp::create(otherwise, loc, absent, local, path);
          }
        });
  };
  SmallVector<MemRefType> localTypes;
  for (Type type : kernel.getArgumentTypes())
    llvm::append_range(localTypes, getStorageTypes(cast<ArrType>(type)));
  for (Type type : kernel.getResultTypes())
    llvm::append_range(localTypes, getStorageTypes(cast<ArrType>(type)));
  SmallVector<Value> locals;
  for (auto [index, type] : llvm::enumerate(localTypes)) {
    // A global scatter's memref is the launch's own, whole.
    if (operandArrays[index].whole) {
      locals.push_back(memref::CastOp::create(
          builder, loc, anyViewMemRefType(type), grids[index]));
      continue;
    }
    Value local = memref::AllocOp::create(builder, loc, type);
    if (index < numInputs)
      copyChunk(index, type, local, /*toLocal=*/true);
    locals.push_back(local);
  }
  if (needsBlockFunction(kernel)) {
    // The block's index, and the present elements of each argument: of its
    // chunk, the places before the end of all its memrefs.
    SmallVector<Value> operands(locals);
    llvm::append_range(operands, tables);
    operands.push_back(block);
    SmallVector<Value> extents(kernel.getNumArguments());
    for (unsigned index = 0; index < numInputs; ++index) {
      Value length = constant(operandArrays[index].type.getLength());
      if (operandArrays[index].whole) {
        // Every block sees an `obs.global` argument whole.
        if (dynamic)
          length = lengths[index];
      } else if (dynamic) {
        Value start = arith::MulIOp::create(builder, loc, block, length);
        Value left = arith::SubIOp::create(builder, loc, lengths[index], start);
        left = arith::MaxSIOp::create(builder, loc, left, constant(0));
        length = arith::MinSIOp::create(builder, loc, left, length);
      }
      Value &extent = extents[operandArrays[index].array];
      extent =
          extent
              ? arith::MinSIOp::create(builder, loc, extent, length).getResult()
              : length;
    }
    operands.append(extents.begin(), extents.end());
    func::CallOp::create(builder, loc, blockFunctionName(kernel), TypeRange(),
                         operands);
  } else {
    func::CallOp::create(builder, loc, kernel.getSymName(), TypeRange(),
                         locals);
  }
  for (auto [index, type] : llvm::enumerate(localTypes)) {
    if (operandArrays[index].whole)
      continue;
    if (index >= numInputs)
      copyChunk(index, type, locals[index], /*toLocal=*/false);
    memref::DeallocOp::create(builder, loc, locals[index]);
  }
  builder.setInsertionPointAfter(blocks);
  for (Value table : tables)
    memref::DeallocOp::create(builder, loc, table);
}

/// What makes two launches' functions the same: the kernel, the operands'
/// types, the layouts and whether sizes are known only at run time.
static std::string launchFunctionKey(LaunchOp launch, KernelOp kernel,
                                     ArrayRef<AffineMap> layouts) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << kernel.getSymName() << '|' << launch.hasDynamicSizes();
  for (Type type : launch->getOperandTypes())
    os << '|' << type;
  for (AffineMap layout : layouts)
    os << '|' << layout;
  return key;
}

void mlir::obs::reference::lowerLaunches(
    ModuleOp module, ArrayRef<std::pair<LaunchOp, KernelOp>> launches) {
  SymbolTable symbols(module);
  llvm::StringMap<func::FuncOp> functions;
  for (auto [launch, kernel] : launches) {
    SmallVector<AffineMap> layouts = launch.getLayoutsOrChunks(kernel);
    Location loc = launch.getLoc();
    SmallVector<Value> grids(launch.getInputs());
    llvm::append_range(grids, launch.getOutputs());
    func::FuncOp &function =
        functions[launchFunctionKey(launch, kernel, layouts)];
    if (!function) {
      // The first launch of its kind builds the function that every launch
      // of the kind calls: a host function of a thousand launches (a
      // device sort's levels) stays a thousand calls for the JIT.
      OpBuilder builder(module.getBodyRegion());
      builder.setInsertionPointToEnd(module.getBody());
      SmallVector<Type> argumentTypes = {builder.getIndexType()};
      llvm::append_range(argumentTypes, ValueRange(grids).getTypes());
      function = func::FuncOp::create(
          builder, kernel.getLoc(), (kernel.getSymName() + ".launch").str(),
          builder.getFunctionType(argumentTypes, {}));
      function.setPrivate();
      symbols.insert(function);
      Block *entry = function.addEntryBlock();
      builder.setInsertionPointToStart(entry);
      buildBlockLoop(builder, loc, kernel, layouts, launch.hasDynamicSizes(),
                     entry->getArgument(0),
                     SmallVector<Value>(entry->getArguments().drop_front()),
                     launch.getInputs().size());
      func::ReturnOp::create(builder, loc);
    }
    OpBuilder builder(launch);
    SmallVector<Value> operands = {launch.buildGridSize(builder)};
    llvm::append_range(operands, grids);
    func::CallOp::create(builder, loc, function, operands);
    launch.erase();
  }
}
