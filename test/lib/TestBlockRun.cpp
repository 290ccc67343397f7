//===- TestBlockRun.cpp - the block simulation on hand-written gpu.funcs --===//
//
// `test-obs-block-run`: runs every gpu.func with a known_block_size through
// the block simulation (Obs/Analysis/BlockRun.h), as the refinement passes
// and the verifier run what convert-obs-to-gpu emits, and reports what it
// found as remarks: at the function, the accesses and barriers counted; at
// the second access of each hazard in shared memory, its kind, the two
// threads and the element. A function the simulation cannot follow gets
// its error. Hand-written code tests the simulation where obs's own
// lowering never goes (effects it cannot see, memory it cannot follow).
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::obs;

namespace {

struct TestBlockRunPass
    : PassWrapper<TestBlockRunPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestBlockRunPass)

  StringRef getArgument() const final { return "test-obs-block-run"; }
  StringRef getDescription() const final {
    return "Run each gpu.func's block thread by thread and report its "
           "accesses and hazards as remarks";
  }

  void runOnOperation() final {
    bool failedAny = false;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.getKnownBlockSize())
        return;
      FailureOr<BlockRun> run = BlockRun::simulate(func);
      if (failed(run)) {
        failedAny = true;
        return;
      }
      func.emitRemark() << run->getAccesses().size() << " accesses, "
                        << run->getBarriers().size() << " barriers"
                        << (run->dependsOnData() ? ", data-dependent" : "");
      for (const Hazard &hazard : findHazards(*run)) {
        InFlightDiagnostic remark = hazard.second.op->emitRemark();
        remark << stringifyHazardKind(hazard.kind) << ": thread "
               << hazard.first.thread << " then thread "
               << hazard.second.thread;
        if (hazard.second.element >= 0)
          remark << ", element " << hazard.second.element;
        else
          remark << ", anywhere";
      }
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace

namespace mlir::obs::test {
void registerTestBlockRunPass() { PassRegistration<TestBlockRunPass>(); }
} // namespace mlir::obs::test
