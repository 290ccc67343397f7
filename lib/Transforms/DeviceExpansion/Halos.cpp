//===- Halos.cpp - halo arguments as global ones
//----------------------------===//
//
// A kernel argument with an `obs.halo` is its block's tile and `width`
// places on each side. It becomes what a stencil would otherwise write by
// hand: an `obs.global` argument (the launch's memref whole) and a pull
// array of the tile's places, each read where the boundary says. Every
// pipeline then lowers and proves it as it does global arguments: the
// simulation follows each read, and the launch proof refuses an operand
// that writes the memref a halo reads.
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"
#include "Obs/Builder/Combinators.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Transforms/DeviceExpansion.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::obs;

namespace {

/// The length a halo argument's global array has: the memref's, which every
/// launch of the kernel must agree on, or the bound of run-time sizes. A
/// kernel no launch names stands for one block over its tile.
FailureOr<uint64_t> getWholeLength(KernelOp kernel, unsigned index,
                                   ArrayRef<LaunchOp> launches) {
  uint64_t tile =
      getHalo(kernel, index)
          .getTileLength(
              cast<ArrType>(kernel.getArgumentTypes()[index]).getLength());
  if (launches.empty())
    return tile;
  std::optional<uint64_t> length;
  for (LaunchOp launch : launches) {
    uint64_t here = launch.hasDynamicSizes()
                        ? uint64_t(kDynamicGridLength)
                        : tile * uint64_t(*launch.getStaticGridSize());
    if (length && *length != here) {
      auto describe = [](uint64_t places) {
        return places == uint64_t(kDynamicGridLength)
                   ? std::string("a length known at run time")
                   : std::to_string(places) + " places";
      };
      return launch.emitOpError()
             << "launches @" << kernel.getSymName() << " over "
             << describe(here) << " of its argument " << index
             << ", which has a halo, where another launch passes "
             << describe(*length)
             << ": a halo argument is one memref whole in every block, so "
                "all of the kernel's launches pass it at one static length, "
                "or all at lengths known at run time";
    }
    length = here;
  }
  return *length;
}

/// Element `j` of block `b`'s array of the halo argument `whole` (the
/// memref as a global array of `present` places): place `b C + j - k`,
/// read where `halo`'s boundary says when it is outside `[0, present)`.
SmallVector<Value> readHaloElement(ImplicitLocOpBuilder &b, Value whole,
                                   Value present, HaloAttr halo, uint64_t tile,
                                   ArrayRef<TypedAttr> absent, Value j) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, value);
  };
  Value zero = constant(0);
  Value block = BlockIdOp::create(b);
  Value start = arith::MulIOp::create(b, block, constant(tile));
  Value place =
      arith::SubIOp::create(b, arith::AddIOp::create(b, start, j),
                            constant(static_cast<int64_t>(halo.getWidth())));
  // Places are signed here: the halo before the first tile is negative.
  Value last = arith::SubIOp::create(b, present, constant(1));
  switch (halo.getBoundary()) {
  case HaloBoundary::Clamp: {
    Value below = arith::MinSIOp::create(b, place, last);
    return dsl::index(b, whole, arith::MaxSIOp::create(b, below, zero));
  }
  case HaloBoundary::Wrap: {
    // No place at all is an empty memref: any place reads as absent.
    Value length = arith::MaxSIOp::create(b, present, constant(1));
    Value remainder = arith::RemSIOp::create(b, place, length);
    Value negative =
        arith::CmpIOp::create(b, arith::CmpIPredicate::slt, remainder, zero);
    Value wrapped = arith::SelectOp::create(
        b, negative, arith::AddIOp::create(b, remainder, length), remainder);
    return dsl::index(b, whole, wrapped);
  }
  case HaloBoundary::Zero: {
    Value notBefore =
        arith::CmpIOp::create(b, arith::CmpIPredicate::sge, place, zero);
    Value beforeEnd =
        arith::CmpIOp::create(b, arith::CmpIPredicate::slt, place, present);
    Value inside = arith::AndIOp::create(b, notBefore, beforeEnd);
    // The read stays inside; its value is dropped where the place is not.
    SmallVector<Value> read =
        dsl::index(b, whole, arith::SelectOp::create(b, inside, place, zero));
    SmallVector<Value> element;
    for (auto [value, outside] : llvm::zip_equal(read, absent))
      element.push_back(arith::SelectOp::create(
          b, inside, value, arith::ConstantOp::create(b, outside)));
    return element;
  }
  }
  llvm_unreachable("a halo boundary");
}

