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
#include <map>
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
    bool disagreed = false;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.getKnownBlockSize())
        return;
      SymbolicVerdict verdict = findHazardsSymbolically(func);
      if (!verdict.decided()) {
        verdict.where->emitRemark()
            << "symbolic: undecided: " << verdict.undecided << " ('"
            << verdict.where->getName() << "')";
        return;
      }
      FailureOr<BlockRun> run = BlockRun::simulate(func);
      if (failed(run)) {
        disagreed = true;
        return;
      }
      // Every race the simulation finds, as an unordered pair of ops.
      auto unordered = [](Operation *a, Operation *b) {
        return a < b ? std::make_pair(a, b) : std::make_pair(b, a);
      };
      std::set<std::pair<Operation *, Operation *>> simulated, symbolic;
      std::map<std::pair<Operation *, Operation *>, SymbolicRace> races;
      for (const Hazard &hazard :
           findHazards(*run, /*warpSize=*/32, /*limit=*/~0u))
        simulated.insert(unordered(hazard.first.op, hazard.second.op));
      for (const SymbolicRace &race : verdict.races) {
        symbolic.insert(unordered(race.first, race.second));
        races[unordered(race.first, race.second)] = race;
      }
      for (auto [only, other, name] :
           {std::make_tuple(&simulated, &symbolic, "the simulation"),
            std::make_tuple(&symbolic, &simulated, "the symbolic proof")})
        for (const auto &pair : *only)
          if (!other->count(pair)) {
            InFlightDiagnostic error = pair.second->emitError()
                                       << "only " << name
                                       << " finds a race of this access";
            error.attachNote(pair.first->getLoc()) << "with this one";
            if (auto race = races.find(pair); race != races.end())
              error.attachNote() << "threads " << race->second.firstThread
                                 << " and " << race->second.secondThread;
            disagreed = true;
            return;
          }
      func.emitRemark() << "symbolic: " << symbolic.size() << " races, agrees ("
                        << verdict.pairs << " pairs, " << verdict.sets
                        << " sets)";
    });
    if (disagreed)
      signalPassFailure();
  }
};

} // namespace

namespace mlir::obs::test {
void registerTestSymbolicHazardsPass() {
  PassRegistration<TestSymbolicHazardsPass>();
}
} // namespace mlir::obs::test
