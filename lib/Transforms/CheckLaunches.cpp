//===- CheckLaunches.cpp - run-time checks of the launch proof's premises -===//
//
// obs-check-launches: the launch proof (VerifyLaunches.cpp, LaunchProof.cpp)
// proves each launch within the memrefs it is given, and takes as given
// what only the run knows about them. Host code checks that before each
// launch, and before each call of a function that launches kernels: views
// within their allocations, views proved apart symbolically apart at their
// run-time places, grids that CUDA can launch.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/Allocations.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/ByteSpan.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/DeviceExpansion.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSCHECKLAUNCHES
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {

/// A memref a launch or call is given, followed to its allocation.
struct GivenMemRef {
  int64_t number;
  Value memref, root;
  bool written;
};

struct ObsCheckLaunchesPass
    : obs::impl::ObsCheckLaunchesBase<ObsCheckLaunchesPass> {
  using ObsCheckLaunchesBase::ObsCheckLaunchesBase;
  void runOnOperation() override;
};

} // namespace

/// The memrefs `site` (a launch or a call) is given that can be followed to
/// their allocations: what cannot is rejected by the proof, or never
/// reaches a launch.
static SmallVector<GivenMemRef> getGivenMemRefs(Operation *site) {
  SmallVector<Value> operands;
  unsigned firstWritten = ~0u;
  if (auto launch = dyn_cast<LaunchOp>(site)) {
    llvm::append_range(operands, launch.getInputs());
    firstWritten = operands.size();
    llvm::append_range(operands, launch.getOutputs());
  } else {
    llvm::append_range(operands, cast<CallOpInterface>(site).getArgOperands());
  }
  SmallVector<GivenMemRef> given;
  for (auto [number, operand] : llvm::enumerate(operands)) {
    if (!isa<MemRefType>(operand.getType()))
      continue;
    FailureOr<AllocationView> view = followToAllocation(
        operand, /*user=*/nullptr, "", /*runTimeOffsets=*/true);
    if (failed(view))
      continue;
    given.push_back({static_cast<int64_t>(number), operand, view->root,
                     number >= firstWritten});
  }
  return given;
}

