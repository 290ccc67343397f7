//===- Scan.cpp - obs.device_scan as a launch plan ------------------------===//
//
// obs.device_scan: reduce, then scan, then scan each tile from its carry:
// the tiles' totals, their exclusive scan (the same plan, a level up), and
// every tile scanned from what comes before it (docs/Rationale.md, "The
// device level").
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::device_expansion;

KernelOp FoldPlan::getScanTileKernel(ScanKind kind, bool carried) {
  KernelOp &kernel = scanTiles[static_cast<unsigned>(kind)][carried];
  if (kernel)
    return kernel;
  Attribute absent = absentOf(identity.getValue());
  SmallVector<std::pair<Type, Attribute>> arguments = {
      {tileType(tiling.tile), absent}};
  if (carried)
    arguments.push_back({tileType(1), absent});
  std::string role = (kind == ScanKind::Inclusive ? "scan" : "exclusive_scan");
  role += carried ? "_tile" : "_one_tile";
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
          carry = dsl::index(b, args[1], arith::ConstantIndexOp::create(b, 0));
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
  return kernel;
}

void FoldPlan::emitScan(ImplicitLocOpBuilder &b, ScanKind kind,
                        ValueRange inputs, ValueRange outputs, Value length,
                        uint64_t most, Value active) {
  Level level = planLevel(b, length, most, active);
  if (level.oneTileGrid)
    launch(b, getScanTileKernel(kind, /*carried=*/false), level.oneTileGrid,
           inputs, outputs);
  if (!level.tiles)
    return;
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
  launch(b, getScanTileKernel(kind, /*carried=*/true), level.tiles, tileInputs,
         outputs);
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
