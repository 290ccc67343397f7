//===- ProcessMemory.cpp - memory kept by the tools between proofs --------===//

#include "Obs/Support/ProcessMemory.h"
// Any C library header defines __GLIBC__ where the library is glibc.
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void mlir::obs::keepFreedMemory() {
#if defined(__GLIBC__)
  // Blocks below 1 GiB come from the heap (a thread's arena maps what does
  // not fit its heap all the same). Some glibc versions refuse a threshold
  // above 32 MiB: then the largest they take.
  if (!mallopt(M_MMAP_THRESHOLD, 1 << 30))
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}
