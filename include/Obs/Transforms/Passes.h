//===- Passes.h - obs transformation passes ---------------------*- C++ -*-===//

#ifndef OBS_TRANSFORMS_PASSES_H
#define OBS_TRANSFORMS_PASSES_H

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include <functional>

namespace mlir {
namespace arith {
class ArithDialect;
} // namespace arith
namespace gpu {
class GPUDialect;
} // namespace gpu
namespace memref {
class MemRefDialect;
} // namespace memref
namespace NVVM {
class NVVMDialect;
} // namespace NVVM
namespace scf {
class SCFDialect;
} // namespace scf
namespace ub {
class UBDialect;
} // namespace ub
} // namespace mlir

namespace mlir::obs {

// WorkStrategy (ObsAttributes.td), how obs-assign-work deals out a stage:
// strided<T> (Obsidian's pairNth), blocked<k>, or compact<T> (only the
// elements a stage writes); or, for `cost`, the one of the three whose
// refined kernel the simulation finds cheapest (BlockCost::estimatedSlots).

/// The strategies as command-line values, for pass, pipeline and tool
/// options: a misspelled one is an error of the option parser.
#define OBS_WORK_STRATEGY_VALUES                                               \
  ::llvm::cl::values(                                                          \
      clEnumValN(::mlir::obs::WorkStrategy::Strided, "strided",                \
                 "element e by thread e mod T in round e div T "               \
                 "(Obsidian's pairNth)"),                                      \
      clEnumValN(::mlir::obs::WorkStrategy::Blocked, "blocked",                \
                 "a contiguous run of elements per thread"),                   \
      clEnumValN(::mlir::obs::WorkStrategy::Compact, "compact",                \
                 "only the elements a stage writes, dealt out in rounds"),     \
      clEnumValN(::mlir::obs::WorkStrategy::Cost, "cost",                      \
                 "whichever of the three the simulated cost of the refined "   \
                 "kernel favours"))

#define GEN_PASS_DECL
#include "Obs/Transforms/Passes.h.inc"

/// The reference target's proof (it holds a pipeline, so it is built here).
/// `buildDefaultRefinement`, when given, adds to a module pass manager what
/// the GPU targets run by default before their proof (obs-optimize): a
/// kernel whose written claims hold only under the work assignment that
/// refinement chooses (a written `inplace` on a sync left open) is then
/// proved as they run it, and accepted as they accept it.
/// Whether `kernel` holds a scan, reduce or sort at program level that
/// obs-expand-networks would expand: its network, named or taken by
/// default, is decided on the kernel as written (the default from its
/// threads, a sub-program's runs of one element), and is its meaning (a
/// float sum rounds as the network associates it). A pass that changes
/// what decides it (obs-assign-work writes `threads`, obs-flatten lifts a
/// sub-program's scan into element code) first expands the networks, as
/// obs-optimize orders the passes: out of that order a float scan's answer
/// changed with the pass.
bool holdsNetworksToExpand(KernelOp kernel);

/// Expands `kernel`'s networks with obs-expand-networks through `runPipeline`
/// (a pass's own, on its operation), where holdsNetworksToExpand.
LogicalResult expandNetworksFirst(
    KernelOp kernel,
    function_ref<LogicalResult(OpPassManager &, Operation *)> runPipeline);

std::unique_ptr<Pass> createObsVerifyReference(
    std::function<void(OpPassManager &)> buildDefaultRefinement = {});

/// MLIR's canonicalizer, as `config` drives it (by default as the
/// `canonicalize` pass's defaults do), without the upstream rewrites that
/// change what integer and float code computes
/// (getUnsoundCanonicalizations): every obs pipeline canonicalizes with
/// this one, element code and host code alike.
std::unique_ptr<Pass> createSoundCanonicalizerPass();
std::unique_ptr<Pass>
createSoundCanonicalizerPass(const GreedyRewriteConfig &config);

/// The debug names of the upstream canonicalization patterns that
/// createSoundCanonicalizerPass leaves out, each of which rewrites some
/// program into one that computes something else.
ArrayRef<std::string> getUnsoundCanonicalizations();

#define GEN_PASS_REGISTRATION
#include "Obs/Transforms/Passes.h.inc"

/// A kernel's shared-memory plan, as obs-plan-shared leaves it: the arena's
/// size and each buffer owner's offsets.
struct SharedPlan {
  Attribute bytes;
  SmallVector<std::pair<Operation *, Attribute>> offsets;
  /// The rows' padding of the owners that have one (obs.shared_padding).
  SmallVector<std::pair<Operation *, Attribute>> paddings;
  /// Puts the plan back on the kernel it was taken from.
  void restore(KernelOp kernel) const;
};

/// Removes the shared-memory plan of `kernel`, so that the lowering
/// allocates each buffer alone again, and returns it (empty when it had
/// none).
SharedPlan takeSharedPlan(KernelOp kernel);

} // namespace mlir::obs

#endif // OBS_TRANSFORMS_PASSES_H