/// Which of a memref type's offset and strides are known only at run time;
/// none for a layout without them.
static std::optional<SmallVector<bool>> getDynamicLayout(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!memref || failed(memref.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  SmallVector<bool> dynamic = {ShapedType::isDynamic(offset)};
  for (int64_t stride : strides)
    dynamic.push_back(ShapedType::isDynamic(stride));
  return dynamic;
}

/// The memref.casts on the way from `memref` to its allocation that claim
/// a static offset or stride their sources have only at run time: the one
/// way a memref's descriptor may disagree with its type (every view's type
/// follows from its operands). Canonicalization takes such a cast at its
/// word (the metadata of its result folds to the claimed constants), so
/// the check reads its source's.
static SmallVector<memref::CastOp> getClaimingCasts(Value memref) {
  SmallVector<memref::CastOp> claiming;
  while (Operation *producer = memref.getDefiningOp()) {
    if (auto claim = dyn_cast<memref::CastOp>(producer)) {
      std::optional<SmallVector<bool>> from =
          getDynamicLayout(claim.getSource().getType());
      std::optional<SmallVector<bool>> to = getDynamicLayout(claim.getType());
      if (from && to && *from != *to)
        claiming.push_back(claim);
    }
    auto view = dyn_cast<ViewLikeOpInterface>(producer);
    if (!view)
      break;
    memref = view.getViewSource();
  }
  return claiming;
}

/// The premises of `site` about `given`, computed at `b`: each reports its
/// LaunchContractBreach and what it names (i64 values).
static SmallVector<RuntimeCheck> emitPremises(ImplicitLocOpBuilder &b,
                                              Operation *site,
                                              ArrayRef<GivenMemRef> given,
                                              bool checkGrids,
                                              SymbolTableCollection &symbols) {
  auto launch = dyn_cast<LaunchOp>(site);
  SmallVector<RuntimeCheck> premises;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, value, 64);
  };
  auto premise = [&](Value holds, LaunchContractBreach breach, Value first,
                     int64_t second) {
    premises.push_back(makeLaunchContractCheck(b, b.getLoc(), holds, breach,
                                               first, constant(second)));
  };
  llvm::DenseMap<Value, ByteSpan> spans;
  auto spanOf = [&](Value memref) {
    auto [entry, added] = spans.try_emplace(memref);
    if (added)
      entry->second = emitByteSpan(b, memref);
    return entry->second;
  };
  // A static offset or stride of a memref's type is what the kernels
  // compute with (their pointers are bare), so the descriptor must agree:
  // a memref.cast of a view at a run-time offset to offset 0 made every
  // launch in a loop work on the first segment.
  for (const GivenMemRef &memref : given) {
    Value agrees;
    for (memref::CastOp claim : getClaimingCasts(memref.memref)) {
      SmallVector<int64_t> strides;
      int64_t offset;
      (void)cast<MemRefType>(claim.getType())
          .getStridesAndOffset(strides, offset);
      auto metadata =
          memref::ExtractStridedMetadataOp::create(b, claim.getSource());
      auto agree = [&](Value actual, int64_t claimed) {
        if (ShapedType::isDynamic(claimed))
          return;
        Value equal =
            arith::CmpIOp::create(b, arith::CmpIPredicate::eq, actual,
                                  arith::ConstantIndexOp::create(b, claimed));
        agrees = agrees ? arith::AndIOp::create(b, agrees, equal).getResult()
                        : equal;
      };
      agree(metadata.getOffset(), offset);
      for (auto [actual, claimed] : llvm::zip(metadata.getStrides(), strides))
        agree(actual, claimed);
    }
    if (agrees)
      premise(agrees,
              launch ? LaunchContractBreach::LaunchOperandLayout
                     : LaunchContractBreach::CallArgumentLayout,
              constant(memref.number), -1);
  }
  for (const GivenMemRef &memref : given) {
    // A view proved within (a device op's output as its first n elements,
    // viewFirstElements) needs no check: on cuda one would make the stream
    // wait for the device before the launch.
    if (provedWithin(memref.memref, memref.root))
      continue;
    premise(emitSpanWithin(b, spanOf(memref.memref), spanOf(memref.root)),
            launch ? LaunchContractBreach::LaunchOperandOutside
                   : LaunchContractBreach::CallArgumentOutside,
            constant(memref.number), -1);
  }
  // The pairs the proof took to be apart: a launch at run-time sizes
  // accepts two different views of one allocation, one written, only
  // where provedApart says so, and a call of a launching function any two.
  for (auto [i, first] : llvm::enumerate(given))
    for (const GivenMemRef &second : ArrayRef(given).drop_front(i + 1)) {
      if (first.root != second.root || first.memref == second.memref)
        continue;
      if (launch &&
          (!launch.hasDynamicSizes() || (!first.written && !second.written)))
        continue;
      if (!provedApart(first.memref, second.memref))
        continue;
      premise(emitSpansApart(b, spanOf(first.memref), spanOf(second.memref)),
              launch ? LaunchContractBreach::LaunchOperandsMeet
                     : LaunchContractBreach::CallArgumentsMeet,
              constant(first.number), second.number);
    }
  // A chain holds the ticket counter and a word per element of the carry
  // for each block: a look-back past its end would read and write outside
  // it (a static length is checked by the launch's verifier).
  if (auto kernel = launch ? symbols.lookupNearestSymbolFrom<KernelOp>(
                                 launch, launch.getKernelAttr())
                           : KernelOp()) {
    if (std::optional<unsigned> chain = getChainArgument(kernel)) {
      unsigned number =
          getFirstOperandOf(getLaunchOperandArrays(kernel), *chain);
      Value memref = launch.getInputs()[number];
      // A plan's chain is allocated for its grid (a static length is
      // checked by the launch's verifier).
      uint64_t perTile = getChainWordsPerTile(kernel);
      if (cast<MemRefType>(memref.getType()).isDynamicDim(0) &&
          !isChainAllocatedFor(memref, launch.getDynamicGrid(), perTile)) {
        // A grid of no blocks takes no ticket and needs no chain. The
        // product wraps only for a grid of 2^32 blocks or more, since a
        // carry has fewer than 2^32 elements (an array's most leaves).
        Value words = memref::DimOp::create(b, memref, 0);
        Value grid = launch.buildGridSize(b);
        Value needed = arith::AddIOp::create(
            b,
            arith::MulIOp::create(b, grid,
                                  arith::ConstantIndexOp::create(b, perTile)),
            arith::ConstantIndexOp::create(b, 1));
        Value none =
            arith::CmpIOp::create(b, arith::CmpIPredicate::eq, grid,
                                  arith::ConstantIndexOp::create(b, 0));
        premises.push_back(makeLaunchContractCheck(
            b, b.getLoc(),
            arith::OrIOp::create(
                b, none,
                arith::CmpIOp::create(b, arith::CmpIPredicate::uge, words,
                                      needed)),
            LaunchContractBreach::ChainTooShort, constant(number),
            arith::IndexCastOp::create(b, b.getI64Type(), words)));
      }
    }
  }
  // A grid's breach reports the grid itself.
  Value grid = launch ? launch.getDynamicGrid() : Value();
  std::optional<int64_t> constantGrid =
      grid ? getConstantIntValue(grid) : std::nullopt;
  if (checkGrids && grid && !(constantGrid && *constantGrid <= kMostGridBlocks))
    premise(arith::CmpIOp::create(
                b, arith::CmpIPredicate::sle, grid,
                arith::ConstantIndexOp::create(b, kMostGridBlocks)),
            LaunchContractBreach::GridTooLarge,
            arith::IndexCastOp::create(b, b.getI64Type(), grid), -1);
  return premises;
}

void ObsCheckLaunchesPass::runOnOperation() {
  ModuleOp module = getOperation();
  llvm::SetVector<Operation *> launching = getLaunchingFunctions(
      module, [](Operation *op) { return isa<LaunchOp>(op); });
  SymbolTableCollection symbols;
  SmallVector<Operation *> sites;
  module.walk([&](Operation *op) {
    if (isa<LaunchOp>(op)) {
      sites.push_back(op);
    } else if (auto call = dyn_cast<CallOpInterface>(op)) {
      FunctionOpInterface callee = resolveCalledFunction(call, symbols);
      if (callee && launching.contains(callee))
        sites.push_back(op);
    }
  });
  func::FuncOp report;
  for (Operation *site : sites) {
    ImplicitLocOpBuilder b(site->getLoc(), site);
    SmallVector<RuntimeCheck> premises =
        emitPremises(b, site, getGivenMemRefs(site), checkGrids, symbols);
    if (premises.empty())
      continue;
    if (!report) {
      FailureOr<func::FuncOp> declared = getLaunchContractReport(module);
      if (failed(declared))
        return signalPassFailure();
      report = *declared;
    }
    emitLaunchContractCall(b, b.getLoc(), report, premises);
    addToStatistic(*this, numChecked, "checked-launches");
  }
}
