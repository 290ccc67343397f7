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

/// One premise, as an i1 that holds when it does, and the breach reported
/// when it does not.
struct Premise {
  Value holds;
  LaunchContractBreach breach;
  int64_t first, second;
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

/// The memref.casts on the way from `memref` to its allocation that claim
/// a static offset or stride their sources have only at run time: the one
/// way a memref's descriptor may disagree with its type (every view's type
/// follows from its operands). Canonicalization takes such a cast at its
/// word (the metadata of its result folds to the claimed constants), so
/// the check reads its source's.
static SmallVector<memref::CastOp> getClaimingCasts(Value memref) {
  SmallVector<memref::CastOp> claiming;
  while (Operation *producer = memref.getDefiningOp()) {
    if (auto cast = dyn_cast<memref::CastOp>(producer)) {
      auto source = dyn_cast<MemRefType>(cast.getSource().getType());
      auto result = dyn_cast<MemRefType>(cast.getType());
      SmallVector<int64_t> sourceStrides, resultStrides;
      int64_t sourceOffset, resultOffset;
      bool claims =
          source && result &&
          succeeded(source.getStridesAndOffset(sourceStrides, sourceOffset)) &&
          succeeded(result.getStridesAndOffset(resultStrides, resultOffset)) &&
          (ShapedType::isDynamic(sourceOffset) !=
               ShapedType::isDynamic(resultOffset) ||
           llvm::any_of(llvm::zip(sourceStrides, resultStrides), [](auto pair) {
             return ShapedType::isDynamic(std::get<0>(pair)) !=
                    ShapedType::isDynamic(std::get<1>(pair));
           }));
      if (claims)
        claiming.push_back(cast);
    }
    auto view = dyn_cast<ViewLikeOpInterface>(producer);
    if (!view)
      break;
    memref = view.getViewSource();
  }
  return claiming;
}

/// The premises of `site` about `given`, computed at `b`.
static SmallVector<Premise> emitPremises(ImplicitLocOpBuilder &b,
                                         Operation *site,
                                         ArrayRef<GivenMemRef> given,
                                         bool checkGrids) {
  auto launch = dyn_cast<LaunchOp>(site);
  SmallVector<Premise> premises;
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
      premises.push_back({agrees,
                          launch ? LaunchContractBreach::LaunchOperandLayout
                                 : LaunchContractBreach::CallArgumentLayout,
                          memref.number, -1});
  }
  for (const GivenMemRef &memref : given) {
    if (memref.memref == memref.root)
      continue;
    premises.push_back(
        {emitSpanWithin(b, spanOf(memref.memref), spanOf(memref.root)),
         launch ? LaunchContractBreach::LaunchOperandOutside
                : LaunchContractBreach::CallArgumentOutside,
         memref.number, -1});
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
      premises.push_back(
          {emitSpansApart(b, spanOf(first.memref), spanOf(second.memref)),
           launch ? LaunchContractBreach::LaunchOperandsMeet
                  : LaunchContractBreach::CallArgumentsMeet,
           first.number, second.number});
    }
  std::optional<int64_t> constantGrid;
  if (launch && launch.getDynamicGrid())
    constantGrid = getConstantIntValue(launch.getDynamicGrid());
  if (checkGrids && launch && launch.getDynamicGrid() &&
      !(constantGrid && *constantGrid <= kMostGridBlocks)) {
    Value grid = launch.getDynamicGrid();
    Value most = arith::ConstantIndexOp::create(b, kMostGridBlocks);
    premises.push_back(
        {arith::CmpIOp::create(b, arith::CmpIPredicate::sle, grid, most),
         LaunchContractBreach::GridTooLarge, -1, -1});
  }
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
  MLIRContext *context = module.getContext();
  Type i64 = IntegerType::get(context, 64);
  func::FuncOp report;
  for (Operation *site : sites) {
    ImplicitLocOpBuilder b(site->getLoc(), site);
    SmallVector<Premise> premises =
        emitPremises(b, site, getGivenMemRefs(site), checkGrids);
    if (premises.empty())
      continue;
    if (!report) {
      FailureOr<func::FuncOp> declared = getOrDeclareRuntimeFunction(
          module, kLaunchContractFunction,
          FunctionType::get(context, {i64, i64, i64}, {}));
      if (failed(declared))
        return signalPassFailure();
      report = *declared;
    }
    // The first broken premise, or none: selects, not branches.
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(b, value, 64);
    };
    Value breach = constant(static_cast<int64_t>(LaunchContractBreach::None));
    Value first = constant(-1), second = constant(-1);
    for (const Premise &premise : llvm::reverse(premises)) {
      breach = arith::SelectOp::create(
          b, premise.holds, breach,
          constant(static_cast<int64_t>(premise.breach)));
      first = arith::SelectOp::create(b, premise.holds, first,
                                      constant(premise.first));
      second = arith::SelectOp::create(b, premise.holds, second,
                                       constant(premise.second));
    }
    // A grid's breach reports the grid itself.
    if (auto launch = dyn_cast<LaunchOp>(site);
        checkGrids && launch && launch.getDynamicGrid()) {
      Value tooLarge = arith::CmpIOp::create(
          b, arith::CmpIPredicate::eq, breach,
          constant(static_cast<int64_t>(LaunchContractBreach::GridTooLarge)));
      first = arith::SelectOp::create(
          b, tooLarge,
          arith::IndexCastOp::create(b, i64, launch.getDynamicGrid()), first);
    }
    func::CallOp::create(b, report, ValueRange{breach, first, second});
    addToStatistic(*this, numChecked, "checked-launches");
  }
}
