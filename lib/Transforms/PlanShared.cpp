//===- PlanShared.cpp - shared buffers placed by liveness -----------------===//

#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Dialect/Obs/Storage.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/MemoryBytes.h"
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

  /// Pads the rows of `kernel`'s shared arrays of rows (and of flat arrays,
  /// as rows of 32) where that removes bank conflicts `simulation` shows:
  /// each owner in turn tries 1 to 4 elements after each row and keeps the
  /// padding of fewest wavefronts, if any takes fewer than what came
  /// before. Each padding is costed on the run's accesses moved where it
  /// would put them, not run again; the kernel as padded is run once, and
  /// keeps its paddings only if it takes fewer wavefronts. Returns the
  /// simulation of the kernel as padded.
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

/// `kernel`'s shared buffer owners in program order: the lowering's
/// numbering of them (obs.owner_index).
static SmallVector<Operation *> getSharedBufferOwners(KernelOp kernel) {
  SmallVector<Operation *> owners;
  kernel.walk([&](Operation *op) {
    if (isSharedBufferOwner(op))
      owners.push_back(op);
  });
  return owners;
}

/// Whether `cost`'s shared accesses take more than 1.05 times the fewest
/// wavefronts their widths allow: bank conflicts.
static bool hasBankConflicts(const BlockCost &cost) {
  return cost.sharedWavefronts * 100 > cost.sharedLeastWavefronts * 105;
}

/// `accesses` as they would be with `padding` elements after every row of
/// `rowElements` elements of each memory in `elementBytes` (of elements of
/// that many bytes): each element moves to its getPaddedPlace. An access at
/// a place that depends on data stands for its whole buffer, padded.
static void padAccesses(MutableArrayRef<Access> accesses,
                        const llvm::DenseMap<unsigned, uint64_t> &elementBytes,
                        const llvm::DenseMap<unsigned, uint64_t> &paddedBytes,
                        int64_t rowElements, int64_t padding) {
  for (Access &access : accesses) {
    auto bytes = elementBytes.find(access.memory);
    if (bytes == elementBytes.end())
      continue;
    if (access.element < 0) {
      access.byteBegin = 0;
      access.byteEnd = paddedBytes.lookup(access.memory);
      continue;
    }
    uint64_t width = access.byteEnd - access.byteBegin;
    int64_t element = access.byteBegin / bytes->second;
    access.byteBegin =
        getPaddedPlace(element, rowElements, padding) * bytes->second;
    access.byteEnd = access.byteBegin + width;
  }
}

