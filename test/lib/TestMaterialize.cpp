//===- TestMaterialize.cpp - exercises the pull-array interface -----------===//
//
// Two probes of PullArrayOpInterface, driven by attributes on ops:
//
//  * `test.materialize`: every array the op produces is replaced by an
//    obs.generate whose region computes element i through the
//    ElementEmitter, reading the kernel's arguments with obs.index. The
//    result shows, as IR, the index function built for the array.
//  * `test.elements`: every leaf of the op's first result is emitted with
//    constant indices; when the arrays it comes from are generated from
//    constants, each folds to a constant, and the attribute is replaced by
//    the list of leaf values (a tuple leaf as a list of its scalars). The
//    values can then be checked against DESIGN section 4 by FileCheck.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Matchers.h"
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
  Block *body =
      builder.createBlock(&generate.getBody(), {}, builder.getIndexType(), loc);
  ElementEmitter::Scope scope(emitter);
  outerPath.push_back(body->getArgument(0));
  SmallVector<Value> yielded;
  if (auto inner = dyn_cast<ArrType>(type.getElementType()))
    yielded.push_back(buildGenerate(builder, emitter, array, inner, outerPath));
  else
    yielded = emitter.emitLeaf(array, outerPath);
  outerPath.pop_back();
  YieldOp::create(builder, loc, yielded);
  return generate.getResult();
}

/// Appends all leaf paths of an array of `shape`, in row-major order.
void enumerateLeaves(ArrayRef<uint64_t> shape, SmallVectorImpl<uint64_t> &path,
                     SmallVectorImpl<SmallVector<uint64_t>> &leaves) {
  if (path.size() == shape.size()) {
    leaves.emplace_back(path.begin(), path.end());
    return;
  }
  for (uint64_t i = 0; i < shape[path.size()]; ++i) {
    path.push_back(i);
    enumerateLeaves(shape, path, leaves);
    path.pop_back();
  }
}

/// Emits every leaf of `array` with constant indices into a scratch block and
/// returns their values, or fails at the first that does not fold.
FailureOr<ArrayAttr> foldLeaves(Operation *op, Value array) {
  MLIRContext *context = op->getContext();
  auto type = cast<ArrType>(array.getType());
  SmallVector<SmallVector<uint64_t>> leaves;
  SmallVector<uint64_t> path;
  enumerateLeaves(type.getShape(), path, leaves);

  Block scratch;
  OpBuilder builder(context);
  builder.setInsertionPointToStart(&scratch);
  ElementEmitter emitter(builder, op->getLoc());
  SmallVector<Attribute> values;
  for (ArrayRef<uint64_t> leaf : leaves) {
    SmallVector<Value> indices = llvm::map_to_vector(
        leaf, [&](uint64_t i) { return emitter.constantIndex(i); });
    SmallVector<Attribute> scalars;
    for (Value scalar : emitter.emitLeaf(array, indices)) {
      Attribute constant;
      if (!matchPattern(scalar, m_Constant(&constant))) {
        op->emitError() << "element " << values.size()
                        << " does not fold to a constant";
        scratch.dropAllDefinedValueUses();
        return failure();
      }
      scalars.push_back(constant);
    }
    values.push_back(scalars.size() == 1 ? scalars.front()
                                         : ArrayAttr::get(context, scalars));
  }
  scratch.dropAllDefinedValueUses();
  if (emitter.failed())
    return failure();
  return ArrayAttr::get(context, values);
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
      if (op->hasAttr("test.materialize") || op->hasAttr("test.elements"))
        marked.push_back(op);
    });
    for (Operation *op : marked) {
      if (op->hasAttr("test.elements")) {
        FailureOr<ArrayAttr> values = foldLeaves(op, op->getResult(0));
        if (failed(values))
          return signalPassFailure();
        op->setAttr("test.elements", *values);
        continue;
      }
      OpBuilder builder(op);
      builder.setInsertionPointAfter(op);
      ElementEmitter emitter(builder, op->getLoc());
      for (BlockArgument argument : kernel.getArguments())
        emitter.setSource(
            argument, [argument](OpBuilder &b, Location loc, ValueRange path) {
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
void registerTestBlockRunPass();
void registerTestIntegerEvaluationPass();
void registerTestLargeArraysPass();
void registerTestSymbolicHazardsPass();
void registerTestPasses() {
  PassRegistration<TestMaterializePass>();
  registerTestBlockRunPass();
  registerTestIntegerEvaluationPass();
  registerTestLargeArraysPass();
  registerTestSymbolicHazardsPass();
}
} // namespace mlir::obs::test
