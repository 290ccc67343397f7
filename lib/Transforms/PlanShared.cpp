//===- PlanShared.cpp - shared buffers placed by liveness -----------------===//

#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Dialect/Obs/Storage.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/StableSort.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include <numeric>

namespace mlir::obs {
#define GEN_PASS_DEF_OBSPLANSHARED
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// Offsets are aligned for the widest scalar (and for vector loads later).
static constexpr uint64_t kAlignment = 16;

namespace {

/// A shared buffer of the unplanned kernel, and when it is in use.
struct Buffer {
  unsigned memory;
  int64_t owner;
  uint64_t bytes;
  unsigned firstPhase, lastPhase;
  uint64_t offset = 0;
};

struct ObsPlanSharedPass
    : mlir::obs::impl::ObsPlanSharedBase<ObsPlanSharedPass> {
  using ObsPlanSharedBase::ObsPlanSharedBase;
  void runOnOperation() override;

  /// Pads the rows of `kernel`'s shared arrays of rows where that removes
  /// bank conflicts `simulation` shows: each owner in turn tries 1 to 4
  /// elements after each row and keeps the padding of fewest wavefronts,
  /// if any takes fewer than what came before. Returns the simulation of
  /// the kernel as padded.
  FailureOr<std::shared_ptr<const KernelSimulation>>
  padRowsOf(KernelOp kernel, std::shared_ptr<const KernelSimulation> simulation,
            KernelSimulations &simulations);
};

} // namespace

SharedPlan mlir::obs::takeSharedPlan(KernelOp kernel) {
  SharedPlan plan;
  MLIRContext *context = kernel.getContext();
  plan.bytes =
      kernel->removeAttr(ObsDialect::SharedBytesAttrHelper(context).getName());
  StringAttr offsetsName =
      ObsDialect::SharedOffsetsAttrHelper(context).getName();
  StringAttr paddingName =
      ObsDialect::SharedPaddingAttrHelper(context).getName();
  kernel.walk([&](Operation *op) {
    if (Attribute offsets = op->removeAttr(offsetsName))
      plan.offsets.push_back({op, offsets});
    if (Attribute padding = op->removeAttr(paddingName))
      plan.paddings.push_back({op, padding});
  });
  return plan;
}

void SharedPlan::restore(KernelOp kernel) const {
  MLIRContext *context = kernel.getContext();
  if (bytes)
    kernel->setAttr(ObsDialect::SharedBytesAttrHelper(context).getName(),
                    bytes);
  for (auto [op, offsetsOfOp] : offsets)
    op->setAttr(ObsDialect::SharedOffsetsAttrHelper(context).getName(),
                offsetsOfOp);
  for (auto [op, padding] : paddings)
    op->setAttr(ObsDialect::SharedPaddingAttrHelper(context).getName(),
                padding);
}

/// Whether `cost`'s shared accesses take more than 1.05 times the fewest
/// wavefronts their widths allow: bank conflicts.
static bool hasBankConflicts(const BlockCost &cost) {
  return cost.sharedWavefronts * 100 > cost.sharedLeastWavefronts * 105;
}

FailureOr<std::shared_ptr<const KernelSimulation>>
ObsPlanSharedPass::padRowsOf(KernelOp kernel,
                             std::shared_ptr<const KernelSimulation> simulation,
                             KernelSimulations &simulations) {
  // Only arrays of rows are padded: a kernel without any costs no more.
  SmallVector<Operation *> owners;
  kernel.walk([&](Operation *op) {
    if (ownsSharedRows(op))
      owners.push_back(op);
  });
  if (owners.empty())
    return simulation;
  BlockCost best = computeBlockCost(simulation->run);
  if (!hasBankConflicts(best))
    return simulation;
  // The shared bytes every buffer alone would take: a padding that would
  // not fit even so is not tried.
  uint64_t unplanned = 0;
  for (const Memory &memory : simulation->run.getMemories())
    if (memory.workgroup)
      unplanned += memory.bytes;
  MLIRContext *context = kernel.getContext();
  auto paddingOf = ObsDialect::SharedPaddingAttrHelper(context);
  Builder builder(context);
  for (Operation *owner : owners) {
    ArrType type = cast<ArrType>(owner->getResult(0).getType());
    // A repeat owns two buffers of its array.
    uint64_t buffers = isa<RepeatOp>(owner) ? 2 : 1;
    auto paddingBytes = [&](int64_t padding) {
      return buffers * (getArrayBytes(type, padding) - getArrayBytes(type));
    };
    std::optional<int64_t> chosen;
    for (int64_t padding = 1; padding <= 4; ++padding) {
      if (unplanned + paddingBytes(padding) > maxSharedBytes)
        break;
      paddingOf.setAttr(owner, builder.getI64IntegerAttr(padding));
      FailureOr<std::shared_ptr<const KernelSimulation>> padded =
          simulations.simulate(kernel);
      if (failed(padded))
        return failure();
      BlockCost cost = computeBlockCost((*padded)->run);
      if (cost.sharedWavefronts < best.sharedWavefronts) {
        best = cost;
        chosen = padding;
        simulation = *padded;
      }
    }
    if (chosen) {
      paddingOf.setAttr(owner, builder.getI64IntegerAttr(*chosen));
      unplanned += paddingBytes(*chosen);
      addToStatistic(*this, numPadded, "buffers-padded");
      if (!hasBankConflicts(best))
        break;
    } else {
      owner->removeAttr(paddingOf.getName());
    }
  }
  return simulation;
}

void ObsPlanSharedPass::runOnOperation() {
  KernelOp kernel = getOperation();
  // Plan from the kernel's buffers as the lowering allocates them alone.
  (void)takeSharedPlan(kernel);
  auto &simulations = getAnalysis<KernelSimulations>();
  SimulationCount count(*this, numSimulations, numSimulationsReused,
                        numSimulationsRescoped, numSimulationsShared,
                        simulations);
  FailureOr<std::shared_ptr<const KernelSimulation>> simulation =
      simulations.simulate(kernel);
  if (failed(simulation))
    return signalPassFailure();
  if (padRows) {
    simulation = padRowsOf(kernel, *simulation, simulations);
    if (failed(simulation))
      return signalPassFailure();
  }
  const BlockRun &run = (*simulation)->run;
  gpu::GPUFuncOp func = (*simulation)->func;

  // Each workgroup buffer's owner and live range, in allocation order.
  SmallVector<Buffer> buffers;
  llvm::DenseMap<unsigned, unsigned> bufferOfMemory;
  unsigned firstWorkgroup =
      run.getMemories().size() - func.getNumWorkgroupAttributions();
  for (auto [index, memory] : llvm::enumerate(run.getMemories())) {
    if (!memory.workgroup)
      continue;
    auto owner = func.getWorkgroupAttributionAttr(
        index - firstWorkgroup,
        ObsDialect::OwnerIndexAttrHelper(func.getContext()).getName());
    bufferOfMemory[index] = buffers.size();
    buffers.push_back({static_cast<unsigned>(index),
                       owner ? cast<IntegerAttr>(owner).getInt() : -1,
                       memory.bytes, ~0u, 0});
  }
  for (const Access &access : run.getAccesses()) {
    auto it = bufferOfMemory.find(access.memory);
    if (it == bufferOfMemory.end())
      continue;
    Buffer &buffer = buffers[it->second];
    buffer.firstPhase = std::min(buffer.firstPhase, access.phase);
    buffer.lastPhase = std::max(buffer.lastPhase, access.phase);
  }

  // Two buffers may share memory when one's last use and the other's first
  // are separated by a barrier that orders all threads: a block barrier.
  SmallVector<unsigned> blockBarriersBefore = run.countBlockBarriersBefore();
  // In a block of one warp, any barrier orders every pair of threads.
  bool oneWarp = run.getThreads() <= KernelOp::kWarpSize;
  auto separated = [&](const Buffer &early, const Buffer &late) {
    return early.lastPhase < late.firstPhase &&
           (oneWarp || blockBarriersBefore[late.firstPhase] -
                               blockBarriersBefore[early.lastPhase] >
                           0);
  };
  auto compatible = [&](const Buffer &a, const Buffer &b) {
    return a.firstPhase != ~0u && b.firstPhase != ~0u &&
           (separated(a, b) || separated(b, a));
  };

  // First fit, buffers in the order they come into use.
  SmallVector<unsigned> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  stableSort(order, [&](unsigned a, unsigned b) {
    return buffers[a].firstPhase < buffers[b].firstPhase;
  });
  SmallVector<unsigned> placed;
  uint64_t total = 0;
  for (unsigned index : order) {
    Buffer &buffer = buffers[index];
    uint64_t offset = 0;
    bool moved = true;
    while (moved) {
      moved = false;
      for (unsigned other : placed) {
        const Buffer &o = buffers[other];
        bool overlaps =
            offset < o.offset + o.bytes && o.offset < offset + buffer.bytes;
        if (overlaps && !compatible(o, buffer)) {
          offset = llvm::alignTo(o.offset + o.bytes, kAlignment);
          moved = true;
        }
      }
    }
    buffer.offset = offset;
    if (llvm::any_of(placed, [&](unsigned other) {
          const Buffer &o = buffers[other];
          return offset < o.offset + o.bytes &&
                 o.offset < offset + buffer.bytes;
        }))
      addToStatistic(*this, numReused, "buffers-reusing-memory");
    placed.push_back(index);
    total = std::max(total, offset + buffer.bytes);
    addToStatistic(*this, numBuffers, "buffers");
  }
  if (failed(kernel.checkSharedMemory(total, maxSharedBytes)))
    return signalPassFailure();
  addToStatistic(*this, numSharedBytes, "shared-bytes", total);
  if (buffers.empty())
    return;

  // Record the plan on the owners, their buffers' offsets in order.
  Builder builder(kernel.getContext());
  llvm::DenseMap<int64_t, SmallVector<int64_t>> offsets;
  for (const Buffer &buffer : buffers)
    offsets[buffer.owner].push_back(buffer.offset);
  // The simulation's owners are copies; the kernel's come in the same order.
  SmallVector<Operation *> owners;
  kernel.walk([&](Operation *op) {
    if (isSharedBufferOwner(op))
      owners.push_back(op);
  });
  for (auto [index, owner] : llvm::enumerate(owners)) {
    auto it = offsets.find(index);
    if (it != offsets.end())
      ObsDialect::SharedOffsetsAttrHelper(kernel.getContext())
          .setAttr(owner, builder.getDenseI64ArrayAttr(it->second));
  }
  ObsDialect::SharedBytesAttrHelper(kernel.getContext())
      .setAttr(kernel, builder.getI64IntegerAttr(total));

  // The plan must not have made a hazard.
  FailureOr<std::shared_ptr<const KernelSimulation>> planned =
      simulations.simulate(kernel);
  if (failed(planned))
    return signalPassFailure();
  for (const Hazard &hazard : (*planned)->hazards(/*limit=*/1)) {
    reportHazard(**planned, hazard);
    return signalPassFailure();
  }
}
