//===- Chains.cpp - a cleared chain before every launch that carries ------===//
//
// An obs.carry's blocks take tickets from word 0 of the launch's chain and
// wait on the words after it, so the chain must hold zeros when the launch
// starts: a stale counter would give tiles past the grid, and a stale word
// a value no block of this launch published. Every such launch is preceded
// by one of @obs_clear_chain, a kernel of zeros, over the chain: proved,
// counted and run on every target like any other.
//
//===----------------------------------------------------------------------===//

#include "Obs/Builder/Combinators.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Transforms/DeviceExpansion.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::obs;

/// The words a block of @obs_clear_chain clears.
static constexpr uint64_t kClearTile = 256;

/// Whether `kernel` writes zeros over its one result, as @obs_clear_chain
/// does: a launch of it clears a chain. Judged by what it is, not by its
/// name, which a program may give a kernel of its own.
static bool isClearingKernel(KernelOp kernel) {
  if (!kernel || kernel.getNumArguments() != 0 ||
      kernel.getResultTypes().size() != 1 ||
      kernel.getResultTypes().front() !=
          ArrType::get(kClearTile, IntegerType::get(kernel.getContext(), 64)))
    return false;
  auto ret = cast<ReturnOp>(kernel.getBody().front().getTerminator());
  auto zeros = ret.getOperand(0).getDefiningOp<GenerateOp>();
  if (!zeros)
    return false;
  Operation *yield = zeros.getBody().front().getTerminator();
  return yield->getNumOperands() == 1 &&
         matchPattern(yield->getOperand(0), m_Zero());
}

/// The module's kernel that clears chains: its @obs_clear_chain where that
/// is one (isClearingKernel), else a new one at its start (renamed where
/// the name is taken).
static KernelOp getClearKernel(ModuleOp module) {
  constexpr StringLiteral name = "obs_clear_chain";
  auto existing =
      dyn_cast_or_null<KernelOp>(SymbolTable::lookupSymbolIn(module, name));
  if (isClearingKernel(existing))
    return existing;
  ImplicitLocOpBuilder b(module.getLoc(), module.getContext());
  auto type = ArrType::get(kClearTile, b.getI64Type());
  auto kernel = KernelOp::create(b, name, b.getFunctionType({}, {type}));
  SymbolTable(module).insert(kernel, module.getBody()->begin());
  kernel.setPrivate();
  kernel.setThreads(kClearTile);
  b.setInsertionPointToStart(&kernel.getBody().front());
  Value zeros = dsl::generate(b, type, [](ImplicitLocOpBuilder &b, Value) {
    return SmallVector<Value>{arith::ConstantIntOp::create(b, 0, 64)};
  });
  ReturnOp::create(b, ValueRange{zeros});
  return kernel;
}

/// `memref` before any memref.cast.
static Value withoutCasts(Value memref) {
  while (auto cast = memref.getDefiningOp<memref::CastOp>())
    memref = cast.getSource();
  return memref;
}

/// The words of `chain`, computed where `b` stands: from its type, or from
/// the allocation where it is one (a read of its descriptor would make the
/// cuda target's host wait for the launches before it).
static Value buildWordCount(ImplicitLocOpBuilder &b, Value chain) {
  auto type = cast<MemRefType>(chain.getType());
  if (type.hasStaticShape())
    return arith::ConstantIndexOp::create(b, type.getDimSize(0));
  auto alloc = chain.getDefiningOp<memref::AllocOp>();
  if (alloc && alloc.getDynamicSizes().size() == 1)
    return alloc.getDynamicSizes().front();
  return memref::DimOp::create(b, chain, 0);
}

