//===- RuntimeFunctions.cpp - what lowered code calls in its runner ------===//

#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/SourceLocation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

FailureOr<func::FuncOp>
mlir::obs::getOrDeclareRuntimeFunction(Operation *symbolTable, StringRef name,
                                       FunctionType type) {
  Operation *existing = SymbolTable::lookupSymbolIn(symbolTable, name);
  if (!existing) {
    OpBuilder builder =
        OpBuilder::atBlockBegin(&symbolTable->getRegion(0).front());
    auto declaration =
        func::FuncOp::create(builder, symbolTable->getLoc(), name, type);
    declaration.setPrivate();
    return declaration;
  }
  auto function = dyn_cast<func::FuncOp>(existing);
  if (!function || function.getFunctionType() != type)
    return existing->emitError()
           << "@" << name << " is a function obs's runtime provides, of type "
           << type;
  return function;
}

SmallVector<Value> mlir::obs::selectFirstFailure(OpBuilder &builder,
                                                 Location loc,
                                                 ArrayRef<RuntimeCheck> checks,
                                                 ValueRange none) {
  SmallVector<Value> chosen(none);
  for (const RuntimeCheck &check : llvm::reverse(checks))
    for (auto [value, reported] : llvm::zip_equal(chosen, check.reported))
      value =
          arith::SelectOp::create(builder, loc, check.holds, value, reported);
  return chosen;
}

FailureOr<func::FuncOp> mlir::obs::getLaunchContractReport(Operation *op) {
  Type i64 = IntegerType::get(op->getContext(), 64);
  return getOrDeclareRuntimeFunction(
      SymbolTable::getNearestSymbolTable(op), kLaunchContractFunction,
      FunctionType::get(op->getContext(), {i64, i64, i64}, {}));
}

mlir::obs::RuntimeCheck
mlir::obs::makeLaunchContractCheck(OpBuilder &builder, Location loc,
                                   Value holds, LaunchContractBreach breach,
                                   Value first, Value second) {
  Value kind = arith::ConstantIntOp::create(builder, loc,
                                            static_cast<int64_t>(breach), 64);
  return {holds, {kind, first, second}};
}

void mlir::obs::emitLaunchContractCall(OpBuilder &builder, Location loc,
                                       func::FuncOp report,
                                       ArrayRef<RuntimeCheck> checks) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, value, 64);
  };
  SmallVector<Value> broken = selectFirstFailure(
      builder, loc, checks,
      {constant(static_cast<int64_t>(LaunchContractBreach::None)), constant(-1),
       constant(-1)});
  func::CallOp::create(builder, loc, report, broken);
}

FailureOr<func::FuncOp> mlir::obs::getScatterCollisionReport(Operation *op) {
  Type i64 = IntegerType::get(op->getContext(), 64);
  return getOrDeclareRuntimeFunction(
      SymbolTable::getNearestSymbolTable(op), kScatterCollisionFunction,
      FunctionType::get(op->getContext(), {i64, i64, i64, i64}, {}));
}

/// A call of `report` with `indices`, each an index, passed as i64s, then
/// the line and column of `loc`'s first file location (0 and 0 without
/// one): a report the run makes names the op, as the compiler's errors do.
static void emitReportCall(OpBuilder &builder, Location loc,
                           func::FuncOp report, ValueRange indices) {
  SmallVector<Value> arguments;
  for (Value index : indices)
    arguments.push_back(
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index));
  std::optional<FileLineColLoc> file = obs::findFileLocation(loc);
  for (int64_t value : {file ? int64_t(file->getLine()) : 0,
                        file ? int64_t(file->getColumn()) : 0})
    arguments.push_back(arith::ConstantIntOp::create(builder, loc, value, 64));
  func::CallOp::create(builder, loc, report, arguments);
}

void mlir::obs::emitScatterCollisionReport(OpBuilder &builder, Location loc,
                                           func::FuncOp report, Value block,
                                           Value place) {
  emitReportCall(builder, loc, report, {block, place});
}

FailureOr<func::FuncOp> mlir::obs::getIndexOutsideReport(Operation *op) {
  Type i64 = IntegerType::get(op->getContext(), 64);
  return getOrDeclareRuntimeFunction(
      SymbolTable::getNearestSymbolTable(op), kIndexOutsideFunction,
      FunctionType::get(op->getContext(), {i64, i64, i64, i64, i64}, {}));
}

void mlir::obs::emitIndexOutsideReport(OpBuilder &builder, Location loc,
                                       func::FuncOp report, Value inside,
                                       Value block, Value index,
                                       uint64_t length) {
  Value outside = arith::XOrIOp::create(
      builder, loc, inside, arith::ConstantIntOp::create(builder, loc, 1, 1));
  auto ifOutside = scf::IfOp::create(builder, loc, outside,
                                     /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(ifOutside.thenBlock());
  if (!block)
    block = arith::ConstantIndexOp::create(builder, loc, -1);
  emitReportCall(
      builder, loc, report,
      {block, index, arith::ConstantIndexOp::create(builder, loc, length)});
}
