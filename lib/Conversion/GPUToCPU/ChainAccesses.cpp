//===- ChainAccesses.cpp - obs.carry's chain on the cpu target ------------===//
//
// The look-back of an obs.carry exchanges and reads its chain's words with
// atomics, which the cpu target, running one block at a time, would always
// find done. There they become calls of the runner (obs_chain_publish,
// obs_chain_observe), which answers each read with a state the word held,
// as a GPU's read may meet one (Obs/Support/RuntimeFunctions.h).
//
//===----------------------------------------------------------------------===//

#include "GPUToCPUImpl.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::obs;

/// The host address, as an i64, of element `index` of the rank-1 `memref`.
static Value addressOf(OpBuilder &b, Location loc, Value memref, Value index) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer());
  Value place = arith::AddIOp::create(
      b, loc, metadata.getOffset(),
      arith::MulIOp::create(b, loc, index, metadata.getStrides().front()));
  Value bytes = arith::MulIOp::create(
      b, loc, place, arith::ConstantIndexOp::create(b, loc, 8));
  return arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                    arith::AddIOp::create(b, loc, base, bytes));
}

LogicalResult mlir::obs::gpu_to_cpu::replaceChainAccesses(func::FuncOp func) {
  MLIRContext *context = func.getContext();
  ObsDialect::ChainPublishAttrHelper publish(context);
  ObsDialect::ChainObserveAttrHelper observe(context);
  SmallVector<memref::AtomicRMWOp> accesses;
  func.walk([&](memref::AtomicRMWOp access) {
    if (publish.isAttrPresent(access) || observe.isAttrPresent(access))
      accesses.push_back(access);
  });
  if (accesses.empty())
    return success();
  Type i64 = IntegerType::get(context, 64);
  Operation *symbols = SymbolTable::getNearestSymbolTable(func);
  FailureOr<func::FuncOp> publishing = getOrDeclareRuntimeFunction(
      symbols, kChainPublishFunction,
      FunctionType::get(context, {i64, i64}, {i64}));
  FailureOr<func::FuncOp> observing = getOrDeclareRuntimeFunction(
      symbols, kChainObserveFunction, FunctionType::get(context, {i64}, {i64}));
  if (failed(publishing) || failed(observing))
    return failure();
  for (memref::AtomicRMWOp access : accesses) {
    OpBuilder b(access);
    Location loc = access.getLoc();
    Value address =
        addressOf(b, loc, access.getMemref(), access.getIndices().front());
    func::CallOp call =
        publish.isAttrPresent(access)
            ? func::CallOp::create(b, loc, *publishing,
                                   ValueRange{address, access.getValue()})
            : func::CallOp::create(b, loc, *observing, ValueRange{address});
    access.replaceAllUsesWith(call.getResult(0));
    access.erase();
  }
  return success();
}
