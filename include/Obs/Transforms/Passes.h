//===- Passes.h - obs transformation passes ---------------------*- C++ -*-===//

#ifndef OBS_TRANSFORMS_PASSES_H
#define OBS_TRANSFORMS_PASSES_H

#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith {
class ArithDialect;
} // namespace arith
} // namespace mlir

namespace mlir::obs {

#define GEN_PASS_DECL
#include "Obs/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Obs/Transforms/Passes.h.inc"

} // namespace mlir::obs

#endif // OBS_TRANSFORMS_PASSES_H
