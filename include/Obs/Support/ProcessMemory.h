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
/// giving it back to the system: large blocks come from the heap, the heap
/// is not trimmed, and the ranges the block simulation's large arrays free
/// are kept for the next ones (keepLargeBlocks). For tools (obs-opt, obs-run,
/// obs-fuzz), at the start of main; a library embedding obs keeps its own
/// allocator's policy. Does nothing where the C library is not glibc.
void keepFreedMemory();

/// What every obs tool sets up at the start of main, after llvm::InitLLVM,
/// so that a hostile environment gives one line and an exit code rather
/// than a crash or an answer written elsewhere (found by a defect hunt):
/// - freed memory is kept (keepFreedMemory);
/// - a standard stream that is closed is opened on /dev/null, standard
///   output read-only, so that its writes still fail as they did: a file
///   the process opens later (the CUDA driver's log) would otherwise take
///   its descriptor, and the results went into it;
/// - running out of memory is `<tool>: out of memory` and exit 1, where
///   LLVM's handler printed a crash report and aborted;
/// - a file size limit (SIGXFSZ, which LLVM's handlers take even where it
///   is ignored) makes the write fail instead of killing the process, so
///   the compile cache keeps nothing and an --output says it cannot write.
void guardToolProcess(const char *tool);

} // namespace mlir::obs

#endif // OBS_SUPPORT_PROCESSMEMORY_H
