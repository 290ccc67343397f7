//===- TestIntegerEvaluation.cpp - integer ops evaluated on constants -----===//
//
// `test-obs-integer-evaluation`: every op with one integer result whose
// operands are all arith.constant is evaluated the way the block simulation
// and the in-place probe evaluate it (Obs/Support/IntegerEvaluation.h), and
// gets `test.value`, the value (sign-extended at its width), or
// `test.value = "unknown"` where arith's result is poison or undefined. The
// values can then be checked against arithmetic by FileCheck.
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/IntegerEvaluation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::obs;

namespace {

struct TestIntegerEvaluationPass
    : PassWrapper<TestIntegerEvaluationPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestIntegerEvaluationPass)

  StringRef getArgument() const final { return "test-obs-integer-evaluation"; }
  StringRef getDescription() const final {
    return "Evaluate integer ops on constant operands as the block "
           "simulation does, and attach the value as `test.value`";
  }

  void runOnOperation() final {
    getOperation().walk([&](Operation *op) {
      if (op->getNumResults() != 1 || op->getNumOperands() == 0 ||
          !op->getResult(0).getType().isIntOrIndex())
        return;
      SmallVector<int64_t> values;
      for (Value operand : op->getOperands()) {
        APInt constant;
        if (!matchPattern(operand, m_ConstantInt(&constant)))
          return;
        values.push_back(
            wrapToInteger(operand.getType(), constant.getSExtValue()));
      }
      Builder builder(op->getContext());
      std::optional<int64_t> value = evaluateIntegerOp(*op, values);
      op->setAttr("test.value",
                  value ? Attribute(builder.getI64IntegerAttr(*value))
                        : builder.getStringAttr("unknown"));
    });
  }
};

} // namespace

namespace mlir::obs::test {
void registerTestIntegerEvaluationPass() {
  PassRegistration<TestIntegerEvaluationPass>();
}
} // namespace mlir::obs::test
