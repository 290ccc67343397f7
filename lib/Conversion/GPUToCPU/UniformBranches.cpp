//===- UniformBranches.cpp - branches every thread takes alike ------------===//
//
// The cpu target splits a block's threads at its barriers and shuffles,
// which every thread must reach together: one under a branch is refused,
// unless the branch is no divergence at all. A condition computed from the
// thread id and constants alone is computed here for every thread of the
// block, as the simulation computes it; where all agree, the branch taken is
// put in the scf.if's place.
//
//===----------------------------------------------------------------------===//

#include "GPUToCPUImpl.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/IntegerEvaluation.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::obs;

namespace {
/// The values of a thread's integers computed from its id: those of one
/// thread at a time, each computed once.
class ThreadValues {
public:
  /// `value` in thread `thread`; none where it depends on more than the
  /// thread id and constants (memory, a loop, an argument).
  std::optional<int64_t> get(Value value, int64_t thread) {
    if (thread != current) {
      known.clear();
      current = thread;
    }
    return compute(value, /*depth=*/64);
  }

private:
  std::optional<int64_t> compute(Value value, unsigned depth) {
    // Wider integers are unknown, as to every evaluation of obs's (modulo
    // 2^64, an i128 product of 2^64 and more was taken to be 0).
    if (!isEvaluatedIntegerType(value.getType()) || depth == 0)
      return std::nullopt;
    if (auto it = known.find(value); it != known.end())
      return it->second;
    std::optional<int64_t> result = computeFromDefinition(value, depth);
    known[value] = result;
    return result;
  }

  std::optional<int64_t> computeFromDefinition(Value value, unsigned depth) {
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return wrapToInteger(value.getType(), constant.getSExtValue());
    Operation *op = value.getDefiningOp();
    if (!op)
      return std::nullopt;
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      return id.getDimension() == gpu::Dimension::x ? current : 0;
    if (op->getNumResults() != 1 || op->getNumRegions() ||
        !isMemoryEffectFree(op))
      return std::nullopt;
    SmallVector<int64_t> operands;
    for (Value operand : op->getOperands()) {
      std::optional<int64_t> known = compute(operand, depth - 1);
      if (!known)
        return std::nullopt;
      operands.push_back(*known);
    }
    return evaluateIntegerOp(*op, operands);
  }

  int64_t current = -1;
  llvm::DenseMap<Value, std::optional<int64_t>> known;
};
} // namespace

bool gpu_to_cpu::holdsBarrier(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isLoweredBarrier(nested) || isa<NVVM::ShflOp>(nested)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The branch every one of `threads` threads takes at `op`, where they
/// agree.
static std::optional<bool> takenByEveryThread(scf::IfOp op, int64_t threads) {
  ThreadValues values;
  std::optional<bool> taken;
  for (int64_t thread = 0; thread < threads; ++thread) {
    std::optional<int64_t> condition = values.get(op.getCondition(), thread);
    if (!condition || (taken && *taken != (*condition != 0)))
      return std::nullopt;
    taken = *condition != 0;
  }
  return taken;
}

void gpu_to_cpu::foldUniformBranches(func::FuncOp func, int64_t threads) {
  IRRewriter rewriter(func.getContext());
  // Inner branches first, each once: a branch left out has been visited
  // with all it held, and the one kept is moved before its scf.if, which
  // the walk has not yet passed.
  func.walk<WalkOrder::PostOrder>([&](scf::IfOp op) {
    if (!holdsBarrier(op))
      return;
    std::optional<bool> taken = takenByEveryThread(op, threads);
    if (!taken)
      return;
    Region &region = *taken ? op.getThenRegion() : op.getElseRegion();
    if (region.empty()) {
      rewriter.eraseOp(op);
      return;
    }
    Block *block = &region.front();
    auto yield = cast<scf::YieldOp>(block->getTerminator());
    SmallVector<Value> results(yield.getOperands());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(block, op);
    rewriter.replaceOp(op, results);
  });
}