/// `kernel`'s halo argument `index` as an `obs.global` argument of
/// `length` places, and the pull array of its block's places that the
/// kernel's code reads instead.
void expandHaloArgument(KernelOp kernel, unsigned index, uint64_t length) {
  MLIRContext *context = kernel.getContext();
  HaloAttr halo = getHalo(kernel, index);
  BlockArgument argument = kernel.getArgument(index);
  auto array = cast<ArrType>(argument.getType());
  uint64_t tile = halo.getTileLength(array.getLength());
  // The value of a place outside: the argument's absent value, or zeros.
  SmallVector<TypedAttr> absent;
  if (std::optional<SmallVector<TypedAttr>> given =
          getAbsentValues(kernel, index)) {
    absent = *given;
  } else {
    for (Type scalar : flattenElementType(array.getLeafType()))
      absent.push_back(cast<TypedAttr>(OpBuilder(context).getZeroAttr(scalar)));
    // The global argument it becomes reads as absent past its end at
    // run-time sizes (the readers below never ask for such a place), and a
    // launch at run-time sizes needs every argument's absent value.
    kernel.setArgAttr(index, ObsDialect::AbsentAttrHelper::getNameStr(),
                      device_expansion::absentOf(SmallVector<Attribute>(
                          absent.begin(), absent.end())));
  }

  // What reads the tile now reads the pull array of its places instead.
  SmallVector<OpOperand *> readers = llvm::map_to_vector(
      argument.getUses(), [](OpOperand &use) { return &use; });
  ArrType wholeType = array.withLength(length);
  argument.setType(wholeType);
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  inputs[index] = wholeType;
  kernel.setFunctionTypeAttr(TypeAttr::get(
      FunctionType::get(context, inputs, kernel.getResultTypes())));
  kernel.removeArgAttr(index, ObsDialect::HaloAttrHelper::getNameStr());
  device_expansion::markGlobalArgument(kernel, index);

  ImplicitLocOpBuilder b(kernel.getLoc(), context);
  b.setInsertionPointToStart(&kernel.getBody().front());
  Value present = ExtentOp::create(b, argument);
  Value view = dsl::generate(b, array, [&](ImplicitLocOpBuilder &b, Value j) {
    return readHaloElement(b, argument, present, halo, tile, absent, j);
  });
  for (OpOperand *reader : readers)
    reader->set(view);
}

} // namespace

LogicalResult mlir::obs::expandHaloArguments(ModuleOp module) {
  // Each kernel with a halo argument, and its launches.
  llvm::MapVector<KernelOp, SmallVector<LaunchOp>> kernels;
  module.walk([&](KernelOp kernel) {
    for (unsigned index = 0; index < kernel.getNumArguments(); ++index)
      if (getHalo(kernel, index)) {
        kernels[kernel];
        return;
      }
  });
  if (kernels.empty())
    return success();
  SymbolTableCollection symbols;
  module.walk([&](LaunchOp launch) {
    auto kernel = symbols.lookupNearestSymbolFrom<KernelOp>(
        launch, launch.getKernelAttr());
    if (kernel && kernels.count(kernel))
      kernels[kernel].push_back(launch);
  });
  for (auto &[original, launches] : kernels) {
    // The lengths are the user's kernel's, checked before any copy.
    SmallVector<std::pair<unsigned, uint64_t>> lengths;
    for (unsigned index = 0; index < original.getNumArguments(); ++index) {
      if (!getHalo(original, index))
        continue;
      FailureOr<uint64_t> length = getWholeLength(original, index, launches);
      if (failed(length))
        return failure();
      lengths.push_back({index, *length});
    }
    KernelOp kernel = original;
    // A public kernel also stands for one block over its tile, which its
    // one-block instance runs (and embedders call by its name): its
    // launches get a private copy, whose halo reads the launches' memref
    // whole. Expanded in place, `kw` in the PTX read its wrap halo at place
    // 2^31 - 2 of a 10-element memref (found by a defect hunt).
    if (!launches.empty() && !original.isPrivate()) {
      kernel = cast<KernelOp>(original->clone());
      kernel.setPrivate();
      kernel.setSymName((original.getSymName() + "_launched").str());
      // Named apart in the kernel's own symbol table (a nested module's).
      SymbolTable table(SymbolTable::getNearestSymbolTable(original));
      table.insert(kernel, std::next(Block::iterator(original)));
      for (LaunchOp launch : launches)
        launch.setKernelAttr(FlatSymbolRefAttr::get(kernel.getSymNameAttr()));
      for (auto [index, length] : lengths)
        expandHaloArgument(original, index,
                           *getWholeLength(original, index, {}));
    }
    for (auto [index, length] : lengths)
      expandHaloArgument(kernel, index, length);
  }
  return success();
}
