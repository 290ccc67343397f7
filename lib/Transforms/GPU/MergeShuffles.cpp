//===- MergeShuffles.cpp - CSE and DCE for shfl.sync ----------------------===//
//
// nvvm.shfl.sync is an op with effects (and convergent), so neither MLIR's
// CSE nor LLVM merges two equal ones or drops an unused one. Within one
// block both are safe: the lanes that run a block run all of its ops, and a
// shuffle gives each of them a value of the SSA operands, nothing else.
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/DenseMap.h"
#include <tuple>

namespace mlir::obs {
#define GEN_PASS_DEF_OBSMERGESHUFFLES
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsMergeShufflesPass
    : mlir::obs::impl::ObsMergeShufflesBase<ObsMergeShufflesPass> {
  void runOnOperation() override {
    SmallVector<NVVM::ShflOp> unused;
    getOperation().walk([&](Block *block) {
      // The shuffles of the block so far, by their operands.
      using Operands = std::tuple<Value, Value, Value, Value>;
      llvm::DenseMap<Operands, SmallVector<NVVM::ShflOp, 1>> earlier;
      for (Operation &op : llvm::make_early_inc_range(*block)) {
        auto shuffle = dyn_cast<NVVM::ShflOp>(&op);
        if (!shuffle)
          continue;
        Operands operands{shuffle.getThreadMask(), shuffle.getVal(),
                          shuffle.getOffset(), shuffle.getMaskAndClamp()};
        SmallVector<NVVM::ShflOp, 1> &same = earlier[operands];
        // The kind, the validity flag and the proof's tags alike.
        auto equal = llvm::find_if(same, [&](NVVM::ShflOp before) {
          return before->getAttrDictionary() == shuffle->getAttrDictionary() &&
                 before->getResultTypes() == shuffle->getResultTypes();
        });
        if (equal != same.end()) {
          shuffle->replaceAllUsesWith(*equal);
          shuffle->erase();
          addToStatistic(*this, numMerged, "shuffles-merged");
          continue;
        }
        same.push_back(shuffle);
        if (shuffle->use_empty())
          unused.push_back(shuffle);
      }
    });
    for (NVVM::ShflOp shuffle : unused) {
      // Still unused: a later equal one's uses were given to it.
      if (!shuffle->use_empty())
        continue;
      shuffle->erase();
      addToStatistic(*this, numErased, "shuffles-erased");
    }
  }
};
} // namespace