/// Whether `launch`, right before a launch that carries over `chain`, is
/// the clear clearChains puts there: a clearing kernel over the whole
/// chain, its grid the chain's words in blocks (a program's own launch of
/// zeros over part of a chain leaves the rest as it was).
static bool isClearOf(LaunchOp launch, Value chain,
                      SymbolTableCollection &symbols) {
  if (!launch || launch.getOutputs().size() != 1 ||
      withoutCasts(launch.getOutputs().front()) != withoutCasts(chain) ||
      !isClearingKernel(symbols.lookupNearestSymbolFrom<KernelOp>(
          launch, launch.getKernelAttr())))
    return false;
  auto grid = dyn_cast_or_null<arith::CeilDivUIOp>(
      launch.getDynamicGrid() ? launch.getDynamicGrid().getDefiningOp()
                              : nullptr);
  if (!grid || getConstantIntValue(grid.getRhs()) != int64_t(kClearTile))
    return false;
  Value words = grid.getLhs();
  auto type = cast<MemRefType>(chain.getType());
  if (type.hasStaticShape())
    return getConstantIntValue(words) == type.getDimSize(0);
  auto alloc = chain.getDefiningOp<memref::AllocOp>();
  if (alloc && alloc.getDynamicSizes().size() == 1)
    return words == alloc.getDynamicSizes().front();
  auto dim = words.getDefiningOp<memref::DimOp>();
  return dim && withoutCasts(dim.getSource()) == withoutCasts(chain) &&
         matchPattern(dim.getIndex(), m_Zero());
}

LogicalResult mlir::obs::clearChains(ModuleOp module) {
  SymbolTableCollection symbols;
  SmallVector<std::pair<LaunchOp, Value>> launches;
  module.walk([&](LaunchOp launch) {
    auto kernel = symbols.lookupNearestSymbolFrom<KernelOp>(
        launch, launch.getKernelAttr());
    std::optional<unsigned> chain =
        kernel ? getChainArgument(kernel) : std::nullopt;
    if (!chain || launch.isTiled())
      return;
    unsigned operand =
        getFirstOperandOf(getLaunchOperandArrays(kernel), *chain);
    if (operand < launch.getInputs().size())
      launches.push_back({launch, launch.getInputs()[operand]});
  });
  if (launches.empty())
    return success();
  KernelOp clear = getClearKernel(module);
  for (auto [launch, chain] : launches) {
    if (isClearOf(dyn_cast_or_null<LaunchOp>(launch->getPrevNode()), chain,
                  symbols))
      continue;
    ImplicitLocOpBuilder b(launch.getLoc(), launch);
    auto anyLength = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
    Value words = chain;
    if (chain.getType() != anyLength)
      words = memref::CastOp::create(b, anyLength, chain);
    Value grid = arith::CeilDivUIOp::create(
        b, buildWordCount(b, chain),
        arith::ConstantIndexOp::create(b, kClearTile));
    LaunchOp::create(b, clear.getSymName(), grid, ValueRange{},
                     ValueRange{words});
  }
  return success();
}

Value mlir::obs::buildChainLength(OpBuilder &builder, Location loc, Value grid,
                                  uint64_t wordsPerTile) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value none =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, grid, zero);
  Value tileWords = builder.createOrFold<arith::MulIOp>(
      loc, grid, arith::ConstantIndexOp::create(builder, loc, wordsPerTile));
  Value words = arith::AddIOp::create(
      builder, loc, tileWords, arith::ConstantIndexOp::create(builder, loc, 1));
  return arith::SelectOp::create(builder, loc, none, zero, words);
}

bool mlir::obs::isChainAllocatedFor(Value memref, Value grid,
                                    uint64_t wordsPerTile) {
  auto alloc = memref.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc.getDynamicSizes().size() != 1)
    return false;
  auto select =
      alloc.getDynamicSizes().front().getDefiningOp<arith::SelectOp>();
  if (!select)
    return false;
  auto none = select.getCondition().getDefiningOp<arith::CmpIOp>();
  auto words = select.getFalseValue().getDefiningOp<arith::AddIOp>();
  if (!none || !words || none.getPredicate() != arith::CmpIPredicate::eq ||
      none.getLhs() != grid || !matchPattern(none.getRhs(), m_Zero()) ||
      !matchPattern(select.getTrueValue(), m_Zero()) ||
      !matchPattern(words.getRhs(), m_One()))
    return false;
  if (wordsPerTile == 1)
    return words.getLhs() == grid;
  auto tileWords = words.getLhs().getDefiningOp<arith::MulIOp>();
  return tileWords && tileWords.getLhs() == grid &&
         getConstantIntValue(tileWords.getRhs()) ==
             static_cast<int64_t>(wordsPerTile);
}
