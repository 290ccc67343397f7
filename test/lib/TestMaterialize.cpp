//===- TestMaterialize.cpp - exercises the pull-array interface -----------===//
//
// Replaces every array produced by an op marked `test.materialize` with an
// obs.generate whose region computes element i through the ElementEmitter,
// reading the kernel's arguments with obs.index. The result shows, as IR, the
// index function that PullArrayOpInterface builds for the array.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::obs;

namespace {

/// Reads the leaf at `path` of `array` with a chain of obs.index.
SmallVector<Value> readWithIndexOps(OpBuilder &builder, Location loc,
                                    Value array, ValueRange path) {
  for (Value index : path.drop_back())
    array = IndexOp::create(builder, loc, array, index).getResult(0);
  return SmallVector<Value>(
      IndexOp::create(builder, loc, array, path.back()).getResults());
}

/// Builds `obs.generate : type` computing each leaf of `array`; the indices
/// of the enclosing levels come in `outerPath`.
Value buildGenerate(OpBuilder &builder, ElementEmitter &emitter, Value array,
                    ArrType type, SmallVectorImpl<Value> &outerPath) {
  Location loc = emitter.getLoc();
  auto generate = GenerateOp::create(builder, loc, type);
  OpBuilder::InsertionGuard guard(builder);
  Block *body = builder.createBlock(&generate.getBody(), {},
                                    builder.getIndexType(), loc);
  ElementEmitter::Scope scope(emitter);
  outerPath.push_back(body->getArgument(0));
  SmallVector<Value> yielded;
  if (auto inner = dyn_cast<ArrType>(type.getElementType()))
    yielded.push_back(
        buildGenerate(builder, emitter, array, inner, outerPath));
  else
    yielded = emitter.emitLeaf(array, outerPath);
  outerPath.pop_back();
  YieldOp::create(builder, loc, yielded);
  return generate.getResult();
}

struct TestMaterializePass
    : PassWrapper<TestMaterializePass, OperationPass<KernelOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestMaterializePass)

  StringRef getArgument() const final { return "test-obs-materialize"; }
  StringRef getDescription() const final {
    return "Replace arrays of ops marked `test.materialize` by obs.generate "
           "ops holding their index functions";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry.insert<arith::ArithDialect, scf::SCFDialect, ub::UBDialect>();
  }

  void runOnOperation() final {
    KernelOp kernel = getOperation();
    SmallVector<Operation *> marked;
    kernel.walk([&](Operation *op) {
      if (op->hasAttr("test.materialize"))
        marked.push_back(op);
    });
    for (Operation *op : marked) {
      OpBuilder builder(op);
      builder.setInsertionPointAfter(op);
      ElementEmitter emitter(builder, op->getLoc());
      for (BlockArgument argument : kernel.getArguments())
        emitter.setSource(argument, [argument](OpBuilder &b, Location loc,
                                               ValueRange path) {
          return readWithIndexOps(b, loc, argument, path);
        });
      for (Value result : op->getResults()) {
        auto type = dyn_cast<ArrType>(result.getType());
        if (!type)
          continue;
        SmallVector<Value> path;
        Value generated = buildGenerate(builder, emitter, result, type, path);
        result.replaceAllUsesExcept(generated, generated.getDefiningOp());
      }
      if (emitter.failed())
        return signalPassFailure();
    }
  }
};

} // namespace

namespace mlir::obs::test {
void registerTestPasses() { PassRegistration<TestMaterializePass>(); }
} // namespace mlir::obs::test
