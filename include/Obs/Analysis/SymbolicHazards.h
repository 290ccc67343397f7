//===- SymbolicHazards.h - races in shared memory, by Presburger sets -*- C++
//-*-===//
//
// The second engine of the proof. The block run (BlockRun.h) finds races by
// running every thread; this one decides the same question for all threads
// at once, exactly, where the kernel's index arithmetic is quasi-affine in
// the thread id and loop counters (sums, products by constants, floordiv
// and mod by constants, and bit operations with constants, which are sums
// of a value's bits). Each pair of accesses of one epoch that could race
// becomes a Presburger set (mlir/Analysis/Presburger) of the thread ids,
// loop counters and places at which they would: two threads that meet at
// one byte, under the branch conditions each took. The pair races iff that
// set has an integer point. Its cost grows with the kernel's code, not its
// thread count.
//
// It follows the simulation's rules (BlockHazards.cpp): two accesses of one
// place race when one writes, no block barrier lies between them, and a
// warp barrier between them does not order them (their threads are in
// different warps); atomics of one kind commute; one thread's read of what
// its own stage wrote races; a place computed from data is anywhere in its
// buffer, and a branch on data goes both ways. What it cannot express
// (barriers inside branches or loops, loop-carried values, constant
// tables, products of two thread-dependent values) leaves the kernel
// undecided, with the op that stopped it: never a guess.
//
// Today it checks the simulation: with --obs-cross-check-proofs every
// simulation a pass makes is compared with it, and the two must find the
// same races wherever this one decides (the tests, `lit
// -Dcross_check_proofs=1`, and the fuzzer).
//
//===----------------------------------------------------------------------===//

#ifndef OBS_ANALYSIS_SYMBOLICHAZARDS_H
#define OBS_ANALYSIS_SYMBOLICHAZARDS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace mlir::obs {

/// Two accesses of shared memory that race for some threads, in program
/// order (the same op twice when its threads race with each other).
struct SymbolicRace {
  Operation *first, *second;
  /// Two threads that race there (-1 when not found).
  int64_t firstThread = -1, secondThread = -1;
};

/// What the symbolic proof found in one gpu.func.
struct SymbolicVerdict {
  /// Why it could not decide, and at which op; empty when it decided.
  std::string undecided;
  Operation *where = nullptr;
  /// Every racing pair of accesses, once each, in program order.
  SmallVector<SymbolicRace> races;
  /// Pairs of accesses that could meet, and the Presburger sets checked.
  unsigned pairs = 0, sets = 0;

  bool decided() const { return undecided.empty(); }
};

/// Decides the races in the shared memory of one block of `func`, whose
/// known_block_size gives the threads, with warps of `warpSize` threads.
SymbolicVerdict findHazardsSymbolically(gpu::GPUFuncOp func,
                                        unsigned warpSize = 32);

class BlockRun;

/// The symbolic verdict on `func`, checked against `run`, its block's
/// simulation: where the symbolic proof decides, both must find the same
/// racing pairs of ops. Fails, with an error at the first pair only one of
/// them finds (a defect of one engine), where they differ.
FailureOr<SymbolicVerdict> crossCheckHazards(gpu::GPUFuncOp func,
                                             const BlockRun &run,
                                             unsigned warpSize = 32);

/// Whether every kernel simulation is to be checked so
/// (`--obs-cross-check-proofs`, for the tests and the fuzzer).
bool isCrossCheckingProofs();

} // namespace mlir::obs

#endif // OBS_ANALYSIS_SYMBOLICHAZARDS_H
