//===- ExactPrinting.h - printed IR that identifies it ----------*- C++ -*-===//
//
// obs prints IR to identify it: the compile cache's key, the proof key of
// a kernel, the text obs-deduplicate-kernels compares. Such text must hold
// every op, region and element. OpPrintingFlags() starts from MLIR's
// --mlir-print-* options wherever a tool registers them (obs-opt does, as
// may a compiler that embeds obs): under --mlir-print-skip-regions two
// kernels of one signature printed alike, and obs-deduplicate-kernels
// launched one for both (found by a defect hunt).
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_EXACTPRINTING_H
#define OBS_SUPPORT_EXACTPRINTING_H

#include "mlir/IR/OperationSupport.h"
#include <limits>

namespace mlir::obs {

/// Flags that print all of an op in the generic form, whatever the
/// command line's printing options say: no elided elements or resources,
/// no skipped regions, no debug information (callers that want locations
/// enable them), and no annotations.
inline OpPrintingFlags getExactPrintingFlags() {
  constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();
  return OpPrintingFlags()
      .elideLargeElementsAttrs(kNoLimit)
      .printLargeElementsAttrWithHex(-1)
      .elideLargeResourceString(kNoLimit)
      .enableDebugInfo(false)
      .printGenericOpForm(true)
      .skipRegions(false)
      .assumeVerified(false)
      .useLocalScope(false)
      .printValueUsers(false)
      .printUniqueSSAIDs(false)
      .printNameLocAsPrefix(false);
}

} // namespace mlir::obs

#endif // OBS_SUPPORT_EXACTPRINTING_H
