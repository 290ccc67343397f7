//===- CarryLowering.cpp - obs.carry and the tickets of its blocks --------===//
//
// obs.carry: the thread that computes each element of a tile's value
// publishes it in the launch's chain, looks back over that element of the
// tiles before it (Merrill and Garland's decoupled look-back) and hands
// what they combine to through shared memory; the kernel's blocks take
// their tiles as tickets.
//
//===----------------------------------------------------------------------===//

#include "KernelLoweringImpl.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::kernel_lowering;

namespace {
/// The states of a tile's chain word, in its high 32 bits: nothing yet,
/// the tile's own value (an aggregate), and the inclusive prefix of every
/// tile up to it. The low 32 bits hold the value's bits.
enum class ChainFlag : int64_t { Nothing = 0, Aggregate = 1, Prefix = 2 };

/// Builds the look-back of one element of a carry in the thread that
/// computes it. The element's states are words `1 + t * K + element` of
/// the chain, for each tile `t` of a carry of K elements.
class LookBack {
public:
  LookBack(OpBuilder &builder, Location loc, CarryOp carry, Value chain,
           Value element)
      : b(builder), loc(loc), carry(carry), chain(chain), element(element),
        valueType(carry.getType().getElementType()) {}

  /// What the element of the tiles before `tile` combines to, the
  /// combine's identity in the first; `value` is this tile's.
  Value build(Value tile, Value value) {
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tile,
                                        constant(0));
    Value word = wordOf(tile);
    auto ifFirst = scf::IfOp::create(b, loc, TypeRange{valueType}, first,
                                     /*withElseRegion=*/true);
    {
      // The first tile has nothing before it: its prefix is its value.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifFirst.thenBlock());
      publish(word, ChainFlag::Prefix, value);
      scf::YieldOp::create(b, loc, carry.buildIdentity(b, loc));
      b.setInsertionPointToStart(ifFirst.elseBlock());
      publish(word, ChainFlag::Aggregate, value);
      Value before = lookBack(tile);
      publish(word, ChainFlag::Prefix,
              carry.buildCombine(b, loc, before, value));
      scf::YieldOp::create(b, loc, before);
    }
    return ifFirst.getResult(0);
  }

private:
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value constantI64(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, value, 64);
  }
  /// The chain word of the element's state in tile `tile`.
  Value wordOf(Value tile) {
    return carry.buildChainWord(b, loc, tile, element);
  }

  /// Word `word` := the flag and `value`'s bits, by an exchange: an atomic
  /// whose result is unused but that no pass makes a `red`, as
  /// obs-nvvm-reductions does an unused add or or. The word carries all
  /// that is published, so no ordering is needed beyond the atomic's.
  void publish(Value word, ChainFlag flag, Value value) {
    Value bits = arith::ExtUIOp::create(b, loc, b.getI64Type(), value);
    Value state = arith::OrIOp::create(
        b, loc, bits, constantI64(static_cast<int64_t>(flag) << 32));
    auto exchange = memref::AtomicRMWOp::create(
        b, loc, arith::AtomicRMWKind::assign, state, chain, ValueRange{word});
    ObsDialect::ChainPublishAttrHelper(b.getContext())
        .setAttr(exchange, b.getUnitAttr());
  }

  /// Word `word`, read whole by an atomic or of 0 at the GPU's scope.
  Value observe(Value word) {
    auto read =
        memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::ori,
                                    constantI64(0), chain, ValueRange{word});
    ObsDialect::ChainObserveAttrHelper(b.getContext())
        .setAttr(read, b.getUnitAttr());
    return read;
  }

  /// The look-back from the tile before `tile`: waits while a word holds
  /// nothing, combines each aggregate it meets on the left of what it has
  /// (from the combine's identity, which is one on both sides), and stops
  /// at the first inclusive prefix. The first tile publishes a prefix and
  /// never an aggregate, so the walk ends there at the latest.
  Value lookBack(Value tile) {
    Value start = arith::SubIOp::create(b, loc, tile, constant(1));
    Type index = b.getIndexType();
    auto loop =
        scf::WhileOp::create(b, loc, TypeRange{index, valueType},
                             ValueRange{start, carry.buildIdentity(b, loc)});
    Block *before =
        b.createBlock(&loop.getBefore(), {}, {index, valueType}, {loc, loc});
    Block *after =
        b.createBlock(&loop.getAfter(), {}, {index, valueType}, {loc, loc});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(before);
      Value j = before->getArgument(0), combined = before->getArgument(1);
      Value state = observe(wordOf(j));
      Value flag = arith::ShRUIOp::create(b, loc, state, constantI64(32));
      Value bits = arith::TruncIOp::create(b, loc, valueType, state);
      auto compareFlag = [&](arith::CmpIPredicate predicate, ChainFlag which) {
        return arith::CmpIOp::create(b, loc, predicate, flag,
                                     constantI64(static_cast<int64_t>(which)));
      };
      Value nothing = compareFlag(arith::CmpIPredicate::eq, ChainFlag::Nothing);
      // Nothing yet: read the same word again. Otherwise take its value,
      // and go on to the tile before unless it was a prefix.
      Value nextJ = arith::SelectOp::create(
          b, loc, nothing, j, arith::SubIOp::create(b, loc, j, constant(1)));
      Value nextCombined =
          arith::SelectOp::create(b, loc, nothing, combined,
                                  carry.buildCombine(b, loc, bits, combined));
      scf::ConditionOp::create(
          b, loc, compareFlag(arith::CmpIPredicate::ne, ChainFlag::Prefix),
          ValueRange{nextJ, nextCombined});
      b.setInsertionPointToStart(after);
      scf::YieldOp::create(b, loc, after->getArguments());
    }
    b.setInsertionPointAfter(loop);
    return loop.getResult(1);
  }

  OpBuilder &b;
  Location loc;
  CarryOp carry;
  Value chain;
  Value element;
  Type valueType;
};
} // namespace

