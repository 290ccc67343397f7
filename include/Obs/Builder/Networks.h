//===- Networks.h - Scan, sort and reduce networks --------------*- C++ -*-===//
//
// The networks of the papers and their classic companions, written with the
// combinator functions of Combinators.h: each is a recursive C++ generator
// of an obs program (over a power-of-two array for the sorts; the scans are
// defined for every length), with `obs.sync` between its stages, so it must be
// built where syncs may stand (a kernel body or the region of two, ilv, one or
// repeat). `--obs-expand-networks` uses them to expand obs.scan, obs.sort and
// obs.reduce.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_BUILDER_NETWORKS_H
#define OBS_BUILDER_NETWORKS_H

#include "Obs/Builder/Combinators.h"

namespace mlir::obs::dsl {

// Inclusive scans.

/// Seed 002: `sklansky n op = two (sklansky (n-1) op) ->- fan op ->- sync`.
Value sklansky(ImplicitLocOpBuilder &b, Value array, BinaryFn combine);
/// log2 N stages; in stage s every element i >= s adds in element i - s.
Value koggeStone(ImplicitLocOpBuilder &b, Value array, BinaryFn combine);
/// An up-sweep building the sums of aligned blocks, then a down-sweep that
/// fills in the rest: 2 log2 N - 1 stages, each writing few elements.
Value brentKung(ImplicitLocOpBuilder &b, Value array, BinaryFn combine);

/// CUB's block scan, serial in each thread: thread t scans the run of
/// ceil(N / threads) consecutive elements from t*run in sequence (written
/// `blocked<run>`), the runs' totals are scanned by Kogge-Stone within each
/// warp and the warps' totals likewise, and each element takes in the
/// totals before its run.
Value serialScan(ImplicitLocOpBuilder &b, Value array, BinaryFn combine,
                 uint64_t threads);

/// The serial scan's association for an array no stage can hold: each
/// run's left fold is kept every `every` elements, a stage per checkpoint
/// holding one element per run (ceil(run / every) stages, the last the
/// runs' totals), the totals are scanned and turned into the runs' prefixes
/// as above, and the result is not a stage: each element continues its
/// run's fold from the checkpoint before it, at most `every` elements, and
/// takes in its run's prefix. Only arrays of a thread's size are stored.
Value serialScanFromCheckpoints(ImplicitLocOpBuilder &b, Value array,
                                BinaryFn combine, uint64_t threads,
                                uint64_t every);

/// The left fold's scan, block by block, for a combine that may not be
/// reassociated: each block of `block` consecutive elements is a stage in
/// which element i folds, from the last element of the block before (the
/// array's first element for the first block), the array's elements up to
/// i in order; the result is the blocks' concatenation. ceil(N / block)
/// stages of at most `block` elements, each folding at most `block`
/// elements: linear in N, where a fold per element is quadratic.
Value foldScanInBlocks(ImplicitLocOpBuilder &b, Value array, BinaryFn combine,
                       uint64_t block);

/// The same left fold's scan for an array no stage can hold: each block's
/// last element is a stage of one element, folded from the one of the
/// block before (ceil(N / block) - 1 stages), and the result is not a
/// stage: each element folds, from the end of the block before, its
/// block's elements up to itself, at most `block` of them.
Value foldScanFromBlockEnds(ImplicitLocOpBuilder &b, Value array,
                            BinaryFn combine, uint64_t block);

// Sorts, ascending by `less`.

/// Seed 001: `sorter = repE k (tau ->>- merger)`, with
/// `tau = unriffle ->>- one rev` and
/// `merger = repE k (riffle ->>- evens cmpSwap ->- sync)`.
Value periodicSort(ImplicitLocOpBuilder &b, Value array, BinaryFn less);
/// Seed 000: `sortOE n = two (sortOE (n-1)) ->- sync ->- mergeOE n`.
Value oddEvenMergeSort(ImplicitLocOpBuilder &b, Value array, BinaryFn less);
/// Seed 000: `mergeOE 1 = evens cmp`,
/// `mergeOE n = ilv (mergeOE (n-1)) ->- sync ->- odds cmp`: merges the
/// sorted halves of `array`.
Value oddEvenMerge(ImplicitLocOpBuilder &b, Value array, BinaryFn less);
/// Batcher's bitonic sort: sort both halves, reverse the second
/// (`one rev`), and merge the bitonic sequence.
Value bitonicSort(ImplicitLocOpBuilder &b, Value array, BinaryFn less);
/// Sorts a bitonic sequence by half-cleaners
/// (`riffle ->- evens cmpSwap ->- unriffle`) on ever smaller halves.
Value bitonicMerge(ImplicitLocOpBuilder &b, Value array, BinaryFn less);

// Reductions.

/// Seed 004's tree: each level combines elements 2i and 2i+1, an odd last
/// element moves up unchanged, and a sync ends the level. Returns the
/// flattened result; any length from 1 works.
SmallVector<Value> treeReduce(ImplicitLocOpBuilder &b, Value array,
                              BinaryFn combine);

/// CUB's block reduction, serial in each thread: thread t folds its run of
/// ceil(N / threads) consecutive elements in sequence, each warp folds its
/// lanes' totals (lane l taking in lane l + d, d = 1, 2, 4, ...), and the
/// warps' totals are folded likewise. Returns the flattened result.
SmallVector<Value> serialReduce(ImplicitLocOpBuilder &b, Value array,
                                BinaryFn combine, uint64_t threads);

} // namespace mlir::obs::dsl

#endif // OBS_BUILDER_NETWORKS_H
