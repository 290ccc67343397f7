//===- ObsCarry.cpp - obs.carry and the chain it uses ---------------------===//
//
// A kernel's chain argument and obs.carry, the one op that reads and writes
// it: what the tiles before a block's combine to, by decoupled look-back
// (docs/Rationale.md, "Blocks that wait on earlier blocks").
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::obs;

bool mlir::obs::isChainArgument(KernelOp kernel, unsigned index) {
  return static_cast<bool>(
      kernel.getArgAttr(index, ObsDialect::ChainAttrHelper::getNameStr()));
}

std::optional<unsigned> mlir::obs::getChainArgument(KernelOp kernel) {
  for (unsigned index = 0, e = kernel.getNumArguments(); index < e; ++index)
    if (isChainArgument(kernel, index))
      return index;
  return std::nullopt;
}

LogicalResult mlir::obs::verifyChainArgument(KernelOp kernel, unsigned index,
                                             NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (!isa<UnitAttr>(attribute.getValue()))
    return kernel.emitOpError()
           << "argument " << index << "'s '" << name
           << "' is a unit attribute, not " << attribute.getValue();
  if (isGlobalArgument(kernel, index) || getHalo(kernel, index))
    return kernel.emitOpError()
           << "argument " << index
           << " is the kernel's chain, which is neither 'obs.global' nor "
              "has a halo";
  if (getChainArgument(kernel) != index)
    return kernel.emitOpError()
           << "has two chains (arguments " << *getChainArgument(kernel)
           << " and " << index
           << "): a kernel's blocks take their tiles from one";
  BlockArgument chain = kernel.getBody().getArgument(index);
  auto type = dyn_cast<ArrType>(chain.getType());
  if (!type || type.getDepth() != 1 || !type.getElementType().isInteger(64))
    return kernel.emitOpError()
           << "argument " << index << " is its chain, an !obs.arr<N x i64>, "
           << "not " << chain.getType();
  if (!chain.hasOneUse() || !isa<CarryOp>(*chain.user_begin()) ||
      chain.use_begin()->getOperandNumber() != 1)
    return kernel.emitOpError()
           << "argument " << index
           << " is its chain: one obs.carry uses it, as its chain, and "
              "nothing else does";
  return success();
}

void CarryOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

Speculation::Speculatability CarryOp::getSpeculatability() {
  return Speculation::NotSpeculatable;
}

LogicalResult CarryOp::verify() {
  auto value = cast<ArrType>(getValue().getType());
  auto integer = dyn_cast<IntegerType>(value.getElementType());
  if (value.getDepth() != 1 || value.getLength() == 0 || !integer ||
      integer.getWidth() > 32)
    return emitOpError() << "carries an array of integers of at most 32 bits "
                            "(a chain word holds each beside its flag), not "
                         << value;
  auto chain = dyn_cast<BlockArgument>(getChain());
  auto kernel = dyn_cast<KernelOp>(getOperation()->getParentOp());
  if (!chain || !kernel || chain.getOwner() != &kernel.getBody().front() ||
      !isChainArgument(kernel, chain.getArgNumber()))
    return emitOpError() << "takes its kernel's chain, an argument marked "
                            "'obs.chain', as its chain";
  return success();
}

Value CarryOp::buildIdentity(OpBuilder &builder, Location loc) {
  auto type = cast<IntegerType>(getType().getElementType());
  unsigned width = type.getWidth();
  APInt identity = APInt::getZero(width);
  switch (getCombine()) {
  case ScatterCombine::Add:
  case ScatterCombine::Or:
    break;
  case ScatterCombine::Min:
    identity = APInt::getSignedMaxValue(width);
    break;
  case ScatterCombine::Max:
    identity = APInt::getSignedMinValue(width);
    break;
  case ScatterCombine::And:
    identity = APInt::getAllOnes(width);
    break;
  }
  return arith::ConstantOp::create(builder, loc, type,
                                   builder.getIntegerAttr(type, identity));
}

Value CarryOp::buildCombine(OpBuilder &builder, Location loc, Value before,
                            Value after) {
  switch (getCombine()) {
  case ScatterCombine::Add:
    return arith::AddIOp::create(builder, loc, before, after);
  case ScatterCombine::Min:
    return arith::MinSIOp::create(builder, loc, before, after);
  case ScatterCombine::Max:
    return arith::MaxSIOp::create(builder, loc, before, after);
  case ScatterCombine::Or:
    return arith::OrIOp::create(builder, loc, before, after);
  case ScatterCombine::And:
    return arith::AndIOp::create(builder, loc, before, after);
  }
  llvm_unreachable("unknown combine");
}

Value CarryOp::buildChainWord(OpBuilder &builder, Location loc, Value tile,
                              Value element) {
  Value first = builder.createOrFold<arith::MulIOp>(
      loc, tile,
      arith::ConstantIndexOp::create(builder, loc, getWordsPerTile()));
  return arith::AddIOp::create(
      builder, loc, arith::AddIOp::create(builder, loc, first, element),
      arith::ConstantIndexOp::create(builder, loc, 1));
}

uint64_t mlir::obs::getChainWordsPerTile(KernelOp kernel) {
  std::optional<unsigned> chain = getChainArgument(kernel);
  if (!chain)
    return 0;
  for (Operation *user : kernel.getBody().getArgument(*chain).getUsers())
    if (auto carry = dyn_cast<CarryOp>(user))
      return carry.getWordsPerTile();
  return 1; // Not verified yet: the verifier says what is wrong.
}

LogicalResult mlir::obs::verifyChainLength(LaunchOp launch, KernelOp kernel) {
  std::optional<unsigned> chain = getChainArgument(kernel);
  std::optional<int64_t> grid = launch.getStaticGridSize();
  if (!chain || !grid || *grid == 0)
    return success();
  unsigned operand = getFirstOperandOf(getLaunchOperandArrays(kernel), *chain);
  if (operand >= launch.getInputs().size())
    return success(); // The operands' count is reported after.
  auto type = dyn_cast<MemRefType>(launch.getInputs()[operand].getType());
  if (!type || type.getRank() != 1 || type.isDynamicDim(0))
    return success();
  // A static launch passes the chain as the argument's type says: the
  // argument's length is the one to change, and it must hold the grid.
  uint64_t declared = arrType(kernel.getArgument(*chain)).getLength();
  uint64_t perTile = getChainWordsPerTile(kernel);
  uint64_t needed = static_cast<uint64_t>(*grid) * perTile + 1;
  std::string words =
      perTile == 1 ? std::string("the grid's blocks plus one")
                   : llvm::formatv("{0} words per block of the grid (its "
                                   "carry's elements) plus one",
                                   perTile)
                         .str();
  if (static_cast<uint64_t>(type.getDimSize(0)) != declared)
    return launch.emitOpError()
           << "passes @" << kernel.getSymName() << " a chain (ins " << operand
           << ") of " << type.getDimSize(0) << " words, but its chain argument "
           << *chain << " is " << kernel.getArgument(*chain).getType()
           << ": a launch of static sizes passes the chain at the argument's "
              "length, which must be at least "
           << words << " (" << needed << ")";
  if (static_cast<uint64_t>(type.getDimSize(0)) >= needed)
    return success();
  return launch.emitOpError()
         << "passes @" << kernel.getSymName() << " a chain (ins " << operand
         << ") of " << type.getDimSize(0) << " words over " << *grid
         << " blocks: a chain holds the ticket counter and "
         << (perTile == 1 ? std::string("a word")
                          : llvm::formatv("{0} words", perTile).str())
         << " per block, " << needed;
}