LogicalResult KernelLowering::lowerCarry(CarryOp carry) {
  std::optional<Location> outerLoc = currentLoc;
  currentLoc = carry.getLoc();
  llvm::scope_exit restore([&] { currentLoc = outerLoc; });
  FailureOr<Destination> allocated = allocateShared(carry.getType(), carry);
  if (failed(allocated))
    return failure();
  Value buffer = allocated->components.front();
  // Each element of the value is computed by one thread, which looks back
  // over that element of the tiles before and stores what comes before in
  // the carry's buffer. In the proofs' code that is any value: they follow
  // the handoff, not the chain (only this op touches it, by construction),
  // nor the tile (a ticket there).
  auto handOff = [&](Value element, ValueRange, ValueRange leaf) {
    Value before;
    if (grid == 1 && !counters.forProof) {
      // One block is the first tile, whatever the chain holds: the
      // instance a kernel run alone (and a launch of one block) calls
      // reads and writes no chain, which may not have been cleared.
      before = carry.buildIdentity(builder, loc());
    } else if (counters.forProof) {
      auto any = gpu::BlockIdOp::create(builder, loc(), gpu::Dimension::x);
      ObsDialect::DataAttrHelper(builder.getContext())
          .setAttr(any, builder.getUnitAttr());
      before = arith::IndexCastOp::create(builder, loc(),
                                          leaf.front().getType(), any);
    } else {
      Value tile = gpu::BlockIdOp::create(builder, loc(), gpu::Dimension::x);
      before = LookBack(builder, loc(), carry, chain, element)
                   .build(tile, leaf.front());
    }
    memref::StoreOp::create(builder, loc(), before, buffer, element);
  };
  if (failed(emitStage({carry.getValue()}, {}, handOff)))
    return failure();
  emitBarrier(SyncScope::Block, {});
  sources[carry.getResult()] = readerFor(*allocated);
  stored[carry.getResult()] = *allocated;
  return success();
}

void mlir::obs::kernel_lowering::emitTickets(gpu::GPUFuncOp func, Value chain,
                                             Location loc) {
  // Word 0 counts the blocks that have started: thread 0 takes the next
  // tile, shared memory hands it to the block, and every use of the
  // block's position is the ticket's. A block then waits only for tiles
  // that started before it (never for a block the GPU has not scheduled).
  OpBuilder b = OpBuilder::atBlockBegin(&func.front());
  auto workgroup = gpu::AddressSpaceAttr::get(
      func.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  Value slot = func.addWorkgroupAttribution(
      MemRefType::get({1}, b.getI64Type(), MemRefLayoutAttrInterface(),
                      workgroup),
      loc);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, zero);
  auto take = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(take.thenBlock());
    Value ticket = memref::AtomicRMWOp::create(
        b, loc, arith::AtomicRMWKind::addi,
        arith::ConstantIntOp::create(b, loc, 1, 64), chain, ValueRange{zero});
    memref::StoreOp::create(b, loc, ticket, slot, ValueRange{zero});
  }
  auto barrier = gpu::BarrierOp::create(b, loc);
  ObsDialect::SyncIndexAttrHelper(b.getContext())
      .setAttr(barrier, b.getI64IntegerAttr(-1));
  Value ticket = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      memref::LoadOp::create(b, loc, slot, ValueRange{zero}));
  SmallVector<gpu::BlockIdOp> blocks;
  func.walk([&](gpu::BlockIdOp block) {
    if (block.getDimension() == gpu::Dimension::x)
      blocks.push_back(block);
  });
  for (gpu::BlockIdOp block : blocks) {
    block.replaceAllUsesWith(ticket);
    block.erase();
  }
}
