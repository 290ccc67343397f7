//===- KernelLowering.h - one obs kernel to a gpu.func ----------*- C++ -*-===//
//
// The lowering every GPU path shares: convert-obs-to-gpu emits it for each
// kernel instance, and the simulation that proves a kernel's plan
// (Obs/Analysis/KernelSimulation.h) runs exactly what it emits.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_KERNELLOWERING_KERNELLOWERING_H
#define OBS_KERNELLOWERING_KERNELLOWERING_H

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/KernelLowering/IdentityWrites.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include <functional>

namespace mlir::obs {

/// The outermost length of the memrefs a kernel instance for sizes known
/// only at run time takes (they are passed as bare pointers, which need a
/// static type): a nominal length that stands for any up to it, the most
/// elements a launch's memref may hold along its outermost dimension. The
/// real lengths are arguments of their own.
constexpr int64_t kDynamicGridLength = 2147483647;

/// Whether `op` is a barrier as the lowering emits them: a block barrier
/// (gpu.barrier) or a warp barrier (nvvm.bar.warp.sync with its mask).
bool isLoweredBarrier(Operation *op);

/// A stage the lowering gave a shared buffer of its own, and what `inplace`
/// would do with it instead: what obs-inplace needs to tell, from a run of
/// the kernel as it is, that trying it would fail. Its sync's position in
/// program order; the array in memory it would overwrite (null: none, so
/// in place could not apply); its buffers and the buffers it would
/// overwrite, component by component, where they are workgroup attributions
/// of one memref type each (none otherwise); what the elements it would
/// change are found from (findChangedElements' arguments, in the lowered
/// kernel's copy, and the key of ChangedElementsCache under which the
/// lowering keeps them); and whether, in place and changing every element,
/// it would store each round as it goes (more rounds than are unrolled)
/// rather than compute all of a thread's rounds first.
struct InPlaceProspect {
  unsigned syncIndex = 0;
  SmallVector<Value> buffers, overwrittenBuffers;
  Value overwritten;
  SmallVector<Value> sources;
  ChangedElementsCache::Key changedKey;
  bool storesAsItGoes = false;
};

/// What the lowering counts, for pass statistics, and what it tells the
/// simulation.
struct GPULoweringCounters {
  std::function<void()> stage = [] {};
  std::function<void()> blockBarrier = [] {};
  std::function<void()> warpBarrier = [] {};
  std::function<void(uint64_t)> sharedBytes = [](uint64_t) {};
  /// Elements an in-place stage leaves as they are.
  std::function<void(uint64_t)> identityWrites = [](uint64_t) {};
  /// A stage whose array stays in registers.
  std::function<void()> registerStage = [] {};
  std::function<void()> shuffleStage = [] {};
  /// Each stage that could go in place and has not; unset, none is looked
  /// for.
  std::function<void(InPlaceProspect)> inPlaceProspect = nullptr;
  /// Whether the code is the proofs' (the simulation's): an obs.carry
  /// there hands any value through shared memory, and the blocks take no
  /// tickets. Only obs.carry reads and writes the chain, and a ticket is a
  /// block's place as the block index is (a permutation of the grid), so
  /// what the proofs follow is the same.
  bool forProof = false;
};

/// Where a launch places each block's arrays (see obs.launch's `layouts`):
/// one map (block, element) -> index per kernel array, arguments then
/// results, and the memref types the gpu.func then takes.
struct KernelLayouts {
  SmallVector<AffineMap> arrays;
  SmallVector<Type> memrefTypes;
};

/// Lowers the flat kernel `kernel` (see --obs-flatten) to a new kernel
/// gpu.func at the end of `module`, named `name` or, when that is taken,
/// renamed as SymbolTable::insert does, for a grid of `grid` blocks whose
/// arrays are contiguous chunks of the memrefs, or laid out by `layouts`.
///
/// A `grid` of ShapedType::kDynamic makes the instance for launches whose
/// sizes are known only at run time: it takes each memref with the nominal
/// length kDynamicGridLength, then each memref's real outermost length, and
/// reads and writes only the places before it (an argument's absent places
/// read as its `obs.absent` value).
///
/// Every barrier carries `obs.sync_index`, the position (in program order)
/// of the sync it ends; every workgroup buffer and view carries
/// `obs.owner`, the location of the op whose array it stores; the ops of a
/// stage have its sync's location. The analyses map what they find in the
/// gpu.func back to the kernel through them.
///
/// With `runTimeOffsets` (for a grid known only at run time), each memref
/// the launch passes starts at an offset known only at run time, row-major
/// as the identity: the instance for launches that pass views at run-time
/// places (memref.subview %m[%k][%n][1]). It takes the memrefs at offset 0
/// as before (a kernel's pointers are bare), and each one's offset, in
/// elements, after all other arguments.
///
/// A kernel result that a `global` obs.scatter computes is the launch's
/// whole memref in every block: `memref<L x T>` for a static grid, the
/// nominal dynamic one otherwise.
///
/// With `runTimeChecks`, the kernel checks as it runs what the proof leaves
/// to run time, and reports a violation through
/// Obs/Support/RuntimeFunctions.h (the cpu target's code, not the GPU's):
/// each place an obs.index reads outside its array, and a second write of
/// a place by a scatter without a combine, which counts the writes of each
/// place.
/// A global one counts them in a memref the launch gives it, zeroed, shared
/// by the blocks: one i32 per place, passed after all other arguments, one
/// per result getUncombinedGlobalResults names.
FailureOr<gpu::GPUFuncOp>
lowerKernelToGPUFunc(KernelOp kernel, gpu::GPUModuleOp module, StringRef name,
                     int64_t grid, const GPULoweringCounters &counters = {},
                     ChangedElementsCache *cache = nullptr,
                     const KernelLayouts *layouts = nullptr,
                     bool runTimeChecks = false, bool runTimeOffsets = false);

} // namespace mlir::obs

#endif // OBS_KERNELLOWERING_KERNELLOWERING_H
