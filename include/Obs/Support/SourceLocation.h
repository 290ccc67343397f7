//===- SourceLocation.h - a location as messages name it --------*- C++ -*-===//
//
// The file, line and column a run-time message gives for an op: what a
// diagnostic at its location would print first.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_SOURCELOCATION_H
#define OBS_SUPPORT_SOURCELOCATION_H

#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>

namespace mlir::obs {

/// The first file, line and column in `loc`, as a diagnostic at it names
/// its place; none where it has none.
inline std::optional<FileLineColLoc> findFileLocation(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// `loc` as a diagnostic prints it: the first file, line and column in it,
/// or the location itself where it has none.
inline std::string describeLocation(Location loc) {
  std::string text;
  if (std::optional<FileLineColLoc> file = findFileLocation(loc))
    return (file->getFilename().getValue() + ":" + Twine(file->getLine()) +
            ":" + Twine(file->getColumn()))
        .str();
  llvm::raw_string_ostream(text) << loc;
  return text;
}

} // namespace mlir::obs

#endif // OBS_SUPPORT_SOURCELOCATION_H
