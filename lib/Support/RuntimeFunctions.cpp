//===- RuntimeFunctions.cpp - what lowered code calls in obs-run ----------===//

#include "Obs/Support/RuntimeFunctions.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
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

FailureOr<func::FuncOp> mlir::obs::getScatterCollisionReport(Operation *op) {
  Type i64 = IntegerType::get(op->getContext(), 64);
  return getOrDeclareRuntimeFunction(
      SymbolTable::getNearestSymbolTable(op), kScatterCollisionFunction,
      FunctionType::get(op->getContext(), {i64, i64}, {}));
}

void mlir::obs::emitScatterCollisionReport(OpBuilder &builder, Location loc,
                                           func::FuncOp report, Value block,
                                           Value place) {
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(builder, loc, builder.getI64Type(),
                                      index);
  };
  func::CallOp::create(builder, loc, report,
                       ValueRange{toI64(block), toI64(place)});
}
