//===- ObsToGPU.h - obs kernels to gpu.func ---------------------*- C++ -*-===//

#ifndef OBS_CONVERSION_OBSTOGPU_H
#define OBS_CONVERSION_OBSTOGPU_H

#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/AnalysisManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include <array>
#include <functional>

namespace mlir::obs {

/// What the lowering counts, for pass statistics.
struct GPULoweringCounters {
  std::function<void()> stage = [] {};
  std::function<void()> blockBarrier = [] {};
  std::function<void()> warpBarrier = [] {};
  std::function<void(uint64_t)> sharedBytes = [](uint64_t) {};
  /// Elements an in-place stage leaves as they are.
  std::function<void(uint64_t)> identityWrites = [](uint64_t) {};
};

/// The elements each in-place stage changes, by the stage's sync and the
/// array it overwrites (their positions in the kernel). Computing them runs
/// every element's code, and what a stage computes does not depend on the
/// plan, so the passes that lower one kernel many times with other plans
/// share one cache through MLIR's analysis manager
/// (`getAnalysis<ChangedElementsCache>()` on the kernel). It holds the
/// results for one code: the lowering compares the kernel's code fingerprint
/// with the cache's and empties the cache when they differ, so no pass has to
/// declare what it preserved and none is handed a stale result.
class ChangedElementsCache {
public:
  using Key = std::pair<int64_t, int64_t>;

  ChangedElementsCache() = default;
  explicit ChangedElementsCache(Operation *) {}

  /// Empties the cache unless it holds results for `kernel`'s code.
  void validate(KernelOp kernel);
  const llvm::BitVector *lookup(Key key) const {
    auto it = changed.find(key);
    return it == changed.end() ? nullptr : &it->second;
  }
  void insert(Key key, llvm::BitVector elements) {
    changed[key] = std::move(elements);
  }
  /// Kept across passes: `validate` decides.
  bool isInvalidated(const AnalysisManager::PreservedAnalyses &) {
    return false;
  }

private:
  std::array<uint8_t, 20> code = {};
  llvm::DenseMap<Key, llvm::BitVector> changed;
};

/// A fingerprint of what `kernel` computes: its ops, their attributes and
/// types and how their values flow, without the plan the refinement passes
/// make (sync plans and obs's discardable attributes) or the ops' identities
/// and locations, so a copy of the kernel has the fingerprint of the kernel.
std::array<uint8_t, 20> fingerprintKernelCode(KernelOp kernel);

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
/// Every barrier carries `obs.sync_index`, the position (in program order)
/// of the sync it ends; every workgroup buffer and view carries
/// `obs.owner`, the location of the op whose array it stores; the ops of a
/// stage have its sync's location. The analyses map what they find in the
/// gpu.func back to the kernel through them.
FailureOr<gpu::GPUFuncOp>
lowerKernelToGPUFunc(KernelOp kernel, gpu::GPUModuleOp module, StringRef name,
                     int64_t grid, const GPULoweringCounters &counters = {},
                     ChangedElementsCache *cache = nullptr,
                     const KernelLayouts *layouts = nullptr);

} // namespace mlir::obs

#endif // OBS_CONVERSION_OBSTOGPU_H