FailureOr<std::shared_ptr<const KernelSimulation>>
ObsPlanSharedPass::padRowsOf(KernelOp kernel,
                             std::shared_ptr<const KernelSimulation> simulation,
                             KernelSimulations &simulations) {
  // Only arrays of rows (or flat arrays of two rows of 32 and more) are
  // padded: a kernel without any costs no more. Each is known by the index
  // the lowering gives the kernel's buffer owners in program order.
  SmallVector<Operation *> owners;
  llvm::DenseMap<Operation *, int64_t> ownerIndex;
  for (auto [index, owner] : llvm::enumerate(getSharedBufferOwners(kernel))) {
    ownerIndex[owner] = static_cast<int64_t>(index);
    if (ownsSharedRows(owner))
      owners.push_back(owner);
  }
  if (owners.empty())
    return simulation;
  const BlockRun &run = simulation->run;
  const BlockCost unpadded = computeBlockCost(run);
  if (!hasBankConflicts(unpadded))
    return simulation;
  // Each owner's workgroup memories, one per leaf scalar.
  gpu::GPUFuncOp func = simulation->func;
  unsigned firstWorkgroup =
      run.getMemories().size() - func.getNumWorkgroupAttributions();
  auto memoriesOf = [&](Operation *owner) {
    SmallVector<unsigned> memories;
    for (unsigned attribution = 0;
         attribution < func.getNumWorkgroupAttributions(); ++attribution) {
      auto index =
          dyn_cast_or_null<IntegerAttr>(func.getWorkgroupAttributionAttr(
              attribution,
              ObsDialect::OwnerIndexAttrHelper(func.getContext()).getName()));
      if (index && index.getInt() == ownerIndex.lookup(owner))
        memories.push_back(firstWorkgroup + attribution);
    }
    return memories;
  };
  // The shared bytes every buffer alone would take: a padding that would
  // not fit even so is not tried.
  uint64_t unplanned = 0;
  for (const Memory &memory : run.getMemories())
    if (memory.workgroup)
      unplanned += memory.bytes;
  MLIRContext *context = kernel.getContext();
  auto paddingOf = ObsDialect::SharedPaddingAttrHelper(context);
  Builder builder(context);
  // Each padding is tried on the run's accesses moved where it would put
  // them, not by running the kernel again: only addresses change. And only
  // the owner's own accesses: a warp access touches one memref, so the
  // block's wavefronts change by what the owner's do.
  BlockCost best = unpadded;
  bool paddedAny = false;
  // The run's accesses of each memory, in the run's order: each owner's
  // are gathered from its memories, where scanning every access of the run
  // for every owner made this pass a chain of stages' squared length (512
  // transposes of a tile took 5 s here).
  std::vector<SmallVector<uint32_t>> accessesOf(run.getMemories().size());
  for (auto [index, access] : llvm::enumerate(run.getAccesses()))
    accessesOf[access.memory].push_back(index);
  for (Operation *owner : owners) {
    ArrType type = cast<ArrType>(owner->getResult(0).getType());
    // A repeat owns two buffers of its array.
    uint64_t buffers = isa<RepeatOp>(owner) ? 2 : 1;
    auto paddingBytes = [&](int64_t padding) {
      return buffers * (getArrayBytes(type, padding) - getArrayBytes(type));
    };
    int64_t rowElements = type.getShape().size() > 1
                              ? static_cast<int64_t>(type.getShape().back())
                              : kPaddedRowElements;
    SmallVector<unsigned> memories = memoriesOf(owner);
    if (memories.empty())
      continue; // In registers or shuffles, or in place over another's.
    llvm::DenseMap<unsigned, uint64_t> elementBytes;
    for (unsigned memory : memories) {
      auto memref = cast<MemRefType>(run.getMemories()[memory].root.getType());
      elementBytes[memory] = getElementBytes(memref);
    }
    SmallVector<uint32_t> ownIndices;
    for (unsigned memory : memories)
      llvm::append_range(ownIndices, accessesOf[memory]);
    llvm::sort(ownIndices);
    std::vector<Access> own;
    own.reserve(ownIndices.size());
    for (uint32_t index : ownIndices)
      own.push_back(run.getAccesses()[index]);
    BlockCost ownUnpadded = computeBlockCost(run, own);
    if (!hasBankConflicts(ownUnpadded))
      continue;
    std::optional<int64_t> chosen;
    BlockCost ownBest = ownUnpadded;
    for (int64_t padding = 1; padding <= 4; ++padding) {
      if (unplanned + paddingBytes(padding) > maxSharedBytes)
        break;
      // Each memory's bytes padded (a repeat's two buffers, and a tuple's
      // memref per scalar, each by its own type).
      llvm::DenseMap<unsigned, uint64_t> paddedBytes;
      for (unsigned memory : memories) {
        auto memref =
            cast<MemRefType>(run.getMemories()[memory].root.getType());
        paddedBytes[memory] = getTotalBytes(
            MemRefType::get(getPaddedShape(memref.getShape(), padding),
                            memref.getElementType()));
      }
      std::vector<Access> trial = own;
      padAccesses(trial, elementBytes, paddedBytes, rowElements, padding);
      BlockCost cost = computeBlockCost(run, trial);
      if (cost.sharedWavefronts < ownBest.sharedWavefronts) {
        ownBest = cost;
        chosen = padding;
      }
    }
    if (!chosen)
      continue;
    paddingOf.setAttr(owner, builder.getI64IntegerAttr(*chosen));
    unplanned += paddingBytes(*chosen);
    paddedAny = true;
    best.sharedWavefronts -=
        ownUnpadded.sharedWavefronts - ownBest.sharedWavefronts;
    best.sharedLeastWavefronts = best.sharedLeastWavefronts -
                                 ownUnpadded.sharedLeastWavefronts +
                                 ownBest.sharedLeastWavefronts;
    if (!hasBankConflicts(best))
      break;
  }
  if (!paddedAny)
    return simulation;
  // The kernel as padded, run: the buffers are placed by what it allocates
  // (a repeat's buffers take the type of the array it starts from, padded
  // or not), and the passes after see it. Should it not take fewer
  // wavefronts after all, the paddings go.
  FailureOr<std::shared_ptr<const KernelSimulation>> simulated =
      simulations.simulate(kernel);
  if (failed(simulated))
    return failure();
  if (computeBlockCost((*simulated)->run).sharedWavefronts <
      unpadded.sharedWavefronts) {
    for (Operation *owner : owners)
      if (paddingOf.getAttr(owner))
        addToStatistic(*this, numPadded, "buffers-padded");
    return *simulated;
  }
  for (Operation *owner : owners)
    owner->removeAttr(paddingOf.getName());
  return simulation;
}

