//===- Chips.h - NVIDIA chip names ------------------------------*- C++ -*-===//
//
// What the PTX obs emits may use depends on the chip it is for.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_CHIPS_H
#define OBS_SUPPORT_CHIPS_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <optional>
#include <string>

namespace mlir::obs {

/// The oldest chip obs emits PTX for: its kernels synchronise warps with
/// bar.warp.sync, which NVPTX selects from sm_30 (before, it stopped with
/// "Cannot select" and a stack dump).
inline constexpr unsigned kOldestChip = 30;

/// The number of a chip named `sm_XX` (with any suffix, as `sm_90a`): 90;
/// none for another name.
inline std::optional<unsigned> getChipNumber(llvm::StringRef chip) {
  unsigned number;
  if (!chip.consume_front("sm_") ||
      chip.take_while(llvm::isDigit).getAsInteger(10, number))
    return std::nullopt;
  return number;
}

/// Whether obs emits PTX for `chip`: an `sm_XX` of at least kOldestChip.
inline bool isPTXChip(llvm::StringRef chip) {
  std::optional<unsigned> number = getChipNumber(chip);
  return number && *number >= kOldestChip;
}

/// What a pass option naming `chip`, not isPTXChip, is told.
inline std::string describeNonPTXChip(llvm::StringRef chip) {
  return ("chip '" + chip +
          "' is not one obs emits PTX for: an NVPTX architecture sm_" +
          llvm::Twine(kOldestChip) + " or newer, such as sm_80, sm_90 or " +
          "sm_100")
      .str();
}

} // namespace mlir::obs

#endif // OBS_SUPPORT_CHIPS_H
