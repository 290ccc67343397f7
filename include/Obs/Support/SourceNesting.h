//===- SourceNesting.h - files nested past the parser's stack --*- C++ -*-===//
//
// MLIR's parser descends once per region, attribute dictionary, array
// attribute and nested type, on the machine stack. A file of a few thousand
// nested `{` (or `[`, `(`, `<`) overflows it before any verifier can speak:
// a crash on hostile input. obs's tools look at the brackets first and refuse
// such a file with one located error.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_SOURCENESTING_H
#define OBS_SUPPORT_SOURCENESTING_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::obs {

/// The deepest bracket nesting obs's tools parse. Real kernels nest a few
/// dozen levels (two inside two per halving); MLIR's parser needs about a
/// kilobyte of stack per level and the main thread has 8 MiB.
constexpr unsigned kMaxSourceNesting = 1000;

/// The offset in `text` of the first bracket that opens level
/// kMaxSourceNesting + 1, or nothing when the text stays within the limit.
/// Comments and string literals are skipped; `->` and `>=` are not closers.
std::optional<size_t> findExcessiveNesting(StringRef text);

/// Emits "error: brackets nested more than N levels deep" at that bracket of
/// the main buffer of `sourceMgr` (to llvm::errs(), as the parser's errors
/// are) and fails; succeeds when the buffer is within the limit.
LogicalResult checkSourceNesting(llvm::SourceMgr &sourceMgr);

} // namespace mlir::obs

#endif // OBS_SUPPORT_SOURCENESTING_H
