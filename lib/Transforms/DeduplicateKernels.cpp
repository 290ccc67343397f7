//===- DeduplicateKernels.cpp - one kernel for identical ones -------------===//
//
// obs-deduplicate-kernels: device expansion builds a launch plan's kernels
// for each device op, so two functions that sort the same element type
// hold two copies of every sort kernel. Each copy would be refined and
// proved again (the refinement of a radix sort's scatter kernel takes
// seconds), lowered again and assembled again. The copies are merged here,
// before any of that, the way IREE deduplicates executables and LLVM's
// mergefunc merges functions: uses of a copy are pointed at the first
// kernel of its kind, and the copy is erased.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/ExactPrinting.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSDEDUPLICATEKERNELS
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// `kernel` printed in generic form without locations and with an empty
/// name: equal for two kernels exactly when they are identical but for
/// their names (every op, attribute, property and type printed; values
/// numbered by position). Locations are left out: the copies of one
/// expansion carry their device ops' locations, and a diagnostic at the
/// kept kernel's ops is about the same code.
static std::string printWithoutName(KernelOp kernel) {
  StringAttr name = kernel.getSymNameAttr();
  kernel.setSymName("");
  std::string text;
  llvm::raw_string_ostream os(text);
  kernel->print(os, getExactPrintingFlags().useLocalScope().assumeVerified());
  kernel.setSymNameAttr(name);
  return text;
}

namespace {
struct ObsDeduplicateKernelsPass
    : mlir::obs::impl::ObsDeduplicateKernelsBase<ObsDeduplicateKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The first kernel of each kind, and each later one with the kernel it
    // becomes. The visibility is printed, so a private kernel is only ever
    // merged into a private one; public kernels are entry points, and two
    // identical ones are both kept.
    llvm::StringMap<KernelOp> firstOfKind;
    SmallVector<std::pair<KernelOp, KernelOp>> copies;
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      auto [first, isFirst] =
          firstOfKind.try_emplace(printWithoutName(kernel), kernel);
      if (!isFirst && kernel.isPrivate())
        copies.push_back({kernel, first->second});
    }
    for (auto [copy, kept] : copies) {
      if (failed(SymbolTable::replaceAllSymbolUses(copy, kept.getSymNameAttr(),
                                                   module)))
        return signalPassFailure();
      copy.erase();
      addToStatistic(*this, numMerged, "kernels-merged");
    }
  }
};
} // namespace
