//===- StableSort.h - a stable sort with no temporary buffer ----*- C++ -*-===//
//
// std::stable_sort and std::stable_partition take their scratch space with
// std::get_temporary_buffer, which C++17 deprecates, and libstdc++ 12 warns
// of it in every file that sorts stably. obs sorts short lists (intervals,
// hazards, buffers, statistics): sorting positions by (key, position) with
// llvm::sort is as stable, and as deterministic.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_STABLESORT_H
#define OBS_SUPPORT_STABLESORT_H

#include "llvm/ADT/STLExtras.h"
#include <numeric>
#include <vector>

namespace mlir::obs {

/// Sorts `range` by `less`, keeping elements that compare equal in the
/// order they had.
template <typename Range, typename Less>
void stableSort(Range &range, Less less) {
  auto begin = std::begin(range);
  size_t size = std::distance(begin, std::end(range));
  std::vector<size_t> positions(size);
  std::iota(positions.begin(), positions.end(), 0);
  llvm::sort(positions, [&](size_t a, size_t b) {
    if (less(begin[a], begin[b]))
      return true;
    if (less(begin[b], begin[a]))
      return false;
    return a < b;
  });
  using Value = std::decay_t<decltype(*begin)>;
  std::vector<Value> sorted;
  sorted.reserve(size);
  for (size_t position : positions)
    sorted.push_back(std::move(begin[position]));
  std::move(sorted.begin(), sorted.end(), begin);
}

} // namespace mlir::obs

#endif // OBS_SUPPORT_STABLESORT_H
