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
#include <string>

namespace mlir::obs {

/// `loc` as a diagnostic prints it: the first file, line and column in it,
/// or the location itself where it has none.
inline std::string describeLocation(Location loc) {
  std::string text;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
              ":" + Twine(file.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (text.empty())
    llvm::raw_string_ostream(text) << loc;
  return text;
}

} // namespace mlir::obs

#endif // OBS_SUPPORT_SOURCELOCATION_H
