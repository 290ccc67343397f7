//===- ExpandDevice.cpp - device-level ops to launch plans ----------------===//
//
// obs-expand-device: obs.device_map, obs.device_reduce, obs.device_scan and
// obs.device_sort become launches of obs kernels over tiles of their
// arrays, for a length known only at run time. The kernels are written
// with the combinator functions (Obs/Builder/Combinators.h) and are
// ordinary obs.kernels: the pipelines refine and prove them, and prove the
// launches, as they would kernels and launches a user wrote. docs/Rationale.md,
// "The device level", gives the plans and their memory traffic.
//
//===----------------------------------------------------------------------===//

#include "DeviceExpansion/DeviceExpander.h"
#include "Obs/Analysis/CombineLaws.h"
#include "Obs/Builder/Combinators.h"
#include "Obs/Builder/Networks.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSEXPANDDEVICE
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::device_expansion;

/// The order `less` gives, where it is one comparison of the two elements'
/// first scalars: `cmpi slt`/`ult` or `cmpf olt`/`ult` ascending, their
/// `gt` forms (or the operands swapped) descending.
static std::optional<KeyOrder> matchKeyOrder(Region &less,
                                             unsigned scalarsPerElement) {
  Block &block = less.front();
  Value yielded = block.getTerminator()->getOperand(0);
  Operation *compare = yielded.getDefiningOp();
  if (!compare || compare->getNumOperands() != 2)
    return std::nullopt;
  Value first = block.getArgument(0);
  Value second = block.getArgument(scalarsPerElement);
  bool swapped;
  if (compare->getOperand(0) == first && compare->getOperand(1) == second)
    swapped = false;
  else if (compare->getOperand(0) == second && compare->getOperand(1) == first)
    swapped = true;
  else
    return std::nullopt;
  KeyOrder order;
  order.bits = first.getType().getIntOrFloatBitWidth();
  if (auto cmpi = dyn_cast<arith::CmpIOp>(compare)) {
    switch (cmpi.getPredicate()) {
    case arith::CmpIPredicate::slt:
    case arith::CmpIPredicate::sgt:
      order.kind = KeyOrder::Kind::Signed;
      break;
    case arith::CmpIPredicate::ult:
    case arith::CmpIPredicate::ugt:
      order.kind = KeyOrder::Kind::Unsigned;
      break;
    default:
      return std::nullopt;
    }
    bool greater = cmpi.getPredicate() == arith::CmpIPredicate::sgt ||
                   cmpi.getPredicate() == arith::CmpIPredicate::ugt;
    order.descending = greater != swapped;
    return order;
  }
  if (auto cmpf = dyn_cast<arith::CmpFOp>(compare)) {
    using P = arith::CmpFPredicate;
    P predicate = cmpf.getPredicate();
    if (predicate != P::OLT && predicate != P::ULT && predicate != P::OGT &&
        predicate != P::UGT)
      return std::nullopt;
    order.kind = KeyOrder::Kind::Float;
    bool greater = predicate == P::OGT || predicate == P::UGT;
    order.descending = greater != swapped;
    return order;
  }
  return std::nullopt;
}

namespace {
struct ObsExpandDevicePass
    : mlir::obs::impl::ObsExpandDeviceBase<ObsExpandDevicePass> {
  using ObsExpandDeviceBase::ObsExpandDeviceBase;
  void runOnOperation() override;
};
} // namespace

void ObsExpandDevicePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (tile && (!llvm::isPowerOf2_64(tile) || tile > 65536)) {
    mlir::emitError(module.getLoc())
        << "obs-expand-device: tile=" << tile.getValue()
        << " is not a power of two of at most 65536";
    return signalPassFailure();
  }
  SmallVector<Operation *> deviceOps;
  module.walk([&](Operation *op) {
    if (isa<DeviceMapOp, DeviceReduceOp, DeviceScanOp, DeviceSortOp>(op))
      deviceOps.push_back(op);
  });
  if (deviceOps.empty())
    return;
  SymbolTable symbols(module);
  for (Operation *op : deviceOps) {
    struct Described {
      SmallVector<Type> scalars;
      Region *body;
      ArrayAttr identity;
    };
    Described described =
        TypeSwitch<Operation *, Described>(op)
            .Case<DeviceMapOp, DeviceSortOp>([](auto mapOrSort) -> Described {
              return {mapOrSort.getElementTypes(), &mapOrSort.getBody(), {}};
            })
            .Case<DeviceReduceOp, DeviceScanOp>([](auto fold) -> Described {
              return {fold.getElementTypes(), &fold.getBody(),
                      fold.getIdentity()};
            });
    if (described.identity && failed(checkCombineLaws(op, described.identity)))
      return signalPassFailure();
    // A sort by one comparison of the first scalars is a radix sort; any
    // other order merges.
    std::optional<KeyOrder> keyOrder;
    if (isa<DeviceSortOp>(op)) {
      if (failed(checkStrictWeakOrder(op)))
        return signalPassFailure();
      keyOrder = matchKeyOrder(*described.body, described.scalars.size());
      addToStatistic(*this, keyOrder ? numRadixSorts : numMergeSorts,
                     keyOrder ? "radix-sorts" : "merge-sorts");
    }
    DeviceExpander expander(op, symbols, described.scalars, *described.body,
                            described.identity, keyOrder, tile);
    expander.expand();
    op->erase();
    addToStatistic(*this, numOps, "device-ops");
    addToStatistic(*this, numKernels, "kernels", expander.getKernelCount());
    addToStatistic(*this, numLaunches, "launches", expander.getLaunchCount());
  }
}
