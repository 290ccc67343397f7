//===- TestBlockRun.cpp - the block simulation on hand-written gpu.funcs --===//
//
// `test-obs-block-run`: runs every gpu.func with a known_block_size through
// the block simulation (Obs/Analysis/BlockRun.h), as the refinement passes
// and the verifier run what convert-obs-to-gpu emits, and reports what it
// found as remarks: at the function, the accesses and barriers counted; at
// the second access of each hazard in shared memory, its kind, the two
// threads and the element; at a register or shuffle read check (or a
// shuffle) that fails, the first wrong read of its sync. A function the
// simulation cannot follow gets its error. Hand-written code tests the
// simulation where obs's own lowering never goes (effects it cannot see, memory
// it cannot follow).
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"
#include <tuple>

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

  static StringRef describeKind(RegisterReadViolation::Kind kind) {
    switch (kind) {
    case RegisterReadViolation::OtherThread:
      return "another thread's element";
    case RegisterReadViolation::OtherWarp:
      return "another warp's element";
    case RegisterReadViolation::NotTogether:
      return "a shuffle not run together";
    case RegisterReadViolation::NoSource:
      return "a shuffle from a lane that does not run it";
    case RegisterReadViolation::WrongLane:
      return "a shuffle from a lane that is not the owner";
    }
    llvm_unreachable("every kind is described");
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
      // The analyses read the accesses thread by thread, each thread's in
      // its own order (BlockRun::getAccesses): an error where they are not.
      bool threadOrder = llvm::is_sorted(
          run->getAccesses(), [](const Access &a, const Access &b) {
            return std::tie(a.thread, a.order) < std::tie(b.thread, b.order);
          });
      if (!threadOrder) {
        func.emitError("the run's accesses are not in thread order");
        failedAny = true;
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
      for (const RegisterReadViolation &wrong : run->getRegisterViolations())
        wrong.check->emitRemark()
            << describeKind(wrong.kind) << " of sync " << wrong.sync
            << ": thread " << wrong.thread << ", element " << wrong.element
            << ", owner " << wrong.owner << ", source " << wrong.source;
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace

namespace mlir::obs::test {
void registerTestBlockRunPass() { PassRegistration<TestBlockRunPass>(); }
} // namespace mlir::obs::test
