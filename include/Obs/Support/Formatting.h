//===- Formatting.h - lists in messages -------------------------*- C++ -*-===//
//
// One spelling of a list in a diagnostic: `(a, b, c)`, for types, constants
// or anything else that prints to a raw_ostream; and of a count of things.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_FORMATTING_H
#define OBS_SUPPORT_FORMATTING_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace mlir::obs {

/// `values` as `(v1, v2, ...)`.
template <typename Range> std::string formatParenthesized(const Range &values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "(";
  llvm::interleaveComma(values, os);
  os << ")";
  return text;
}

/// `count` `noun`s, the noun plural unless there is one: "1 number",
/// "5 numbers".
inline std::string formatCount(uint64_t count, llvm::StringRef noun) {
  return std::to_string(count) + " " + noun.str() + (count == 1 ? "" : "s");
}

} // namespace mlir::obs

#endif // OBS_SUPPORT_FORMATTING_H
