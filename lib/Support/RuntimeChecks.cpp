//===- RuntimeChecks.cpp - what the ref and cpu targets check as they run -===//

#include "Obs/Support/RuntimeChecks.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

void mlir::obs::emitScatterCollisionReport(OpBuilder &builder, Location loc,
                                           Value block, Value place) {
  Operation *symbols = SymbolTable::getNearestSymbolTable(
      builder.getInsertionBlock()->getParentOp());
  Type i64 = builder.getI64Type();
  auto function = dyn_cast_if_present<func::FuncOp>(
      SymbolTable::lookupSymbolIn(symbols, kScatterCollisionFunction));
  if (!function) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&symbols->getRegion(0).front());
    function = func::FuncOp::create(builder, loc, kScatterCollisionFunction,
                                    builder.getFunctionType({i64, i64}, {}));
    function.setPrivate();
  }
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(builder, loc, i64, index);
  };
  func::CallOp::create(builder, loc, function,
                       ValueRange{toI64(block), toI64(place)});
}
