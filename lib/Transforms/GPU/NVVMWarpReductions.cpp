//===- NVVMWarpReductions.cpp - a warp's butterfly fold as redux.sync -----===//
//
// The serial reduce network folds a warp's 32 values by butterflies, which
// the proofs and the cpu target run as shuffles; on sm_80 and newer PTX has
// the fold of an i32 as one instruction. See the pass's description in
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/Chips.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSNVVMWARPREDUCTIONS
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {

/// The lanes of a warp, and the distances of its butterflies.
constexpr unsigned kLanes = 32;
constexpr unsigned kAllDistances = kLanes - 1;

/// The redux.sync kind of `op`, a binary operation on i32 that is
/// associative and commutative; none for anything else.
std::optional<NVVM::ReduxKind> reduxKindOf(Operation *op) {
  if (op->getNumOperands() != 2 || op->getNumResults() != 1 ||
      !op->getResult(0).getType().isInteger(32))
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<NVVM::ReduxKind>>(op)
      .Case([](LLVM::AddOp add) -> std::optional<NVVM::ReduxKind> {
        // Wrap-around add; flags that make overflow poison would not be.
        if (add.getOverflowFlags() != LLVM::IntegerOverflowFlags::none)
          return std::nullopt;
        return NVVM::ReduxKind::ADD;
      })
      .Case([](LLVM::AndOp) { return NVVM::ReduxKind::AND; })
      .Case([](LLVM::OrOp op) -> std::optional<NVVM::ReduxKind> {
        if (op.getIsDisjoint())
          return std::nullopt;
        return NVVM::ReduxKind::OR;
      })
      .Case([](LLVM::XOrOp) { return NVVM::ReduxKind::XOR; })
      .Case([](LLVM::SMaxOp) { return NVVM::ReduxKind::MAX; })
      .Case([](LLVM::SMinOp) { return NVVM::ReduxKind::MIN; })
      .Case([](LLVM::UMaxOp) { return NVVM::ReduxKind::UMAX; })
      .Case([](LLVM::UMinOp) { return NVVM::ReduxKind::UMIN; })
      .Default([](Operation *) { return std::nullopt; });
}

/// The step of a butterfly fold that `shuffle` starts: its distance and
/// the operation that combines the shuffled value with the lane's own, in
/// the shuffle's block; none where `shuffle` is not one (another kind, a
/// partial mask or clamp, a distance that is not a constant power of two
/// below 32, a value and validity pair).
struct FoldStep {
  unsigned distance;
  Operation *combine;
};
std::optional<FoldStep> foldStepOf(NVVM::ShflOp shuffle) {
  if (shuffle.getKind() != NVVM::ShflKind::bfly ||
      shuffle.getReturnValueAndIsValid() || !shuffle.getType().isInteger(32))
    return std::nullopt;
  APInt mask, offset, clamp;
  if (!matchPattern(shuffle.getThreadMask(), m_ConstantInt(&mask)) ||
      !mask.isAllOnes() ||
      !matchPattern(shuffle.getOffset(), m_ConstantInt(&offset)) ||
      !matchPattern(shuffle.getMaskAndClamp(), m_ConstantInt(&clamp)) ||
      clamp.getZExtValue() != kAllDistances)
    return std::nullopt;
  uint64_t distance = offset.getZExtValue();
  if (distance == 0 || distance >= kLanes || !llvm::isPowerOf2_64(distance))
    return std::nullopt;
  Value own = shuffle.getVal();
  for (Operation *user : shuffle->getUsers()) {
    if (user->getBlock() != shuffle->getBlock() || !reduxKindOf(user))
      continue;
    Value lhs = user->getOperand(0), rhs = user->getOperand(1);
    if ((lhs == own && rhs == shuffle.getResult()) ||
        (rhs == own && lhs == shuffle.getResult()))
      return FoldStep{static_cast<unsigned>(distance), user};
  }
  return std::nullopt;
}

/// Whether `value` is what a step of a butterfly fold made: the combine
/// of a shuffle's fold step.
bool isFoldStepResult(Value value) {
  Operation *made = value.getDefiningOp();
  return made && llvm::any_of(made->getOperands(), [&](Value operand) {
           auto shuffle = operand.getDefiningOp<NVVM::ShflOp>();
           std::optional<FoldStep> step =
               shuffle ? foldStepOf(shuffle) : std::nullopt;
           return step && step->combine == made;
         });
}

struct ObsNVVMWarpReductionsPass
    : mlir::obs::impl::ObsNVVMWarpReductionsBase<ObsNVVMWarpReductionsPass> {
  using ObsNVVMWarpReductionsBase::ObsNVVMWarpReductionsBase;

  /// A chip obs emits no PTX for is an error, once, before any gpu.module
  /// (an empty chip: none named, no redux.sync).
  LogicalResult initialize(MLIRContext *context) override {
    if (chip.empty() || isPTXChip(chip))
      return success();
    return emitError(UnknownLoc::get(context))
           << "obs-nvvm-warp-reductions: " << describeNonPTXChip(chip);
  }

  void runOnOperation() override {
    std::optional<unsigned> chipNumber = getChipNumber(chip);
    if (!chipNumber || *chipNumber < 80)
      return;
    // Chains start at a shuffle of a value that no step of a fold made:
    // the first of its five.
    SmallVector<NVVM::ShflOp> firsts;
    getOperation().walk([&](NVVM::ShflOp shuffle) {
      if (!isFoldStepResult(shuffle.getVal()))
        firsts.push_back(shuffle);
    });
    unsigned rewritten = 0;
    for (NVVM::ShflOp first : firsts)
      rewritten += succeeded(rewriteChain(first));
    addToStatistic(*this, numWarpReductions, "warp-reductions", rewritten);
  }

  /// Replaces the last value of the butterfly fold that `first` starts by
  /// one redux.sync, where it is a whole one.
  LogicalResult rewriteChain(NVVM::ShflOp first) {
    Value value = first.getVal();
    Operation *last = nullptr;
    std::optional<NVVM::ReduxKind> kind;
    unsigned distances = 0;
    NVVM::ShflOp shuffle = first;
    // The chain's shuffles and steps, in order.
    SmallVector<Operation *> chain;
    while (distances != kAllDistances) {
      std::optional<FoldStep> step = foldStepOf(shuffle);
      if (!step || (distances & step->distance) ||
          shuffle->getBlock() != first->getBlock())
        return failure();
      std::optional<NVVM::ReduxKind> stepKind = reduxKindOf(step->combine);
      if (kind && stepKind != kind)
        return failure();
      kind = stepKind;
      distances |= step->distance;
      last = step->combine;
      chain.append({shuffle, last});
      if (distances == kAllDistances)
        break;
      // The next step shuffles what this one made (the loop checks it).
      auto users = last->getUsers();
      auto next = llvm::find_if(
          users, [](Operation *user) { return isa<NVVM::ShflOp>(user); });
      if (next == users.end())
        return failure();
      shuffle = cast<NVVM::ShflOp>(*next);
    }
    OpBuilder builder(last);
    Value redux =
        NVVM::ReduxOp::create(builder, last->getLoc(), value.getType(), value,
                              *kind, first.getThreadMask());
    last->getResult(0).replaceAllUsesWith(redux);
    // What of the chain nothing else uses goes, last first.
    for (Operation *op : llvm::reverse(chain))
      if (op->use_empty())
        op->erase();
    return success();
  }
};

} // namespace
