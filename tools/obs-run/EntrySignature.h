//===- EntrySignature.h - what an --entry function may take -----*- C++ -*-===//
//
// obs-run fills an entry's memref arguments from --input (or zeros) and
// prints those after the inputs: the types it can read and print.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_TOOLS_OBS_RUN_ENTRYSIGNATURE_H
#define OBS_TOOLS_OBS_RUN_ENTRYSIGNATURE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include <optional>
#include <string>

namespace obs_run {

/// Why `type` cannot be an argument of an entry, as the rest of a sentence
/// that names the argument ("is not a memref: ..."); nothing when it can.
std::optional<std::string> whyNotEntryArgument(mlir::Type type);

/// Reports, at its place, each argument of `entry` obs-run cannot pass and
/// a result (it must return nothing); fails if there is one.
llvm::LogicalResult verifyEntrySignature(mlir::func::FuncOp entry);

} // namespace obs_run

#endif // OBS_TOOLS_OBS_RUN_ENTRYSIGNATURE_H
