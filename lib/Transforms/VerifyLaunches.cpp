//===- VerifyLaunches.cpp - global memory, proved launch by launch --------===//
//
// The blocks of a launch run concurrently and in any order, and the threads
// of a block in any interleaving that its barriers allow. Global memory is
// therefore proved like shared memory, exactly, place by place (the first
// two points are Obs/Analysis/LaunchProof.h's; this pass drives them and
// judges the third, and proves calls and global scatters):
//
// * every memref is followed through its views to its allocation, so two
//   views of one allocation are two sets of places in one memory, not two
//   memories; what cannot be followed is rejected;
// * every block and element is visited (layouts are affine maps with
//   floordiv and mod, with no cheap general proof): each place is inside its
//   memref and its allocation, no place is written twice, and no block
//   writes a place that another block reads;
// * where a block reads a place it also writes (an output over an input), a
//   simulation of the kernel's block (Obs/Analysis/BlockRun.h) shows which
//   thread reads and writes it and when: every read must come before the
//   write, in the same thread or across a barrier that orders the two. The
//   kernel's arrays mean their values before the launch, so a read after the
//   write is as wrong as a race. A block's accesses do not depend on which
//   block it is (only their places do), so each pair of elements is judged
//   once, for all blocks.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/Allocations.h"
#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Analysis/LaunchProof.h"
#include "Obs/Dialect/Obs/CompiledLayout.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallSet.h"
#include <array>
#include <set>

