//===- HostMemoryToGPU.cpp - host code's memory on the device -------------===//
//
// obs-host-memory-to-gpu and obs-host-shared-allocs-to-gpu: on the cuda
// target, the memory host functions allocate and pass to kernels is the
// device's (or, where host code reads or writes memory itself, memory host
// and device share), and copies between such memory are the device's.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/Allocations.h"
#include "Obs/Conversion/Passes.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Support/ByteSpan.h"
#include "Obs/Support/Statistics.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSHOSTMEMORYTOGPU
#define GEN_PASS_DEF_OBSHOSTSHAREDALLOCSTOGPU
#include "Obs/Conversion/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// The host functions of `module`: those outside its gpu.modules.
static SmallVector<func::FuncOp> hostFunctions(ModuleOp module) {
  return SmallVector<func::FuncOp>(module.getOps<func::FuncOp>());
}

/// Whether `op`, in host code, reads or writes the contents of memory
/// itself, rather than allocating it, freeing it, copying it, viewing it or
/// handing it to a kernel or another host function.
static bool touchesMemory(Operation *op, SymbolTable &symbols) {
  if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp, gpu::LaunchFuncOp,
          func::ReturnOp, memref::DimOp, memref::ExtractStridedMetadataOp,
          ViewLikeOpInterface>(op))
    return false;
  if (auto call = dyn_cast<func::CallOp>(op)) {
    // Another host function is looked at itself; one defined elsewhere may
    // do anything with the memrefs it is given, and nothing with those it
    // is not (obs's runtime functions take numbers).
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    return (!callee || callee.isExternal()) &&
           llvm::any_of(call.getOperandTypes(),
                        [](Type type) { return isa<BaseMemRefType>(type); });
  }
  if (op->getNumRegions() && !isMemoryEffectFree(op))
    return false; // Its ops are looked at one by one.
  if (isMemoryEffectFree(op))
    return false;
  return llvm::any_of(op->getOperandTypes(),
                      [](Type type) { return isa<BaseMemRefType>(type); }) ||
         !isa<MemoryEffectOpInterface>(op);
}

