//===- HugePages.cpp - large arrays in transparent huge pages -------------===//

#include "Obs/Support/HugePages.h"
#include "llvm/Support/ErrorHandling.h"
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

using namespace mlir::obs;

/// The size of a transparent huge page on x86-64 and of the common arm64
/// configuration; where the system's differs, the advice still holds for
/// the pages it has.
static constexpr size_t kHugePage = size_t(2) << 20;

void *mlir::obs::allocateLarge(size_t bytes, size_t alignment) {
  if (bytes < kHugePage)
    return ::operator new(bytes, std::align_val_t(alignment));
  // Whole huge pages: the advice covers only what lies within the range.
  size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void *pointer = std::aligned_alloc(kHugePage, rounded);
  // LLVM's handler, which the tools make say out of memory and exit.
  if (!pointer)
    llvm::report_bad_alloc_error("cannot allocate a large array");
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: where huge pages are off, the pages are the usual ones.
  (void)::madvise(pointer, rounded, MADV_HUGEPAGE);
#endif
  return pointer;
}

void mlir::obs::deallocateLarge(void *pointer, size_t bytes, size_t alignment) {
  if (bytes < kHugePage)
    return ::operator delete(pointer, std::align_val_t(alignment));
  std::free(pointer);
}
