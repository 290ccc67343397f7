//===- DeviceExpansion.h - device ops to launch plans, as patterns -*- C++
//-*-===//
//
// obs-expand-device's algorithms as rewrite patterns, one per device
// algorithm, so that a compiler that embeds obs can reuse them, replace one
// (a pattern of higher benefit on the same op wins) or add its own. Each
// pattern replaces one device op by a launch plan of obs kernels written
// before the op's host function; every pipeline then refines and proves
// them like kernels a user wrote. A pattern whose op breaks the laws its
// plan relies on (a combine that is not associative with its identity, a
// `less` that is not a strict weak order) reports it at the op and does not
// match. docs/Rationale.md, "The device level", gives the plans.
//
// Run them with a PatternApplicator on each device op (as obs-expand-device
// does), or any driver that does not fold the plans' host code.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_TRANSFORMS_DEVICEEXPANSION_H
#define OBS_TRANSFORMS_DEVICEEXPANSION_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include <cstdint>

namespace mlir::obs {

/// Checks, after the host allocation `allocation` that obs-expand-device
/// made (its sizes computed from lengths, never negative or implausible),
/// that its memory was given, as obs-check-host-code checks a program's
/// own: short of memory, a device sort's temporaries were not given and its
/// first store faulted (found by a defect hunt). Only the memory's check,
/// which the cuda target takes out again (the driver reports its own
/// failure): a check of the sizes before it split the launches' stream.
void emitTemporaryAllocationCheck(memref::AllocOp allocation);

/// What the expansions wrote, for a pass's statistics.
struct DeviceExpansionStatistics {
  unsigned ops = 0;
  unsigned kernels = 0;
  unsigned launches = 0;
  unsigned radixSorts = 0;
  unsigned mergeSorts = 0;
};

struct DeviceExpansionOptions {
  /// Elements per tile, a power of two; 0: each algorithm's own choice.
  uint64_t tile = 0;
  /// Where to count what was written (may be null); must outlive the
  /// patterns.
  DeviceExpansionStatistics *statistics = nullptr;
};

/// Makes every kernel argument with an `obs.halo` an `obs.global` argument,
/// read through a pull array of its block's places, each where the halo's
/// boundary says (lib/Transforms/DeviceExpansion/Halos.cpp). The argument's
/// global length is the memref's, which all of the kernel's launches must
/// agree on (or run-time sizes); a kernel no launch names is one block over
/// its tile. Fails, with the error at a launch, where they do not.
LogicalResult expandHaloArguments(ModuleOp module);

/// Replaces every tiled launch (`grid(R, C)` over 2-D memrefs) by a launch
/// of R C blocks with layouts over row views of its memrefs
/// (lib/Transforms/DeviceExpansion/TiledLaunches.cpp): block r C + c reads
/// and writes the tiles block (r, c) would.
LogicalResult expandTiledLaunches(ModuleOp module);

/// Puts before every launch of a kernel with an `obs.chain` argument a
/// launch that clears its chain (of `@obs_clear_chain`, made once per
/// module; lib/Transforms/DeviceExpansion/Chains.cpp): the ticket counter
/// starts at 0 and no tile has published. A launch already so preceded is
/// left as it is.
LogicalResult clearChains(ModuleOp module);

/// The words of a chain for a launch of `grid` blocks whose carry has
/// `wordsPerTile` elements: none for no block, the ticket counter and
/// `wordsPerTile` words per block otherwise (`grid * wordsPerTile + 1`).
Value buildChainLength(OpBuilder &builder, Location loc, Value grid,
                       uint64_t wordsPerTile);
/// Whether `memref` is an allocation of buildChainLength(`grid`,
/// `wordsPerTile`) words: a chain long enough for a launch of `grid`
/// blocks, whatever `grid` is.
bool isChainAllocatedFor(Value memref, Value grid, uint64_t wordsPerTile);

/// obs.device_map: one launch of a tile kernel that applies the function.
void populateDeviceMapExpansionPatterns(RewritePatternSet &patterns,
                                        const DeviceExpansionOptions &options);
/// obs.device_reduce: tiles folded by trees, level by level.
void populateDeviceReduceExpansionPatterns(
    RewritePatternSet &patterns, const DeviceExpansionOptions &options);
/// obs.device_scan: reduce, then scan, then each tile scanned from its carry.
void populateDeviceScanExpansionPatterns(RewritePatternSet &patterns,
                                         const DeviceExpansionOptions &options);
/// obs.device_sort whose `less` is one comparison of the first scalars: a
/// radix sort of 8-bit digits.
void populateRadixSortExpansionPatterns(RewritePatternSet &patterns,
                                        const DeviceExpansionOptions &options);
/// obs.device_sort by any strict weak order: tiles sorted by a network,
/// then merged along merge paths. Of lower benefit than the radix sort.
void populateMergeSortExpansionPatterns(RewritePatternSet &patterns,
                                        const DeviceExpansionOptions &options);

/// All of the above: obs-expand-device's patterns.
void populateObsDeviceExpansionPatterns(RewritePatternSet &patterns,
                                        const DeviceExpansionOptions &options);

} // namespace mlir::obs

#endif // OBS_TRANSFORMS_DEVICEEXPANSION_H
