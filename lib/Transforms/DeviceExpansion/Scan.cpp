//===- Scan.cpp - obs.device_scan as a launch plan ------------------------===//
//
// obs.device_scan: reduce, then scan, then scan each tile from its carry:
// the tiles' totals, their exclusive scan (the same plan, a level up), and
// every tile scanned from what comes before it (docs/Rationale.md, "The
// device level").
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::device_expansion;

std::optional<ScatterCombine> FoldPlan::getLookBackCombine() {
  if (scalars.size() != 1)
    return std::nullopt;
  auto integer = dyn_cast<IntegerType>(scalars.front());
  Block &block = body.front();
  if (!integer || integer.getWidth() > 32 || block.getNumArguments() != 2 ||
      !llvm::hasSingleElement(block.without_terminator()))
    return std::nullopt;
  Operation &op = block.front();
  Operation *yield = block.getTerminator();
  if (op.getNumOperands() != 2 || op.getNumResults() != 1 ||
      yield->getNumOperands() != 1 || yield->getOperand(0) != op.getResult(0) ||
      !((op.getOperand(0) == block.getArgument(0) &&
         op.getOperand(1) == block.getArgument(1)) ||
        (op.getOperand(0) == block.getArgument(1) &&
         op.getOperand(1) == block.getArgument(0))))
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<ScatterCombine>>(&op)
      .Case([](arith::AddIOp) { return ScatterCombine::Add; })
      .Case([](arith::MinSIOp) { return ScatterCombine::Min; })
      .Case([](arith::MaxSIOp) { return ScatterCombine::Max; })
      .Case([](arith::OrIOp) { return ScatterCombine::Or; })
      .Case([](arith::AndIOp) { return ScatterCombine::And; })
      .Default([](Operation *) { return std::nullopt; });
}

KernelOp FoldPlan::getScanTileKernel(ScanKind kind, CarryFrom from,
                                     std::optional<ScatterCombine> lookBack) {
  KernelOp &kernel =
      scanTiles[static_cast<unsigned>(kind)][static_cast<unsigned>(from)];
  if (kernel)
    return kernel;
  Attribute absent = absentOf(identity.getValue());
  SmallVector<std::pair<Type, Attribute>> arguments = {
      {tileType(tiling.tile), absent}};
  bool carried = from != CarryFrom::Nothing;
  MLIRContext *context = op->getContext();
  // A chain's words are never absent (the chain is whole): its `absent`
  // says nothing.
  Type i64 = IntegerType::get(context, 64);
  if (from == CarryFrom::Argument)
    arguments.push_back({tileType(1), absent});
  else if (from == CarryFrom::LookBack)
    arguments.push_back({ArrType::get(2, i64), IntegerAttr::get(i64, 0)});
  std::string role = (kind == ScanKind::Inclusive ? "scan" : "exclusive_scan");
  role += from == CarryFrom::LookBack ? "_look_back"
                                      : (carried ? "_tile" : "_one_tile");
  kernel = buildKernel(
      role, arguments, tileType(tiling.tile),
      [&](ImplicitLocOpBuilder &b, ValueRange args) {
        Value scanned =
            dsl::scan(b, args.front(), combineFn(), ScanNetwork::Sklansky);
        // What comes before the tile: the carry, or nothing. The first
        // tile has nothing before it: its carry (the identity) is not
        // combined, as one tile alone combines none, so that an identity
        // that holds only on the right (a minimum's (largest, 0) before
        // (largest, v); +0.0 before -0.0) gives one answer at every length
        // (found by an adversarial run: the first element's value changed
        // from 4,096 elements to 4,097).
        SmallVector<Value> carry;
        Value firstTile;
        if (carried) {
          // The tiles before this one, looked back over: the tile's total
          // (its scan's last element; absent elements are the identity)
          // published in the chain, what came before it read from there.
          Value before = args[1];
          if (from == CarryFrom::LookBack) {
            Value total = dsl::generate(
                b, tileType(1), [&](ImplicitLocOpBuilder &b, Value) {
                  return dsl::index(
                      b, scanned,
                      arith::ConstantIndexOp::create(b, tiling.tile - 1));
                });
            before = CarryOp::create(b, total, args[1], *lookBack);
          }
          carry = dsl::index(b, before, arith::ConstantIndexOp::create(b, 0));
          firstTile = arith::CmpIOp::create(
              b, arith::CmpIPredicate::eq, BlockIdOp::create(b),
              arith::ConstantIndexOp::create(b, 0));
        }
        // `x` after the carry: `carry ⊕ x`, or `x` in the first tile.
        auto afterCarry = [&](ImplicitLocOpBuilder &b, ValueRange x) {
          SmallVector<Value> combined = combine(b, carry, x);
          for (auto [value, alone] : llvm::zip_equal(combined, x))
            value = arith::SelectOp::create(b, firstTile, alone, value);
          return combined;
        };
        if (kind == ScanKind::Inclusive) {
          if (!carried)
            return SmallVector<Value>{scanned};
          return SmallVector<Value>{dsl::map(b, scanned, element, afterCarry)};
        }
        // Exclusive: element i is what comes before the tile combined with
        // the inclusive scan's element i - 1.
        return SmallVector<Value>{dsl::generate(
            b, tileType(tiling.tile),
            [&](ImplicitLocOpBuilder &b, Value i) -> SmallVector<Value> {
              Value zero = arith::ConstantIndexOp::create(b, 0);
              Value first =
                  arith::CmpIOp::create(b, arith::CmpIPredicate::eq, i, zero);
              auto choice = scf::IfOp::create(b, scalars, first,
                                              /*withElseRegion=*/true);
              {
                OpBuilder::InsertionGuard guard(b);
                b.setInsertionPointToStart(choice.thenBlock());
                scf::YieldOp::create(b, carried ? carry : identityValues(b));
                b.setInsertionPointToStart(choice.elseBlock());
                Value before = arith::SubIOp::create(
                    b, i, arith::ConstantIndexOp::create(b, 1));
                SmallVector<Value> previous = dsl::index(b, scanned, before);
                scf::YieldOp::create(b, carried ? afterCarry(b, previous)
                                                : previous);
              }
              return SmallVector<Value>(choice.getResults());
            })};
      });
  if (from == CarryFrom::LookBack)
    markChainArgument(kernel, 1);
  return kernel;
}