namespace mlir::obs {
#define GEN_PASS_DEF_OBSCOLLECTLAUNCHOVERLAPS
#define GEN_PASS_DEF_OBSVERIFYLAUNCHES
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {

constexpr unsigned kWarpSize = KernelOp::kWarpSize;

struct ObsVerifyLaunchesPass
    : mlir::obs::impl::ObsVerifyLaunchesBase<ObsVerifyLaunchesPass> {
  void runOnOperation() override;

  LogicalResult proveOverlaps(LaunchOp launch, KernelOp kernel,
                              ArrayRef<LaunchOverlap> overlaps);
  LogicalResult proveGlobalScatterPlaces(LaunchOp launch, KernelOp kernel);
  /// The run of `kernel`'s block, simulated only for launches that need one
  /// (`why`): the one obs-verify-sync proved in this context, when the
  /// kernel is as it was then, otherwise one shared with the passes that
  /// simulated the kernel as it is; or an error at `launch`.
  FailureOr<std::shared_ptr<const BlockRun>>
  simulateFor(LaunchOp launch, KernelOp kernel, StringRef why) {
    // The proved run is looked up once per kernel (its key prints the
    // kernel whole), however many launches need it.
    auto [known, isNew] = provedRuns.try_emplace(kernel);
    if (isNew)
      known->second = findProvedRun(kernel, ObsDialect::getProofKey(kernel));
    if (known->second) {
      addToStatistic(*this, numRunsReused, "proved-runs-reused");
      return known->second;
    }
    FailureOr<std::shared_ptr<const KernelSimulation>> simulated =
        getChildAnalysis<KernelSimulations>(kernel).simulate(kernel);
    if (failed(simulated)) {
      launch.emitOpError() << why
                           << ", which needs the kernel's block simulated, "
                              "and it cannot be";
      return failure();
    }
    return std::shared_ptr<const BlockRun>(*simulated, &(*simulated)->run);
  }
  /// Per kernel, the run its proof in this context left, or null: for one
  /// run of the pass.
  llvm::DenseMap<Operation *, std::shared_ptr<const BlockRun>> provedRuns;
  LogicalResult proveCalls(ModuleOp module, SymbolTableCollection &symbols);
};

struct ObsCollectLaunchOverlapsPass
    : mlir::obs::impl::ObsCollectLaunchOverlapsBase<
          ObsCollectLaunchOverlapsPass> {
  void runOnOperation() override;
};

} // namespace

LogicalResult
ObsVerifyLaunchesPass::proveOverlaps(LaunchOp launch, KernelOp kernel,
                                     ArrayRef<LaunchOverlap> overlaps) {
  FailureOr<std::shared_ptr<const BlockRun>> run =
      simulateFor(launch, kernel, "reads and writes one place in a block");
  if (failed(run))
    return failure();
  SmallVector<GlobalOverlap> elements = llvm::map_to_vector(
      overlaps, [](const LaunchOverlap &overlap) { return overlap.elements; });
  SmallVector<Hazard> hazards =
      findGlobalHazards(**run, elements, kWarpSize, /*limit=*/1);
  if (hazards.empty())
    return success();
  const Hazard &hazard = hazards.front();
  const Access &read = hazard.first.write ? hazard.second : hazard.first;
  const Access &write = hazard.first.write ? hazard.first : hazard.second;
  // The overlap the hazard is at, for its block and allocation.
  const LaunchOverlap *at = &overlaps.front();
  for (const LaunchOverlap &overlap : overlaps)
    if (overlap.elements.readMemory == read.memory &&
        overlap.elements.writtenMemory == write.memory &&
        (read.element < 0 ||
         static_cast<uint64_t>(read.element) == overlap.elements.readElement) &&
        static_cast<uint64_t>(write.element) ==
            overlap.elements.writtenElement) {
      at = &overlap;
      break;
    }
  InFlightDiagnostic diag = launch.emitOpError();
  diag << "in " << nameLaunchBlock(launch, at->block) << ", thread "
       << read.thread << " (warp " << read.thread / kWarpSize
       << ") reads element " << at->elements.readElement << " through "
       << nameLaunchOperand(launch, at->elements.readMemory) << " and thread "
       << write.thread << " (warp " << write.thread / kWarpSize
       << ") writes that place as element " << at->elements.writtenElement
       << " through " << nameLaunchOperand(launch, at->elements.writtenMemory);
  if (hazard.kind == Hazard::ReadAfterWrite)
    diag << ", before the read: a kernel reads its inputs as they were "
            "before the launch";
  else
    diag << ", with no barrier between them that orders both";
  diag.attachNote(at->allocation) << "the allocation";
  diag.attachNote(read.op->getLoc()) << "the kernel reads it here";
  diag.attachNote(write.op->getLoc()) << "the kernel writes it here";
  // A barrier the refinement passes weakened without knowing the launch's
  // overlaps is the usual cause; say how to give them that knowledge.
  bool planned = false;
  kernel.walk([&](SyncOp sync) { planned |= bool(sync.getPlanAttr()); });
  if (planned && !ObsDialect::LaunchOverlapsAttrHelper(kernel.getContext())
                      .isAttrPresent(kernel))
    diag.attachNote(kernel.getLoc())
        << "the kernel's plan was made without this launch's overlaps: run "
           "obs-collect-launch-overlaps before the refinement passes, as "
           "obs-optimize does";
  return tagError(diag, ErrorKind::RejectedChoice);
}

/// The name of the global `root` (an allocation) is, when it is one that is
/// not constant: the memory a function may reach without an argument.
static StringAttr writableGlobalOf(Value root) {
  auto get = root.getDefiningOp<memref::GetGlobalOp>();
  if (!get || isConstantGlobal(root))
    return {};
  return get.getNameAttr().getAttr();
}

LogicalResult
ObsVerifyLaunchesPass::proveCalls(ModuleOp module,
                                  SymbolTableCollection &symbols) {
  // Functions that launch kernels, directly or through calls; and the
  // globals each function reaches itself or through its calls.
  llvm::SetVector<Operation *> launching = getLaunchingFunctions(
      module, [](Operation *op) { return isa<LaunchOp>(op); });
  llvm::DenseMap<Operation *, llvm::SetVector<StringAttr>> globals;
  module.walk([&](memref::GetGlobalOp get) {
    if (auto function = get->getParentOfType<FunctionOpInterface>())
      if (StringAttr name = writableGlobalOf(get.getResult()))
        globals[function].insert(name);
  });
  bool grew = true;
  while (grew) {
    grew = false;
    module.walk([&](CallOpInterface call) {
      FunctionOpInterface callee = resolveCalledFunction(call, symbols);
      auto caller = call->getParentOfType<FunctionOpInterface>();
      if (!callee || !caller)
        return;
      llvm::SetVector<StringAttr> reached = globals.lookup(callee);
      for (StringAttr name : reached)
        grew |= globals[caller].insert(name);
    });
  }
  // A launching function's memref arguments and the globals it reaches are
  // proved as distinct allocations; a call that passes one allocation
  // twice, or a global the callee reaches itself, breaks that. A call the
  // proof cannot follow may reach a launching function with anything.
  // Per function, the arguments its launches write, itself or through its
  // calls.
  ArgumentsReaching written = getArgumentsReaching(
      module,
      [](Operation *op) {
        auto launch = dyn_cast<LaunchOp>(op);
        return launch ? SmallVector<Value>(launch.getOutputs())
                      : SmallVector<Value>();
      },
      [](Value memref) -> Value {
        FailureOr<AllocationView> view = followToAllocation(
            memref, /*user=*/nullptr, "", /*runTimeOffsets=*/true);
        return succeeded(view) ? view->root : Value();
      });
  WalkResult result = module.walk([&](CallOpInterface call) {
    FunctionOpInterface callee = resolveCalledFunction(call, symbols);
    bool passesMemory = llvm::any_of(call.getArgOperands(), [](Value operand) {
      return isa<MemRefType>(operand.getType());
    });
    if (!callee && passesMemory && !launching.empty()) {
      InFlightDiagnostic diag =
          call->emitOpError()
          << "passes memrefs to a function the launch proof cannot tell, in "
             "a module whose functions launch kernels: the proof follows "
             "only calls by symbol (or of a func.constant), so that it "
             "sees every allocation a launch is given";
      tagError(diag, ErrorKind::RejectedChoice);
      return WalkResult::interrupt();
    }
    if (!callee || !launching.contains(callee))
      return WalkResult::advance();
    llvm::DenseMap<Value, SmallVector<std::pair<unsigned, Value>>> roots;
    const llvm::SetVector<StringAttr> &reached = globals[callee];
    for (auto [index, argument] : llvm::enumerate(call.getArgOperands())) {
      // An unranked memref too, which followToAllocation refuses: skipped,
      // one allocation passed twice so was taken as two (found by a review).
      if (!isa<BaseMemRefType>(argument.getType()))
        continue;
      FailureOr<AllocationView> placement =
          followToAllocation(argument, call, "argument " + Twine(index),
                             /*runTimeOffsets=*/true);
      if (failed(placement))
        return WalkResult::interrupt();
      // A launch that writes a constant global through the callee's
      // argument wrote read-only memory: ref crashed, cpu lost the writes.
      if (isConstantGlobal(placement->root) &&
          written.lookup(callee).contains(index)) {
        InFlightDiagnostic diag =
            call->emitOpError()
            << "passes a constant global as argument " << index
            << " to a function whose launches write it, and a constant "
               "global is read-only";
        diag.attachNote(placement->root.getLoc()) << "the allocation";
        tagError(diag, ErrorKind::RejectedChoice);
        return WalkResult::interrupt();
      }
      if (StringAttr global = writableGlobalOf(placement->root);
          global && reached.contains(global)) {
        InFlightDiagnostic diag =
            call->emitOpError()
            << "passes @" << global.getValue() << " as argument " << index
            << " to a function that launches kernels and reaches @"
            << global.getValue()
            << " itself: its memref arguments and the globals it uses are "
               "proved as distinct allocations";
        diag.attachNote(placement->root.getLoc()) << "the allocation";
        tagError(diag, ErrorKind::RejectedChoice);
        return WalkResult::interrupt();
      }
      // Views of one allocation whose elements never meet are distinct
      // memory, as the callee's proof takes them to be: each must be
      // apart from every earlier argument over it.
      SmallVector<std::pair<unsigned, Value>> &over = roots[placement->root];
      Value memref = argument;
      auto met = llvm::find_if(over, [&](std::pair<unsigned, Value> earlier) {
        return !provedApart(earlier.second, memref);
      });
      if (met == over.end()) {
        over.push_back({static_cast<unsigned>(index), memref});
        continue;
      }
      InFlightDiagnostic diag =
          call->emitOpError()
          << "passes one allocation as arguments " << met->first << " and "
          << index << " to a function that launches kernels, whose memref "
          << "arguments are proved as distinct allocations";
      diag.attachNote(placement->root.getLoc()) << "the allocation";
      tagError(diag, ErrorKind::RejectedChoice);
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// A global scatter without a combine writes each place at most once in the
/// whole launch. Where its places depend on data (or on the block), ref and
/// cpu check that as they run; a place the simulation of the kernel's block
/// knows from the thread ids alone is written in every block alike, so it
/// is proved here: no two threads write it, and no two blocks do (the
/// launch may run more than one).
LogicalResult ObsVerifyLaunchesPass::proveGlobalScatterPlaces(LaunchOp launch,
                                                              KernelOp kernel) {
  SmallVector<unsigned> checked = getUncombinedGlobalResults(kernel);
  if (checked.empty())
    return success();
  FailureOr<std::shared_ptr<const BlockRun>> simulated = simulateFor(
      launch, kernel,
      "launches a global obs.scatter without a combine, whose places need "
      "it");
  if (failed(simulated))
    return failure();
  const BlockRun &run = **simulated;
  // The memories of the simulated block are its gpu.func's arguments: the
  // launch's operands, in order. The scatters' memrefs, by operand.
  SmallVector<LaunchOperandArray> operandArrays =
      getLaunchOperandArrays(kernel);
  llvm::DenseMap<unsigned, unsigned> resultOfOperand;
  for (unsigned index : checked)
    resultOfOperand[getFirstOperandOf(operandArrays, kernel.getNumArguments() +
                                                         index)] = index;
  std::optional<int64_t> grid = launch.getStaticGridSize();
  bool manyBlocks = launch.getDynamicGrid() || (grid && *grid > 1);
  // The first writer of each known place, by memory.
  llvm::DenseMap<std::pair<unsigned, int64_t>, const Access *> writers;
  for (const Access &access : run.getAccesses()) {
    if (!access.write || !access.checkedScatter || access.element < 0 ||
        !resultOfOperand.contains(access.memory))
      continue;
    auto [first, added] =
        writers.try_emplace({access.memory, access.element}, &access);
    if (!added || manyBlocks) {
      InFlightDiagnostic diag = launch.emitOpError();
      diag << "writes place " << access.element << " of "
           << nameLaunchOperand(launch, access.memory)
           << " twice, through a global "
           << "obs.scatter without a combine: ";
      if (!added)
        diag << "threads " << first->second->thread << " and " << access.thread
             << " of every block write it";
      else
        diag << "thread " << access.thread << " writes it in every block, "
             << "whatever the block's data, and the launch runs "
             << (grid ? std::to_string(*grid) : std::string("any number of"))
             << " blocks";
      ScatterOp scatter =
          kernel.getGlobalScatter(resultOfOperand.lookup(access.memory));
      diag.attachNote(scatter.getLoc()) << "the scatter";
      return tagError(diag, ErrorKind::RejectedChoice);
    }
  }
  return success();
}

void ObsVerifyLaunchesPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(verifyDeviceExpanded(module)))
    return signalPassFailure();
  SymbolTableCollection symbols;
  LaunchPlaceProofs proofs;
  WalkResult result = module.walk([&](LaunchOp launch) {
    auto kernel = symbols.lookupNearestSymbolFrom<KernelOp>(
        launch, launch.getKernelAttr());
    SmallVector<LaunchOverlap> overlaps;
    if (!kernel || failed(proofs.prove(launch, kernel, overlaps)) ||
        (!overlaps.empty() &&
         failed(proveOverlaps(launch, kernel, overlaps))) ||
        failed(proveGlobalScatterPlaces(launch, kernel)))
      return WalkResult::interrupt();
    addToStatistic(*this, numLaunches, "launches");
    return WalkResult::advance();
  });
  provedRuns.clear();
  addToStatistic(*this, numPlacesReused, "launch-places-reused",
                 proofs.getReused());
  if (result.wasInterrupted() || failed(proveCalls(module, symbols)))
    return signalPassFailure();
  markAllAnalysesPreserved();
}

void ObsCollectLaunchOverlapsPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(verifyDeviceExpanded(module)))
    return signalPassFailure();
  SymbolTableCollection symbols;
  // Every launch's pairs, by kernel, each once and in a fixed order.
  llvm::MapVector<Operation *, std::set<std::array<int64_t, 4>>> byKernel;
  LaunchPlaceProofs proofs;
  WalkResult result = module.walk([&](LaunchOp launch) {
    auto kernel = symbols.lookupNearestSymbolFrom<KernelOp>(
        launch, launch.getKernelAttr());
    SmallVector<LaunchOverlap> overlaps;
    if (!kernel || failed(proofs.prove(launch, kernel, overlaps)))
      return WalkResult::interrupt();
    for (const LaunchOverlap &overlap : overlaps)
      byKernel[kernel].insert(
          {overlap.elements.readMemory,
           static_cast<int64_t>(overlap.elements.readElement),
           overlap.elements.writtenMemory,
           static_cast<int64_t>(overlap.elements.writtenElement)});
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return signalPassFailure();
  auto helper = ObsDialect::LaunchOverlapsAttrHelper(&getContext());
  for (auto &[kernel, pairs] : byKernel) {
    if (pairs.empty())
      continue;
    SmallVector<int64_t> flat;
    for (const std::array<int64_t, 4> &pair : pairs)
      flat.append(pair.begin(), pair.end());
    helper.setAttr(kernel, DenseI64ArrayAttr::get(&getContext(), flat));
    addToStatistic(*this, numKernels, "kernels");
    addToStatistic(*this, numPairs, "pairs", pairs.size());
  }
}