/// The allocation `memref` is a view of: the value views are taken of until
/// one that is not a view.
static Value viewedRoot(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

namespace {
struct ObsHostMemoryToGPUPass
    : mlir::obs::impl::ObsHostMemoryToGPUBase<ObsHostMemoryToGPUPass> {
  void runOnOperation() override;
};

struct ObsHostSharedAllocsToGPUPass
    : mlir::obs::impl::ObsHostSharedAllocsToGPUBase<
          ObsHostSharedAllocsToGPUPass> {
  void runOnOperation() override;
};
} // namespace

void ObsHostMemoryToGPUPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  SmallVector<func::FuncOp> functions = hostFunctions(module);

  // Memory a kernel is given must be memory the device can reach: given
  // to a launch, or to a function in an argument it gives to a kernel
  // (itself or through its calls).
  bool failedAny = false;
  // Each memory once, at its first use: a device op's plan launches several
  // kernels on it, and the same error came once per launch.
  llvm::SmallPtrSet<Operation *, 4> reported;
  // `argument`: the number of the callee's argument `user`, a call,
  // passes; none for a launch (whose location is the user's launch or
  // device op, not the gpu.launch_func it is now).
  auto checkReachable = [&](Operation *user, Value operand,
                            std::optional<unsigned> argument) {
    if (!isa<BaseMemRefType>(operand.getType()))
      return;
    Operation *root = viewedRoot(operand).getDefiningOp();
    StringRef what = isa_and_present<memref::AllocaOp>(root)
                         ? "memory on the host's stack (memref.alloca)"
                     : isa_and_present<memref::GetGlobalOp>(root)
                         ? "a global of the host (memref.get_global)"
                         : "";
    if (what.empty() || !reported.insert(root).second)
      return;
    InFlightDiagnostic diag = mlir::emitError(user->getLoc());
    if (argument)
      diag << "this call passes, as argument " << *argument
           << " of a function that gives it to a kernel, ";
    else
      diag << "this launches a kernel on ";
    diag << what
         << ", which the device cannot reach on the cuda target; allocate it "
            "with memref.alloc";
    failedAny = true;
  };
  ArgumentsReaching reachingKernels = getArgumentsReaching(
      module,
      [](Operation *op) {
        auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
        return launch ? SmallVector<Value>(launch.getKernelOperands())
                      : SmallVector<Value>();
      },
      viewedRoot);
  SymbolTableCollection calls;
  for (func::FuncOp function : functions)
    function.walk([&](Operation *op) {
      if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
        for (Value operand : launch.getKernelOperands())
          checkReachable(launch, operand, std::nullopt);
        return;
      }
      auto call = dyn_cast<CallOpInterface>(op);
      FunctionOpInterface callee =
          call ? resolveCalledFunction(call, calls) : FunctionOpInterface();
      if (!callee)
        return;
      for (unsigned number : reachingKernels.lookup(callee))
        if (number < call.getArgOperands().size())
          checkReachable(call, call.getArgOperands()[number], number);
    });
  if (failedAny)
    return signalPassFailure();

  Operation *touching = nullptr;
  for (func::FuncOp function : functions)
    function.walk([&](Operation *op) {
      if (!touching && touchesMemory(op, symbols))
        touching = op;
    });
  bool shared = touching != nullptr;
  if (shared)
    ObsDialect::HostMemorySharedAttrHelper(module.getContext())
        .setAttr(module, UnitAttr::get(module.getContext()));

  for (func::FuncOp function : functions) {
    WalkResult result = function.walk([&](Operation *op) {
      OpBuilder builder(op);
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        gpu::DeallocOp::create(builder, op->getLoc(), Type(), ValueRange(),
                               dealloc.getMemref());
        op->erase();
        return WalkResult::skip();
      }
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        if (copy.getSource().getType() != copy.getTarget().getType()) {
          copy.emitOpError()
              << "copies between memrefs of different types, which the "
                 "device cannot do in one copy on the cuda target";
          return WalkResult::interrupt();
        }
        // A device copy is one run of bytes from a memref's base: a view
        // at an offset, or with strides, is not (the lowering of
        // gpu.memcpy needs identity layouts, and failed inside LLVM).
        if (!cast<MemRefType>(copy.getSource().getType())
                 .getLayout()
                 .isIdentity()) {
          copy.emitOpError()
              << "copies a view with a layout (an offset or strides), which "
                 "the device cannot do in one copy on the cuda target; copy "
                 "with a kernel launched over the views";
          return WalkResult::interrupt();
        }
        gpu::MemcpyOp::create(builder, op->getLoc(), Type(), ValueRange(),
                              copy.getTarget(), copy.getSource());
        addToStatistic(*this, numCopies, "copies");
        op->erase();
        return WalkResult::skip();
      }
      auto alloc = dyn_cast<memref::AllocOp>(op);
      if (!alloc || shared)
        return WalkResult::advance();
      eraseAllocatedChecks(alloc.getResult());
      auto made = gpu::AllocOp::create(
          builder, op->getLoc(), alloc.getType(), Type(), ValueRange(),
          alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/false);
      alloc.replaceAllUsesWith(made.getMemref());
      addToStatistic(*this, numAllocations, "allocations");
      op->erase();
      return WalkResult::skip();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
  }
}

void ObsHostSharedAllocsToGPUPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (!ObsDialect::HostMemorySharedAttrHelper(module.getContext())
           .isAttrPresent(module))
    return;
  for (func::FuncOp function : hostFunctions(module))
    function.walk([&](memref::AllocOp alloc) {
      OpBuilder builder(alloc);
      auto made = gpu::AllocOp::create(
          builder, alloc.getLoc(), alloc.getType(), Type(), ValueRange(),
          alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/true);
      alloc.replaceAllUsesWith(made.getMemref());
      alloc.erase();
      addToStatistic(*this, numAllocations, "allocations");
    });
}
