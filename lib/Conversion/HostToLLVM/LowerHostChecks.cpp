//===- LowerHostChecks.cpp - host cf.assert to the runner's report --------===//
//
// obs-lower-host-checks: a host function's cf.assert (obs-check-host-code's
// checks, or the program's own) branches where it fails to one call of the
// runner's obs_host_check with its message. Upstream's lowering prints the
// message and aborts, which a runner cannot turn into one line and an exit
// status.
//
//===----------------------------------------------------------------------===//

#include "Obs/Conversion/Passes.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSLOWERHOSTCHECKS
#include "Obs/Conversion/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {
struct ObsLowerHostChecksPass
    : obs::impl::ObsLowerHostChecksBase<ObsLowerHostChecksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Host functions only: a gpu.module's kernels are not the runner's.
    SmallVector<cf::AssertOp> asserts;
    bool nested = false;
    ObsDialect::HostCheckedAttrHelper checkedMark(&getContext());
    for (auto function : module.getOps<func::FuncOp>()) {
      // The mark has served (obs-check-host-code): the LLVM function this
      // one becomes is no host func.func.
      checkedMark.removeAttr(function);
      function.walk([&](cf::AssertOp check) {
        // A branch needs the function's own blocks: inside an scf region
        // it would make that region's body more than one block.
        if (check->getParentOp() != function) {
          check.emitOpError() << "is in a region of its own: lower scf to "
                                 "cf before obs-lower-host-checks";
          nested = true;
        }
        asserts.push_back(check);
      });
    }
    if (nested)
      return signalPassFailure();
    if (asserts.empty())
      return;
    auto pointer = LLVM::LLVMPointerType::get(&getContext());
    FailureOr<func::FuncOp> report = getOrDeclareRuntimeFunction(
        module, kHostCheckFunction,
        FunctionType::get(&getContext(), {pointer}, {}));
    if (failed(report))
      return signalPassFailure();
    SymbolTable symbols(module);
    unsigned next = 0;
    for (cf::AssertOp check : asserts) {
      // A name of its own for each message's global.
      std::string name;
      do
        name = ("obs_host_check_message_" + Twine(next++)).str();
      while (symbols.lookup(name));
      Location loc = check.getLoc();
      Block *before = check->getBlock();
      Block *after = before->splitBlock(check->getIterator());
      Block *failing = new Block();
      after->getParent()->getBlocks().insert(after->getIterator(), failing);
      OpBuilder b = OpBuilder::atBlockEnd(before);
      cf::CondBranchOp::create(b, loc, check.getArg(), after, ValueRange(),
                               failing, ValueRange());
      b.setInsertionPointToEnd(failing);
      // NUL-terminated: the runner reads a C string.
      Value message = LLVM::createGlobalString(
          loc, b, name, (check.getMsg() + Twine('\0')).str(),
          LLVM::Linkage::Internal);
      func::CallOp::create(b, loc, *report, ValueRange{message});
      // The report does not return; the branch keeps the block well formed.
      cf::BranchOp::create(b, loc, after);
      check.erase();
    }
  }
};
} // namespace
