//===- IdentityWrites.h - elements an in-place stage leaves as they are -*- C++
//-*-===//
//
// An in-place stage overwrites the array its stage reads; an element whose
// value is exactly what that array holds at the same place (an identity
// write: the first half of Sklansky's fan, say) need not be written. They
// are found numerically: a stage's element code is built once, for an
// unknown index and with opaque placeholders for what it reads, and then
// run for every index without building anything.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_KERNELLOWERING_IDENTITYWRITES_H
#define OBS_KERNELLOWERING_IDENTITYWRITES_H

#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Pass/AnalysisManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include <array>
#include <memory>
#include <mutex>
#include <optional>

namespace mlir::obs {

/// The elements of `sync`'s array that differ from what `overwritten`, an
/// array in memory that its stage reads, holds at the same place. `sources`
/// are the arrays in memory the stage's code may read. What the probe
/// cannot follow (data arithmetic, a loop) counts as changed, which costs a
/// write, never a wrong answer.
llvm::BitVector findChangedElements(SyncOp sync, Value overwritten,
                                    ArrayRef<Value> sources);

/// The elements each in-place stage changes, by the stage's sync and the
/// array it overwrites (their positions in the kernel). What a stage
/// computes does not depend on the plan, so the passes that lower one kernel
/// many times with other plans share one cache through MLIR's analysis
/// manager (`getAnalysis<ChangedElementsCache>()` on the kernel). It holds
/// the results for one code: the lowering compares the kernel's code
/// fingerprint with the cache's and empties the cache when they differ, so
/// no pass has to declare what it preserved and none is handed a stale
/// result.
class ChangedElementsCache {
public:
  using Key = std::pair<int64_t, int64_t>;

  ChangedElementsCache() = default;
  explicit ChangedElementsCache(Operation *) {}

  /// Takes the results for `kernel`'s code: those of this context for the
  /// same code (ObsDialect::getCodeEntry), which do not depend on the plan
  /// or on which copy of the kernel is lowered.
  void validate(KernelOp kernel);
  /// The changed elements for `key`, computed by `compute` where no copy of
  /// the kernel has yet. The copies of one kernel lower in parallel: one
  /// computes a key while the others wait for it, rather than each
  /// computing; other keys are computed meanwhile (the map is locked only
  /// to find a key's entry).
  llvm::BitVector getOrCompute(Key key,
                               llvm::function_ref<llvm::BitVector()> compute) {
    if (!results)
      return compute();
    std::shared_ptr<Results::Entry> entry;
    {
      std::lock_guard<std::mutex> lock(results->mutex);
      std::shared_ptr<Results::Entry> &kept = results->changed[key];
      if (!kept)
        kept = std::make_shared<Results::Entry>();
      entry = kept;
    }
    std::call_once(entry->computed, [&] { entry->changed = compute(); });
    return entry->changed;
  }
  /// Kept across passes: `validate` decides.
  bool isInvalidated(const AnalysisManager::PreservedAnalyses &) {
    return false;
  }

  /// The changed elements of one code's in-place stages, shared by the
  /// caches of every kernel with that code (their copies lower in
  /// parallel).
  struct Results {
    struct Entry {
      std::once_flag computed;
      llvm::BitVector changed;
    };
    std::mutex mutex;
    llvm::DenseMap<Key, std::shared_ptr<Entry>> changed;
  };

private:
  std::array<uint8_t, 20> code = {};
  std::shared_ptr<Results> results;
};

/// A fingerprint of what `kernel` computes: its ops, their attributes and
/// types and how their values flow, without the plan the refinement passes
/// make (sync plans and obs's discardable attributes) or the ops' identities
/// and locations, so a copy of the kernel has the fingerprint of the kernel.
std::array<uint8_t, 20> fingerprintKernelCode(KernelOp kernel);

} // namespace mlir::obs

#endif // OBS_KERNELLOWERING_IDENTITYWRITES_H
