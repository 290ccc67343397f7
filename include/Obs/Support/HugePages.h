//===- HugePages.h - large arrays in transparent huge pages ----*- C++ -*-===//
//
// A simulation of a big kernel's block holds its accesses in arrays of tens
// of megabytes, which a refinement makes and drops several times in a row.
// Each first touch of a 4 KiB page of fresh memory is a page fault, and on
// this project's virtual machines the faults were a fifth of the time of
// refining a 4,096-key bitonic sort (99,000 faults for 400 MB). Arrays this
// large are worth 2 MiB pages: 512 times fewer faults. Linux gives them to
// memory that asks (transparent huge pages in `madvise` mode, Debian's
// default); glibc's malloc asks only under a tunable read at process start,
// so these arrays ask themselves. And since a new page is dear even when it
// is huge (the kernel zeroes it, and the host backs it), the tools keep the
// ranges these arrays free for the next ones (keepLargeBlocks).
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_HUGEPAGES_H
#define OBS_SUPPORT_HUGEPAGES_H

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace mlir::obs {

/// `bytes` of memory aligned to `alignment`; where they are at least a huge
/// page, aligned to one and advised to the kernel as huge pages. Running
/// out of memory goes to LLVM's bad-alloc handler (the tools' says so in
/// one line and exits).
void *allocateLarge(size_t bytes, size_t alignment);
/// Keeps the memory of the large arrays the process frees, up to 1 GiB,
/// for its next ones (in huge pages, already touched) rather than giving it
/// back to the system. For tools (keepFreedMemory calls it); a library
/// embedding obs gives the memory back.
void keepLargeBlocks();
/// Frees what allocateLarge(`bytes`, `alignment`) returned.
void deallocateLarge(void *pointer, size_t bytes, size_t alignment);

/// An allocator for containers that may grow past a huge page. With
/// `DefaultInit`, a container's resize leaves what it adds unwritten (the
/// type must be trivially copyable), so that a vector sized up front
/// touches no memory until it is written.
template <typename T, bool DefaultInit = false> struct HugePageAllocator {
  using value_type = T;
  template <typename U> struct rebind {
    using other = HugePageAllocator<U, DefaultInit>;
  };
  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U, DefaultInit> &) {}
  T *allocate(size_t count) {
    return static_cast<T *>(allocateLarge(count * sizeof(T), alignof(T)));
  }
  void deallocate(T *pointer, size_t count) {
    deallocateLarge(pointer, count * sizeof(T), alignof(T));
  }
  template <typename U, typename... Args>
  void construct(U *pointer, Args &&...args) {
    if constexpr (DefaultInit && sizeof...(Args) == 0) {
      // Not even default-initialized: a member with a default constructor
      // (an mlir::Attribute's null) would write every element, and touch
      // every page. The elements are trivially copyable and destructible,
      // and are only ever assigned before they are read.
      static_assert(std::is_trivially_copyable_v<U> &&
                        std::is_trivially_destructible_v<U>,
                    "unwritten elements must be trivially copyable");
    } else {
      ::new (static_cast<void *>(pointer)) U(std::forward<Args>(args)...);
    }
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U, DefaultInit> &) const {
    return true;
  }
  template <typename U>
  bool operator!=(const HugePageAllocator<U, DefaultInit> &) const {
    return false;
  }
};

/// A vector whose storage is in huge pages once it is large.
template <typename T> using LargeVector = std::vector<T, HugePageAllocator<T>>;
/// A LargeVector whose resize leaves new elements of a trivial type
/// unwritten: room that costs nothing until it is used.
template <typename T>
using UnwrittenLargeVector = std::vector<T, HugePageAllocator<T, true>>;

} // namespace mlir::obs

#endif // OBS_SUPPORT_HUGEPAGES_H
