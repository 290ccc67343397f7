//===- GPUToCPUImpl.h - what the cpu target's conversion shares -*- C++ -*-===//
//
// Internal to lib/Conversion/GPUToCPU: GPUToCPU.cpp makes each gpu.func a
// host function run block by block; ChainAccesses.cpp gives obs.carry's
// chain accesses to the runner.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_CONVERSION_GPUTOCPU_GPUTOCPUIMPL_H
#define OBS_LIB_CONVERSION_GPUTOCPU_GPUTOCPUIMPL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::obs::gpu_to_cpu {

/// Replaces the look-back's exchanges and reads of a chain in `func` (the
/// memref.atomic_rmw ops marked obs.chain_publish and obs.chain_observe)
/// with calls of obs_chain_publish and obs_chain_observe, declared in the
/// symbol table around `func`.
LogicalResult replaceChainAccesses(func::FuncOp func);

} // namespace mlir::obs::gpu_to_cpu

#endif // OBS_LIB_CONVERSION_GPUTOCPU_GPUTOCPUIMPL_H
