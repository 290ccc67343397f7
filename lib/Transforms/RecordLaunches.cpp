//===- RecordLaunches.cpp - launches reported at run time -----------------===//
//
// obs-record-launches: every launch tells a function of the runner what it
// is (kernel, grid, block) and what it moves, so that `obs-run
// --emit=plan` prints the launch plan a host function runs for its inputs,
// device-level plans whose grids are known only at run time included.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSRECORDLAUNCHES
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsRecordLaunchesPass
    : mlir::obs::impl::ObsRecordLaunchesBase<ObsRecordLaunchesPass> {
  void runOnOperation() override;
};
} // namespace

/// The bytes a launch of `grid` blocks (an i64) moves through `memref`,
/// whose blocks each move `perBlock` of its elements: grid times that, cut
/// at the memref's elements where `capped` (no place is moved twice, and
/// the memref's size may be known only at run time).
static Value launchBytes(ImplicitLocOpBuilder &b, Value grid, Value memref,
                         int64_t perBlock, bool capped) {
  auto type = cast<MemRefType>(memref.getType());
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, value, 64);
  };
  Value places = arith::MulIOp::create(b, grid, constant(perBlock));
  if (capped) {
    // Its elements: its length times a row's (the inner extents are
    // static).
    Value length = arith::IndexCastOp::create(
        b, b.getI64Type(), memref::DimOp::create(b, memref, 0));
    Value elements = arith::MulIOp::create(
        b, length,
        constant(ShapedType::getNumElements(type.getShape().drop_front())));
    places = arith::MinUIOp::create(b, places, elements);
  }
  return arith::MulIOp::create(b, places, constant(getElementBytes(type)));
}

void ObsRecordLaunchesPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(verifyDeviceExpanded(module)))
    return signalPassFailure();
  SymbolTable symbols(module);
  SmallVector<LaunchOp> launches;
  module.walk([&](LaunchOp launch) { launches.push_back(launch); });
  if (launches.empty())
    return;

  MLIRContext *context = module.getContext();
  Type i64 = IntegerType::get(context, 64);
  auto recordType = FunctionType::get(context, {i64, i64, i64, i64, i64}, {});
  FailureOr<func::FuncOp> record =
      getOrDeclareRuntimeFunction(module, kRecordLaunchFunction, recordType);
  if (failed(record))
    return signalPassFailure();

  // Kernels numbered in order of first launch.
  SmallVector<Attribute> names;
  DenseMap<StringAttr, int64_t> numbers;
  for (LaunchOp launch : launches) {
    auto kernel = symbols.lookup<KernelOp>(launch.getKernel());
    if (!kernel)
      continue; // The verifier says so; nothing to record.
    auto [entry, added] =
        numbers.try_emplace(kernel.getSymNameAttr(), names.size());
    if (added)
      names.push_back(FlatSymbolRefAttr::get(kernel.getSymNameAttr()));

    ImplicitLocOpBuilder b(launch.getLoc(), launch);
    Value grid = arith::IndexCastOp::create(b, i64, launch.buildGridSize(b));
    Value read = arith::ConstantIntOp::create(b, 0, 64);
    Value written = read;
    SmallVector<Value> memrefs(launch.getInputs());
    llvm::append_range(memrefs, launch.getOutputs());
    // What one block holds of each memref: its array's leaves.
    for (auto [index, memref, operand] :
         llvm::enumerate(memrefs, getLaunchOperandArrays(kernel))) {
      // A block moves its chunk, cut at the memref's end where that is
      // known only at run time; a global scatter's block writes (or
      // merges) one element per value, and no place twice without a
      // combine.
      Value bytes;
      if (operand.chain) {
        // A chain: each block takes its ticket (a word read and written),
        // publishes each element of its value and of its prefix, and reads
        // at least the words of the tile before it (where that tile is
        // done, as it mostly is): 8 + 8 K bytes read and 8 + 16 K written
        // a block, for a carry of K elements.
        uint64_t perTile = getChainWordsPerTile(kernel);
        auto bytesPerBlock = [&](uint64_t wordsPerElement) {
          uint64_t words = 1 + wordsPerElement * perTile;
          return arith::MulIOp::create(
              b, grid, arith::ConstantIntOp::create(b, 8 * words, 64));
        };
        read = arith::AddIOp::create(b, read, bytesPerBlock(1));
        written = arith::AddIOp::create(b, written, bytesPerBlock(2));
        continue;
      }
      if (operand.whole && operand.array < kernel.getNumArguments()) {
        // An `obs.global` argument: its memref once, whole, for the
        // launch. A merge's blocks read windows that together are the
        // array once; their searches' few dozen places a block are left
        // out (docs/Rationale.md, "The device level").
        bytes = launchBytes(b, grid, memref, operand.type.getNumLeaves(),
                            /*capped=*/true);
      } else if (operand.whole) {
        ScatterOp scatter =
            kernel.getGlobalScatter(operand.array - kernel.getNumArguments());
        bytes = launchBytes(b, grid, memref,
                            arrType(scatter.getValues()).getLength(),
                            /*capped=*/!scatter.getCombine());
      } else {
        bytes = launchBytes(
            b, grid, memref, operand.type.getNumLeaves(),
            /*capped=*/!cast<MemRefType>(memref.getType()).hasStaticShape());
      }
      Value &total = index < launch.getInputs().size() ? read : written;
      total = arith::AddIOp::create(b, total, bytes);
    }
    func::CallOp::create(
        b, *record,
        ValueRange{arith::ConstantIntOp::create(b, entry->second, 64), grid,
                   arith::ConstantIntOp::create(
                       b, static_cast<int64_t>(kernel.getBlockThreads()), 64),
                   read, written});
    addToStatistic(*this, numLaunches, "launches");
  }
  ObsDialect::RecordedLaunchesAttrHelper(context).setAttr(
      module, ArrayAttr::get(context, names));
}
