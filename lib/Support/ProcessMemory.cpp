//===- ProcessMemory.cpp - memory kept by the tools between proofs --------===//

#include "Obs/Support/ProcessMemory.h"
#include "Obs/Support/HugePages.h"
#include "llvm/Support/ErrorHandling.h"
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <unistd.h>
// Any C library header defines __GLIBC__ where the library is glibc.
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

/// The out-of-memory line, made before memory can run out.
static char outOfMemoryLine[128] = "obs: out of memory\n";
static size_t outOfMemoryBytes = std::strlen(outOfMemoryLine);

/// Says that memory ran out, in one line, and exits: what LLVM's bad-alloc
/// handler and operator new call. Nothing here allocates, and of threads
/// that run out at once only the first says so (the others wait for the
/// exit), where their words interleaved.
[[noreturn]] static void reportOutOfMemory() {
  static std::atomic<bool> reported{false};
  if (!reported.exchange(true)) {
    (void)!::write(2, outOfMemoryLine, outOfMemoryBytes);
    ::_exit(1);
  }
  while (true)
    ::pause();
}

void mlir::obs::guardToolProcess(const char *tool) {
  std::snprintf(outOfMemoryLine, sizeof(outOfMemoryLine), "%s: out of memory\n",
                tool);
  outOfMemoryBytes = std::strlen(outOfMemoryLine);
  keepFreedMemory();
  for (int stream = 0; stream <= 2; ++stream)
    if (::fcntl(stream, F_GETFD) == -1 && errno == EBADF) {
      int opened = ::open("/dev/null", O_RDONLY);
      if (opened >= 0 && opened != stream) {
        ::dup2(opened, stream);
        ::close(opened);
      }
    }
  llvm::install_bad_alloc_error_handler(
      [](void *, const char *, bool) { reportOutOfMemory(); });
  std::set_new_handler([] { reportOutOfMemory(); });
  ::signal(SIGXFSZ, SIG_IGN);
}

void mlir::obs::keepFreedMemory() {
  keepLargeBlocks();
#if defined(__GLIBC__)
  // Blocks below 1 GiB come from the heap (a thread's arena maps what does
  // not fit its heap all the same). Some glibc versions refuse a threshold
  // above 32 MiB: then the largest they take.
  if (!mallopt(M_MMAP_THRESHOLD, 1 << 30))
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}
