//===- ScatterLowering.cpp - scatters
//---------------------------------------===//
//
// obs.scatter: each element written at the place its index says, into shared
// memory or (global) the launch's memref, combined or checked as it runs.
//
//===----------------------------------------------------------------------===//

#include "KernelLoweringImpl.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::kernel_lowering;

LogicalResult KernelLowering::lowerScatter(ScatterOp scatter) {
  std::optional<Location> outerLoc = currentLoc;
  currentLoc = scatter.getLoc();
  llvm::scope_exit restore([&] { currentLoc = outerLoc; });
  ArrType type = scatter.getType();
  bool global = scatter.getGlobal();
  // Where the values go: the launch's memref for a global scatter (up to
  // its length, where that is known only at run time), or a shared buffer.
  Destination destination;
  unsigned result = 0;
  if (global) {
    result = scatter.getResult().use_begin()->getOperandNumber();
    destination = outputs[result];
  } else {
    FailureOr<Destination> allocated = allocateShared(type, scatter);
    if (failed(allocated))
      return failure();
    destination = *allocated;
  }
  Value buffer = destination.components.front();
  Value length =
      destination.lengths.empty() ? Value() : destination.lengths.front();
  // Without a combine, the cpu target's code counts the writes of each
  // place, and reports the second: a global scatter's counts are the
  // launch's, a shared one's a buffer of the block's own (outside any
  // shared-memory plan: the proofs never see it).
  Value writes;
  func::FuncOp report;
  if (runTimeChecks && !scatter.getCombine()) {
    FailureOr<func::FuncOp> declared = getScatterCollisionReport(func);
    if (failed(declared))
      return failure();
    report = *declared;
    if (global) {
      writes = globalWriteCounts.lookup(result);
    } else {
      auto workgroup = gpu::AddressSpaceAttr::get(
          func.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
      writes = func.addWorkgroupAttribution(
          MemRefType::get({static_cast<int64_t>(type.getLength())},
                          builder.getI32Type(), MemRefLayoutAttrInterface(),
                          workgroup),
          scatter.getLoc());
      func.setWorkgroupAttributionAttr(
          func.getNumWorkgroupAttributions() - 1,
          ObsDialect::CheckedScatterAttrHelper(func.getContext()).getName(),
          builder.getUnitAttr());
    }
  }

  // A shared buffer starts as the initial value (and no writes), the
  // block's threads sweeping it; a global memref keeps what it holds.
  if (!global) {
    counters.stage();
    Value initial =
        arith::ConstantOp::create(builder, loc(), scatter.getInitialAttr());
    Value zero =
        writes ? arith::ConstantIntOp::create(builder, loc(), 0, 32) : Value();
    uint64_t rounds = llvm::divideCeil(type.getLength(), blockThreads);
    auto sweep = scf::ForOp::create(builder, loc(), constant(0),
                                    constant(rounds), constant(1));
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(sweep.getBody()->getTerminator());
      Value place = arith::AddIOp::create(
          builder, loc(), threadId(),
          arith::MulIOp::create(builder, loc(), sweep.getInductionVar(),
                                constant(blockThreads)));
      auto inside = scf::IfOp::create(
          builder, loc(),
          arith::CmpIOp::create(builder, loc(), arith::CmpIPredicate::ult,
                                place, constant(type.getLength())),
          /*withElseRegion=*/false);
      builder.setInsertionPointToStart(inside.thenBlock());
      memref::StoreOp::create(builder, loc(), initial, buffer, place);
      if (writes)
        memref::StoreOp::create(builder, loc(), zero, writes, place);
    }
    emitBarrier(SyncScope::Block, {});
  }

  // Each value at its place: merged atomically, or stored.
  auto writeAt = [&](Value, ValueRange, ValueRange leaf) {
    auto [place, isInside] =
        length ? scatter.buildPlace(builder, loc(), leaf[1], length)
               : scatter.buildPlace(builder, loc(), leaf[1]);
    emitScatterWrite(scatter, buffer, writes, report, leaf[0], place, isInside);
  };
  if (failed(
          emitStage({scatter.getValues(), scatter.getPlaces()}, {}, writeAt)))
    return failure();
  // The kernel never reads a global scatter's memref; it reads a shared
  // one's buffer after a barrier.
  if (global)
    return success();
  emitBarrier(SyncScope::Block, {});
  sources[scatter.getResult()] = readerFor(destination);
  stored[scatter.getResult()] = destination;
  return success();
}

void KernelLowering::emitScatterWrite(ScatterOp scatter, Value buffer,
                                      Value writes, func::FuncOp report,
                                      Value value, Value place,
                                      Value isInside) {
  auto inside =
      scf::IfOp::create(builder, loc(), isInside, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(inside.thenBlock());
  if (scatter.getCombine()) {
    memref::AtomicRMWOp::create(builder, loc(), scatter.getAtomicKind(), value,
                                buffer, place);
    return;
  }
  if (writes) {
    Value one = arith::ConstantIntOp::create(builder, loc(), 1, 32);
    Value before = memref::AtomicRMWOp::create(
        builder, loc(), arith::AtomicRMWKind::addi, one, writes, place);
    Value zero = arith::ConstantIntOp::create(builder, loc(), 0, 32);
    auto again = scf::IfOp::create(
        builder, loc(),
        arith::CmpIOp::create(builder, loc(), arith::CmpIPredicate::ne, before,
                              zero),
        /*withElseRegion=*/false);
    OpBuilder::InsertionGuard reportGuard(builder);
    builder.setInsertionPointToStart(again.thenBlock());
    emitScatterCollisionReport(
        builder, loc(), report,
        gpu::BlockIdOp::create(builder, loc(), gpu::Dimension::x), place);
  }
  auto store = memref::StoreOp::create(builder, loc(), value, buffer, place);
  ObsDialect::CheckedScatterAttrHelper(builder.getContext())
      .setAttr(store, builder.getUnitAttr());
}
