//===- InitAll.h - everything obs registers ---------------------*- C++ -*-===//
//
// For tools and for compilers that embed obs: the dialects, interfaces and
// translations obs pipelines go through, and obs's passes and pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_INITALL_H
#define OBS_INITALL_H

namespace mlir {
class DialectRegistry;

namespace obs {

/// Registers the obs dialect and every dialect, dialect interface and LLVM
/// IR translation that the obs pipelines need (down to PTX and to the JIT).
void registerAllDialects(DialectRegistry &registry);

/// Registers obs's passes and pipelines, and the upstream passes that obs-opt
/// offers next to them (canonicalize, cse, the GPU and LLVM conversions).
void registerAllPasses();

} // namespace obs
} // namespace mlir

#endif // OBS_INITALL_H