void FoldPlan::emitScan(ImplicitLocOpBuilder &b, ScanKind kind,
                        ValueRange inputs, ValueRange outputs, Value length,
                        uint64_t most, Value active) {
  Level level = planLevel(b, length, most, active);
  // One pass where the combine is one obs.carry looks back by: each tile
  // scanned from what its look-back over the tiles before it finds, 8
  // bytes an element and a chain's words a tile (docs/Rationale.md,
  // "Blocks that wait on earlier blocks"). Its chain is allocated before
  // any launch, as every plan's temporaries are, so that the launches
  // follow one another on one stream.
  std::optional<ScatterCombine> lookBack =
      active || !level.tiles ? std::nullopt : getLookBackCombine();
  Value chain;
  if (lookBack)
    chain = allocateOf(b, b.getI64Type(),
                       buildChainLength(b, b.getLoc(), level.tiles,
                                        /*wordsPerTile=*/1));
  if (level.oneTileGrid)
    launch(b, getScanTileKernel(kind, CarryFrom::Nothing), level.oneTileGrid,
           inputs, outputs);
  if (!level.tiles)
    return;
  if (lookBack) {
    SmallVector<Value> tileInputs(inputs);
    tileInputs.push_back(chain);
    launch(b, getScanTileKernel(kind, CarryFrom::LookBack, lookBack),
           level.tiles, tileInputs, outputs);
    temporaries.push_back(chain);
    return;
  }
  // Reduce, then scan: each tile's total; their exclusive scan, what comes
  // before each tile; each tile scanned from it. The last tile's total
  // comes before no tile, so it is never computed (its tile is not read
  // twice): the exclusive scan reads one total fewer than it writes
  // carries, and its last, absent, input is the identity.
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value one = arith::ConstantIndexOp::create(b, 1);
  Value allButLast = b.createOrFold<arith::MaxSIOp>(
      b.createOrFold<arith::SubIOp>(level.tiles, one), zero);
  SmallVector<Value> totals = allocate(b, allButLast);
  SmallVector<Value> carries = allocate(b, level.tiles);
  launch(b, getReduceTileKernel(), allButLast, inputs, totals);
  emitScan(b, ScanKind::Exclusive, totals, carries, level.tiles,
           llvm::divideCeil(most, tiling.tile), level.nextActive);
  SmallVector<Value> tileInputs(inputs);
  llvm::append_range(tileInputs, carries);
  launch(b, getScanTileKernel(kind, CarryFrom::Argument), level.tiles,
         tileInputs, outputs);
  llvm::append_range(temporaries, totals);
  llvm::append_range(temporaries, carries);
}

void mlir::obs::populateDeviceScanExpansionPatterns(
    RewritePatternSet &patterns, const DeviceExpansionOptions &options) {
  patterns.add<ExpandFold<DeviceScanOp>>(
      patterns.getContext(), options,
      [](FoldPlan &plan, ImplicitLocOpBuilder &b, DeviceScanOp scan,
         ValueRange inputs, Value length, uint64_t most) {
        plan.emitScan(
            b, scan.getKind(), inputs,
            viewOutputs(b, scan.getOutputs(), length, scan.getInputs(), inputs),
            length, most, /*active=*/Value());
      });
}
