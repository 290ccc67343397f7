//===- ExecutionOrder.h - the cpu target's orders, chosen at run time -*- C++
//-*-===//
//
// The cpu target runs a block's threads (and its warps, and a warp's lanes)
// and a launch's blocks one after the other, in an order that makes races
// show: forward, reverse, or shuffled by a seed. The order is data the
// compiled code reads, not code: each loop takes its thread (or block) from
// a table of the loop's count, `obs_thread_order_<count>` or
// `obs_block_order_<count>`, and a count too large for a table, or known
// only at run time, takes it from the permutation (a k + c) mod count that
// `obs_thread_order_affine` or `obs_block_order_affine` chooses. The
// compiler fills them with the order it is asked for, and a runner may fill
// them again before a run: one compiled program serves every order.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_EXECUTIONORDER_H
#define OBS_SUPPORT_EXECUTIONORDER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <cstdint>
#include <optional>

namespace mlir::obs {

/// The order in which the cpu target runs threads, warps or blocks: a race
/// shows as a wrong result under some order.
enum class ExecutionOrder { Forward, Reverse, Shuffle };

/// The most entries of an order's table: a loop over more (a grid) takes
/// its permutation from the affine form.
constexpr int64_t kMaxOrderTable = 4096;

/// A prime above every count a loop may have (a grid has at most 2^31 - 1
/// blocks): its remainder by the count is coprime to it, so that the
/// shuffled affine form is a permutation.
constexpr int64_t kOrderPrime = 2147483659;

/// Fills `table` (of `count` entries, the loop's count) with the position
/// each step of the loop takes: `kind`, shuffled by `seed` (Fisher-Yates).
void fillExecutionOrder(ExecutionOrder kind, uint64_t seed,
                        llvm::MutableArrayRef<int32_t> table);

/// The affine form of `kind` with `seed`: {mode, shift}. Step k of a loop
/// over `count` takes (a k + c) mod count, with (a, c) = (1, 0) for mode 0
/// (forward), (count - 1, count - 1) for mode 1 (reverse), and
/// (kOrderPrime mod count, shift mod count) for mode 2 (shuffled).
std::array<int64_t, 2> getAffineExecutionOrder(ExecutionOrder kind,
                                               uint64_t seed);

/// The name of the table or affine form of the thread order (`block`
/// false) or the block order, for a loop over `count` (none: the affine
/// form).
std::string getExecutionOrderSymbol(bool block, std::optional<int64_t> count);

/// Whether `symbol` begins as the orders' names do (`obs_thread_order` or
/// `obs_block_order`): a name a runner may fill, or one the lowering's
/// renaming by a suffix may make into such a name.
bool isExecutionOrderPrefixed(llvm::StringRef symbol);

/// What `symbol` is when it names an order: whether it is the block order,
/// and its table's count (none: the affine form).
std::optional<std::pair<bool, std::optional<int64_t>>>
parseExecutionOrderSymbol(llvm::StringRef symbol);

} // namespace mlir::obs

#endif // OBS_SUPPORT_EXECUTIONORDER_H
