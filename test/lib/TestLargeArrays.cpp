//===- TestLargeArrays.cpp - exercises the kept ranges of large arrays ----===//
//
// `test-obs-large-arrays` runs one fixed sequence of large allocations and
// frees (Obs/Support/HugePages.h) in a tool that keeps freed ranges, and
// prints what each step found: which freed range a new array took, whether
// neighbours merged again, and whether the arrays alive kept their
// contents throughout.
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/HugePages.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstring>

using namespace mlir;
using namespace mlir::obs;

namespace {
constexpr size_t kMiB = size_t(1) << 20;

/// Fills `bytes` at `block` with bytes computed from `seed`.
void fill(void *block, size_t bytes, uint8_t seed) {
  auto *data = static_cast<uint8_t *>(block);
  for (size_t i = 0; i < bytes; ++i)
    data[i] = static_cast<uint8_t>(seed + i * 7);
}

/// Whether `bytes` at `block` are still as fill(`seed`) left them.
bool holds(const void *block, size_t bytes, uint8_t seed) {
  const auto *data = static_cast<const uint8_t *>(block);
  for (size_t i = 0; i < bytes; ++i)
    if (data[i] != static_cast<uint8_t>(seed + i * 7))
      return false;
  return true;
}

struct TestLargeArraysPass
    : PassWrapper<TestLargeArraysPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestLargeArraysPass)

  StringRef getArgument() const final { return "test-obs-large-arrays"; }
  StringRef getDescription() const final {
    return "Allocate and free large arrays in a fixed order and print which "
           "kept ranges each takes";
  }

  void runOnOperation() final {
    llvm::raw_ostream &os = llvm::outs();
    auto *first = static_cast<char *>(allocateLarge(6 * kMiB, 8));
    auto *second = static_cast<char *>(allocateLarge(3 * kMiB, 8));
    fill(first, 6 * kMiB, 1);
    fill(second, 3 * kMiB, 2);
    os << "huge-page aligned: "
       << (reinterpret_cast<uintptr_t>(first) % (2 * kMiB) == 0 &&
           reinterpret_cast<uintptr_t>(second) % (2 * kMiB) == 0)
       << "\n";
    deallocateLarge(first, 6 * kMiB, 8);
    // 2.5 MiB is two huge pages: the front of the first's range, whose
    // last third stays kept.
    auto *front = static_cast<char *>(allocateLarge(5 * kMiB / 2, 8));
    os << "takes the front of a freed range: " << (front == first) << "\n";
    auto *back = static_cast<char *>(allocateLarge(2 * kMiB, 8));
    os << "takes what is left of it: " << (back == first + 4 * kMiB) << "\n";
    fill(front, 5 * kMiB / 2, 3);
    fill(back, 2 * kMiB, 4);
    os << "others keep their contents: " << holds(second, 3 * kMiB, 2) << "\n";
    // Freed in either order, the two parts are one range again.
    deallocateLarge(back, 2 * kMiB, 8);
    deallocateLarge(front, 5 * kMiB / 2, 8);
    auto *whole = static_cast<char *>(allocateLarge(6 * kMiB, 8));
    os << "freed neighbours merge: " << (whole == first) << "\n";
    deallocateLarge(whole, 6 * kMiB, 8);
    // A vector that grows past a huge page keeps its elements.
    LargeVector<uint64_t> growing;
    for (uint64_t i = 0; i < 3 * kMiB / sizeof(uint64_t) * 2; ++i)
      growing.push_back(i * 3);
    bool kept = true;
    for (uint64_t i = 0; i < growing.size(); ++i)
      kept &= growing[i] == i * 3;
    os << "a growing vector keeps its elements: " << kept << "\n";
    os << "still intact: " << holds(second, 3 * kMiB, 2) << "\n";
    deallocateLarge(second, 3 * kMiB, 8);
  }
};
} // namespace

namespace mlir::obs::test {
void registerTestLargeArraysPass() { PassRegistration<TestLargeArraysPass>(); }
} // namespace mlir::obs::test
