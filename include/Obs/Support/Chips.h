//===- Chips.h - NVIDIA chip names ------------------------------*- C++ -*-===//
//
// What the PTX obs emits may use depends on the chip it is for.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_CHIPS_H
#define OBS_SUPPORT_CHIPS_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace mlir::obs {

/// The number of a chip named `sm_XX` (with any suffix, as `sm_90a`): 90;
/// none for another name.
inline std::optional<unsigned> getChipNumber(llvm::StringRef chip) {
  unsigned number;
  if (!chip.consume_front("sm_") ||
      chip.take_while(llvm::isDigit).getAsInteger(10, number))
    return std::nullopt;
  return number;
}

} // namespace mlir::obs

#endif // OBS_SUPPORT_CHIPS_H
