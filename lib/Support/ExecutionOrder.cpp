//===- ExecutionOrder.cpp - the cpu target's orders, chosen at run time ---===//

#include "Obs/Support/ExecutionOrder.h"
#include "Obs/Support/SplitMix.h"
#include <numeric>
#include <string>

using namespace mlir;
using namespace mlir::obs;

void mlir::obs::fillExecutionOrder(ExecutionOrder kind, uint64_t seed,
                                   llvm::MutableArrayRef<int32_t> table) {
  int64_t count = static_cast<int64_t>(table.size());
  std::iota(table.begin(), table.end(), 0);
  if (kind == ExecutionOrder::Reverse)
    std::reverse(table.begin(), table.end());
  if (kind != ExecutionOrder::Shuffle)
    return;
  uint64_t state = seed * 0x100000001b3ull + static_cast<uint64_t>(count);
  for (int64_t i = count - 1; i > 0; --i)
    std::swap(table[i], table[nextSplitMix64(state) % (i + 1)]);
}

std::array<int64_t, 2> mlir::obs::getAffineExecutionOrder(ExecutionOrder kind,
                                                          uint64_t seed) {
  uint64_t state = seed * 0x100000001b3ull;
  int64_t shift = static_cast<int64_t>(nextSplitMix64(state) >> 33);
  switch (kind) {
  case ExecutionOrder::Forward:
    return {0, 0};
  case ExecutionOrder::Reverse:
    return {1, 0};
  case ExecutionOrder::Shuffle:
    return {2, shift};
  }
  return {0, 0};
}

/// The beginnings of the orders' names.
static constexpr llvm::StringLiteral kThreadOrderPrefix = "obs_thread_order";
static constexpr llvm::StringLiteral kBlockOrderPrefix = "obs_block_order";

std::string mlir::obs::getExecutionOrderSymbol(bool block,
                                               std::optional<int64_t> count) {
  std::string name = (block ? kBlockOrderPrefix : kThreadOrderPrefix).str();
  return name + "_" + (count ? std::to_string(*count) : "affine");
}

bool mlir::obs::isExecutionOrderPrefixed(llvm::StringRef symbol) {
  return symbol.starts_with(kThreadOrderPrefix) ||
         symbol.starts_with(kBlockOrderPrefix);
}

std::optional<std::pair<bool, std::optional<int64_t>>>
mlir::obs::parseExecutionOrderSymbol(llvm::StringRef symbol) {
  bool block;
  if (symbol.consume_front(kBlockOrderPrefix) && symbol.consume_front("_"))
    block = true;
  else if (symbol.consume_front(kThreadOrderPrefix) &&
           symbol.consume_front("_"))
    block = false;
  else
    return std::nullopt;
  if (symbol == "affine")
    return std::make_pair(block, std::optional<int64_t>());
  int64_t count;
  if (symbol.getAsInteger(10, count) || count <= 1 || count > kMaxOrderTable)
    return std::nullopt;
  return std::make_pair(block, std::optional<int64_t>(count));
}
