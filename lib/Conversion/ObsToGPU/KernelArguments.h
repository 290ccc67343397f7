//===- KernelArguments.h - what a kernel may assume of its pointers -*- C++
//-*-===//
//
// A kernel's memref arguments become bare pointers. Where every launch of an
// instance passes it distinct allocations, and pointers whose alignment is
// known, the instance's arguments say so (llvm.noalias, llvm.align): LLVM
// may then keep loads apart from stores, load inputs through the read-only
// path (ld.global.nc) and make a thread's contiguous accesses vectors
// (ld.global.v2, .v4).
//
// What makes that known is the launch proof's contract for host functions:
// a function that launches kernels takes distinct allocations (the launch
// proof rejects a call that passes one twice), aligned to
// kArgumentAlignment. The public ones check both as they start
// (addEntryChecks), so a caller outside the module that breaks the contract
// gets an error, not a wrong answer.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_CONVERSION_OBSTOGPU_KERNELARGUMENTS_H
#define OBS_CONVERSION_OBSTOGPU_KERNELARGUMENTS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::obs {

/// What every launch of each instance passes it, argument by argument.
class KernelArgumentFacts {
public:
  /// Records a launch of `func` with `operands` (its memrefs, and values
  /// that are not pointers). An allocation a launch passes that has no
  /// alignment of its own is given kArgumentAlignment.
  void recordLaunch(gpu::GPUFuncOp func, ValueRange operands);

  /// Marks each instance's pointer arguments llvm.noalias where every
  /// launch passed a distinct allocation there, and llvm.align with the
  /// alignment every launch's pointer has.
  void annotate();

private:
  struct Argument {
    uint64_t alignment = ~uint64_t(0);
    bool distinct = true;
  };
  llvm::MapVector<Operation *, SmallVector<Argument>> instances;
};

/// Adds to every function of `module` that launches kernels (or calls one
/// that does), public or private, the checks of the contract on its memref
/// arguments: each aligned to kArgumentAlignment, no two overlapping. A
/// broken one is reported through obs_argument_contract
/// (Obs/Support/RuntimeFunctions.h). Fails, with an error, where the
/// module has a symbol of that name that is not the runtime's function.
LogicalResult addEntryChecks(ModuleOp module);

} // namespace mlir::obs

#endif // OBS_CONVERSION_OBSTOGPU_KERNELARGUMENTS_H