/// Gives each of `buffers` its offset, first fit: at the lowest offset
/// that no buffer placed before it and live with it (not `compatible`)
/// covers. Returns the bytes the plan needs and how many buffers took bytes
/// another had.
static std::pair<uint64_t, uint64_t> placeBuffers(
    MutableArrayRef<Buffer> buffers,
    llvm::function_ref<bool(const Buffer &, const Buffer &)> compatible) {
  auto placeInOrder = [&](ArrayRef<unsigned> order) {
    SmallVector<unsigned> placed;
    uint64_t total = 0, reusing = 0;
    auto overlaps = [](const Buffer &a, uint64_t offset, const Buffer &b) {
      return offset < a.offset + a.bytes && a.offset < offset + b.bytes;
    };
    for (unsigned index : order) {
      Buffer &buffer = buffers[index];
      uint64_t offset = 0;
      bool moved = true;
      while (moved) {
        moved = false;
        for (unsigned other : placed) {
          const Buffer &o = buffers[other];
          if (overlaps(o, offset, buffer) && !compatible(o, buffer)) {
            offset = llvm::alignTo(o.offset + o.bytes, kAlignment);
            moved = true;
          }
        }
      }
      buffer.offset = offset;
      reusing += llvm::any_of(placed, [&](unsigned other) {
        return overlaps(buffers[other], offset, buffer);
      });
      placed.push_back(index);
      total = std::max(total, offset + buffer.bytes);
    }
    return std::make_pair(total, reusing);
  };
  // Buffers in the order they come into use; and, where that leaves holes
  // too small for what comes next (a merge's small crossings taking the
  // offset a tile left, so that the next tile goes above both), largest
  // first, as arena planners place tensors. The smaller plan wins; a tie
  // keeps the first.
  SmallVector<unsigned> byUse(buffers.size());
  std::iota(byUse.begin(), byUse.end(), 0);
  stableSort(byUse, [&](unsigned a, unsigned b) {
    return buffers[a].firstPhase < buffers[b].firstPhase;
  });
  SmallVector<unsigned> bySize(byUse);
  stableSort(bySize, [&](unsigned a, unsigned b) {
    return buffers[a].bytes > buffers[b].bytes;
  });
  auto [total, reusing] = placeInOrder(byUse);
  SmallVector<uint64_t> byUseOffsets =
      llvm::map_to_vector(buffers, [](const Buffer &b) { return b.offset; });
  auto [bySizeTotal, bySizeReusing] = placeInOrder(bySize);
  if (bySizeTotal < total) {
    std::tie(total, reusing) = std::tie(bySizeTotal, bySizeReusing);
  } else {
    for (auto [buffer, offset] : llvm::zip_equal(buffers, byUseOffsets))
      buffer.offset = offset;
  }
  return {total, reusing};
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
  // The buffers of one owner never share: a repeat's two, which its
  // iterations choose between through one select, would then hold the same
  // bytes, and which of them an access through the select goes to is not
  // in its bytes (the plan's check took a write to the first for one to the
  // second and refused the plan, where one iteration left them disjoint in
  // time; found by an adversarial run).
  auto compatible = [&](const Buffer &a, const Buffer &b) {
    return a.firstPhase != ~0u && b.firstPhase != ~0u &&
           (a.owner < 0 || a.owner != b.owner) &&
           (separated(a, b) || separated(b, a));
  };

  auto [total, reusing] = placeBuffers(buffers, compatible);
  if (!buffers.empty())
    addToStatistic(*this, numBuffers, "buffers", buffers.size());
  if (reusing)
    addToStatistic(*this, numReused, "buffers-reusing-memory", reusing);
  // Syncs at warp scope order no other warp: no buffer reuses memory
  // across them, and a plan made after obs-elide-warp-syncs (obs-optimize
  // run twice) may not fit where the first did.
  auto holdsWarpScope = [&] {
    return kernel
        .walk([](SyncOp sync) {
          SyncScopeAttr scope = sync.getEffectiveScopeAttr();
          return scope && scope.getValue() == SyncScope::Warp
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  };
  if (total > maxSharedBytes && !oneWarp && holdsWarpScope()) {
    InFlightDiagnostic diag =
        kernel.emitOpError()
        << "@" << kernel.getSymName() << " needs " << total
        << " bytes of shared memory, more than the "
        << static_cast<uint64_t>(maxSharedBytes)
        << " a block may use, with syncs at warp scope, which order no other "
           "warp: no buffer reuses another's memory across them; plan shared "
           "memory before obs-elide-warp-syncs, as obs-optimize does (once)";
    tagError(diag, ErrorKind::CompilerLimit);
    return signalPassFailure();
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
  for (auto [index, owner] : llvm::enumerate(getSharedBufferOwners(kernel))) {
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
