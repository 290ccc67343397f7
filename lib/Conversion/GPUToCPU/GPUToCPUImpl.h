//===- GPUToCPUImpl.h - what the cpu target's conversion shares -*- C++ -*-===//
//
// Internal to lib/Conversion/GPUToCPU: GPUToCPU.cpp makes each gpu.func a
// host function run block by block; ChainAccesses.cpp gives obs.carry's
// chain accesses to the runner; UniformBranches.cpp takes out the branches
// every thread of a block takes alike; CPUChecks.cpp says what it can run.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_CONVERSION_GPUTOCPU_GPUTOCPUIMPL_H
#define OBS_LIB_CONVERSION_GPUTOCPU_GPUTOCPUIMPL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::obs::gpu_to_cpu {

/// Replaces the look-back's exchanges and reads of a chain in `func` (the
/// memref.atomic_rmw ops marked obs.chain_publish and obs.chain_observe)
/// with calls of obs_chain_publish and obs_chain_observe, declared in the
/// symbol table around `func`.
LogicalResult replaceChainAccesses(func::FuncOp func);

/// Whether `op` holds a barrier or a shuffle: something every thread (of
/// the block, or of a warp) must reach together.
bool holdsBarrier(Operation *op);

/// Replaces, in `func` (a kernel's block function, of `threads` threads),
/// every scf.if that holds a barrier or a shuffle and whose condition every
/// thread computes alike from its id and constants by the branch all of
/// them take. Such a branch is no divergence, but the splitting at
/// barriers refused it: an odds of 2 elements in shuffles, whose only pair
/// no thread has, left its shuffles under a condition (t == 0 or t == 1)
/// the range analysis could not fold, and the cpu target refused a kernel
/// the proof and the PTX accepted (found by a defect hunt).
void foldUniformBranches(func::FuncOp func, int64_t threads);

/// Checks that `kernel` is one the CPU lowering can run (CPUChecks.cpp).
LogicalResult checkRunsOnCPU(gpu::GPUFuncOp kernel);
/// Checks that `launch` of `kernel` is one the CPU lowering can run.
LogicalResult checkLaunchRunsOnCPU(gpu::LaunchFuncOp launch,
                                   gpu::GPUFuncOp kernel);
/// Checks that every value a thread loop of `func` uses is defined in it or
/// outside all thread loops: nothing a thread computed survives a barrier.
LogicalResult checkNoValueCrossesABarrier(func::FuncOp func);

} // namespace mlir::obs::gpu_to_cpu

#endif // OBS_LIB_CONVERSION_GPUTOCPU_GPUTOCPUIMPL_H
