//===- Pipelines.h - obs pass pipelines -------------------------*- C++ -*-===//
//
// The named pipelines of DESIGN section 6, as functions that build them on a
// pass manager (for tools and embedders) and as obs-opt pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_PIPELINES_PIPELINES_H
#define OBS_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace mlir::obs {

/// `obs-reference`: kernels to sequential loops (the ref target), then to the
/// LLVM dialect, ready to JIT. Each kernel @k becomes an LLVM function @k
/// taking one bare pointer per stored component of its arguments and then of
/// its results (see Obs/Conversion/Storage.h).
void buildReferencePipeline(OpPassManager &pm);

/// Lowers host code (func, scf, arith, memref, math, cf) to the LLVM
/// dialect, memrefs as bare pointers at function boundaries.
void buildHostToLLVMPipeline(OpPassManager &pm);

/// Registers the pipelines with the pass registry (obs-opt).
void registerPipelines();

} // namespace mlir::obs

#endif // OBS_PIPELINES_PIPELINES_H
