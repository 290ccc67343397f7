//===- HugePages.cpp - large arrays in transparent huge pages -------------===//

#include "Obs/Support/HugePages.h"
#include "llvm/Support/ErrorHandling.h"
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

using namespace mlir::obs;

/// The size of a transparent huge page on x86-64 and of the common arm64
/// configuration; where the system's differs, the advice still holds for
/// the pages it has.
static constexpr size_t kHugePage = size_t(2) << 20;

static size_t roundToHugePages(size_t bytes) {
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

#if defined(__linux__)
namespace {
/// Ranges of whole huge pages that were freed, kept mapped (and so faulted
/// in) for the next large arrays. A refinement makes and drops one
/// simulation after another, on two threads at once, and glibc's
/// per-thread arenas map a block larger than their 64 MiB heaps afresh
/// every time and unmap it when it is freed. Off until the process asks
/// (keepLargeBlocks); at most kCapacity bytes are kept. A range is handed
/// out whole or split at a huge page, and freed neighbours merge again.
class FreedRanges {
public:
  static FreedRanges &get() {
    static FreedRanges *ranges = new FreedRanges; // Lives to the exit.
    return *ranges;
  }

  void enable() {
    std::lock_guard<std::mutex> lock(mutex);
    enabled = true;
  }

  /// `bytes` (whole huge pages) at a huge page's alignment: the smallest
  /// kept range that holds them, or a new mapping.
  void *take(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto found = bySize.lower_bound(bytes);
      if (found != bySize.end()) {
        auto [size, begin] = *found;
        forget(begin, size);
        if (size > bytes)
          keep(begin + bytes, size - bytes);
        return begin;
      }
    }
    return map(bytes);
  }

  void give(void *block, size_t bytes) {
    char *begin = static_cast<char *>(block);
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (enabled && keptBytes + bytes <= kCapacity) {
        size_t size = bytes;
        // Merged with the kept ranges right after it and right before it.
        auto after = byAddress.find(begin + size);
        if (after != byAddress.end()) {
          size_t afterSize = after->second;
          forget(begin + size, afterSize);
          size += afterSize;
        }
        auto before = byAddress.lower_bound(begin);
        if (before != byAddress.begin()) {
          --before;
          auto [beforeBegin, beforeSize] = *before;
          if (beforeBegin + beforeSize == begin) {
            forget(beforeBegin, beforeSize);
            begin = beforeBegin;
            size += beforeSize;
          }
        }
        keep(begin, size);
        return;
      }
    }
    ::munmap(begin, bytes);
  }

private:
  /// 1 GiB: twice what the three strategies' copies of a 4,096-key bitonic
  /// sort hold at once.
  static constexpr size_t kCapacity = size_t(1) << 30;

  void keep(char *begin, size_t size) {
    byAddress.emplace(begin, size);
    bySize.emplace(size, begin);
    keptBytes += size;
  }

  void forget(char *begin, size_t size) {
    byAddress.erase(begin);
    auto [first, last] = bySize.equal_range(size);
    for (auto it = first; it != last; ++it)
      if (it->second == begin) {
        bySize.erase(it);
        break;
      }
    keptBytes -= size;
  }

  /// `bytes` (whole huge pages) mapped at a huge page's alignment and
  /// advised as huge pages.
  static void *map(size_t bytes) {
    size_t mapped = bytes + kHugePage;
    void *raw = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    // LLVM's handler, which the tools make say out of memory and exit.
    if (raw == MAP_FAILED)
      llvm::report_bad_alloc_error("cannot allocate a large array");
    auto address = reinterpret_cast<uintptr_t>(raw);
    uintptr_t aligned = (address + kHugePage - 1) / kHugePage * kHugePage;
    if (size_t head = aligned - address)
      ::munmap(raw, head);
    if (size_t tail = mapped - (aligned - address) - bytes)
      ::munmap(reinterpret_cast<void *>(aligned + bytes), tail);
    void *block = reinterpret_cast<void *>(aligned);
#if defined(MADV_HUGEPAGE)
    // Advice only: where huge pages are off, the pages are the usual ones.
    (void)::madvise(block, bytes, MADV_HUGEPAGE);
#endif
    return block;
  }

  std::mutex mutex;
  bool enabled = false;
  std::map<char *, size_t> byAddress;
  std::multimap<size_t, char *> bySize;
  size_t keptBytes = 0;
};
} // namespace

void mlir::obs::keepLargeBlocks() { FreedRanges::get().enable(); }

void *mlir::obs::allocateLarge(size_t bytes, size_t alignment) {
  if (bytes < kHugePage)
    return ::operator new(bytes, std::align_val_t(alignment));
  return FreedRanges::get().take(roundToHugePages(bytes));
}

void mlir::obs::deallocateLarge(void *pointer, size_t bytes, size_t alignment) {
  if (bytes < kHugePage)
    return ::operator delete(pointer, std::align_val_t(alignment));
  FreedRanges::get().give(pointer, roundToHugePages(bytes));
}
#else
void mlir::obs::keepLargeBlocks() {}

void *mlir::obs::allocateLarge(size_t bytes, size_t alignment) {
  if (bytes < kHugePage)
    return ::operator new(bytes, std::align_val_t(alignment));
  void *pointer = std::aligned_alloc(kHugePage, roundToHugePages(bytes));
  if (!pointer)
    llvm::report_bad_alloc_error("cannot allocate a large array");
  return pointer;
}

void mlir::obs::deallocateLarge(void *pointer, size_t bytes, size_t alignment) {
  if (bytes < kHugePage)
    return ::operator delete(pointer, std::align_val_t(alignment));
  std::free(pointer);
}
#endif
