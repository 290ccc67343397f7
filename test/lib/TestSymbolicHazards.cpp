//===- TestSymbolicHazards.cpp - the two engines of the proof, side by side
//===//
//
// `test-obs-symbolic-hazards`: runs every gpu.func with a known_block_size
// through both engines of the proof, the block simulation (BlockRun.h) and
// the symbolic one (SymbolicHazards.h), and compares the racing pairs of
// shared-memory accesses they find. At the function: `symbolic: N races,
// agrees` (with the pairs and Presburger sets it checked), or why the
// symbolic engine could not decide, at the op that stopped it. Where they
// differ, an error at the first pair only one of them found, and the pass
// fails: both engines must give every kernel the same verdict.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Analysis/SymbolicHazards.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"
#include <set>

using namespace mlir;
using namespace mlir::obs;

namespace {

struct TestSymbolicHazardsPass
    : PassWrapper<TestSymbolicHazardsPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestSymbolicHazardsPass)

  StringRef getArgument() const final { return "test-obs-symbolic-hazards"; }
  StringRef getDescription() const final {
    return "Find each gpu.func's shared-memory races by simulation and by "
           "Presburger sets, and require the same ones";
  }

  void runOnOperation() final {
    bool failedAny = false;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.getKnownBlockSize())
        return;
      FailureOr<BlockRun> run = BlockRun::simulate(func);
      FailureOr<SymbolicVerdict> verdict = failure();
      if (succeeded(run))
        verdict = crossCheckHazards(func, *run);
      if (failed(verdict)) {
        failedAny = true;
        return;
      }
      if (!verdict->decided()) {
        verdict->where->emitRemark()
            << "symbolic: undecided: " << verdict->undecided << " ('"
            << verdict->where->getName() << "')";
        return;
      }
      std::set<std::pair<Operation *, Operation *>> pairs;
      for (const SymbolicRace &race : verdict->races)
        pairs.insert({race.first, race.second});
      func.emitRemark() << "symbolic: " << pairs.size() << " races, agrees ("
                        << verdict->pairs << " pairs, " << verdict->sets
                        << " sets)";
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace

namespace mlir::obs::test {
void registerTestSymbolicHazardsPass() {
  PassRegistration<TestSymbolicHazardsPass>();
}
} // namespace mlir::obs::test
