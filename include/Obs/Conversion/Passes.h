//===- Passes.h - obs conversion passes -------------------------*- C++ -*-===//

#ifndef OBS_CONVERSION_PASSES_H
#define OBS_CONVERSION_PASSES_H

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/ExecutionOrder.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DLTIDialect;
namespace arith {
class ArithDialect;
} // namespace arith
namespace func {
class FuncDialect;
} // namespace func
namespace gpu {
class GPUDialect;
} // namespace gpu
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
namespace NVVM {
class NVVMDialect;
} // namespace NVVM
namespace memref {
class MemRefDialect;
} // namespace memref
namespace scf {
class SCFDialect;
} // namespace scf
namespace ub {
class UBDialect;
} // namespace ub
} // namespace mlir

namespace mlir::obs {

/// The orders as command-line values, for pass and pipeline options.
#define OBS_EXECUTION_ORDER_VALUES                                             \
  ::llvm::cl::values(clEnumValN(::mlir::obs::ExecutionOrder::Forward,          \
                                "forward", "in increasing order"),             \
                     clEnumValN(::mlir::obs::ExecutionOrder::Reverse,          \
                                "reverse", "in decreasing order"),             \
                     clEnumValN(::mlir::obs::ExecutionOrder::Shuffle,          \
                                "shuffle",                                     \
                                "in a permutation drawn from the seed"))

/// The prefix obs-rename-library-symbols gives a host function named like a
/// C library function.
constexpr llvm::StringLiteral kLibraryNamePrefix = "obs.";

/// The name of the host function `name` once the host code is lowered:
/// `name`, or obs-rename-library-symbols' new name for it.
std::string getHostSymbolName(StringRef name);

#define GEN_PASS_DECL
#include "Obs/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Obs/Conversion/Passes.h.inc"

} // namespace mlir::obs

#endif // OBS_CONVERSION_PASSES_H
