//===- ProcessMemory.h - freed memory kept by the tools --------*- C++ -*-===//
//
// A simulation of a big kernel's block holds tens of megabytes of accesses,
// and a refinement makes and drops several in a row. glibc serves blocks
// that large with mmap and unmaps them when they are freed, so every
// simulation faults its pages in afresh and the kernel zeroes each one: a
// sixth of the time of refining a radix sort's scatter kernel went there.
// The tools keep freed memory in the process instead.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_PROCESSMEMORY_H
#define OBS_SUPPORT_PROCESSMEMORY_H

namespace mlir::obs {

/// Keeps memory the process frees for its next allocations rather than
/// giving it back to the system: large blocks come from the heap, and the
/// heap is not trimmed. For tools (obs-opt, obs-run, obs-fuzz), at the start
/// of main; a library embedding obs keeps its own allocator's policy. Does
/// nothing where the C library is not glibc.
void keepFreedMemory();

} // namespace mlir::obs

#endif // OBS_SUPPORT_PROCESSMEMORY_H
