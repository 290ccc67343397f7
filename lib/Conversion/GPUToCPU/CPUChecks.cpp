//===- CPUChecks.cpp - what the cpu target's conversion can run -----------===//
//
// The kernels and launches obs-gpu-to-cpu runs, checked before it changes
// them, and its check that no value a thread computed survives a barrier
// once the block is split (GPUToCPU.cpp).
//
//===----------------------------------------------------------------------===//

#include "GPUToCPUImpl.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::obs;

/// Checks that every value a thread loop uses is defined in it or outside all
/// thread loops: nothing a thread computed survives a barrier.
LogicalResult gpu_to_cpu::checkNoValueCrossesABarrier(func::FuncOp func) {
  WalkResult result = func.walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      Region *region = producer
                           ? producer->getParentRegion()
                           : cast<BlockArgument>(operand).getParentRegion();
      if (!region->isAncestor(op->getParentRegion())) {
        op->emitOpError() << "uses a value a thread computed before a "
                             "barrier; threads keep no values across "
                             "barriers";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Checks that `kernel` is one the CPU lowering can run: one block of x
/// threads, of a known count, cloned into a function before its gpu.module
/// is erased (other blocks or private attributions would be left pointing
/// into it); and an answer for every gpu and nvvm operation: ids and sizes,
/// block barriers, warp syncs and shuffles (exchanged at the shuffle, warp
/// by warp). Lane and subgroup ids and the like assume threads that run in
/// lockstep, which the CPU's loops over threads are not.
LogicalResult gpu_to_cpu::checkRunsOnCPU(gpu::GPUFuncOp kernel) {
  std::optional<ArrayRef<int32_t>> blockSize = kernel.getKnownBlockSize();
  if (!kernel.isKernel() || !blockSize)
    return kernel.emitOpError() << "needs known_block_size to run on the CPU";
  if ((*blockSize)[1] != 1 || (*blockSize)[2] != 1)
    return kernel.emitOpError() << "has a block of more than one dimension; "
                                   "the CPU lowering runs x threads only";
  if (!kernel.getBody().hasOneBlock())
    return kernel.emitOpError() << "has more than one block: the CPU "
                                   "lowering runs one block, split at its "
                                   "barriers";
  if (kernel.getNumPrivateAttributions())
    return kernel.emitOpError() << "has private attributions, which the CPU "
                                   "lowering does not allocate";
  WalkResult result = kernel.walk([&](Operation *op) {
    if (op == kernel.getOperation() ||
        isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::BarrierOp,
            gpu::ReturnOp, NVVM::SyncWarpOp, NVVM::ShflOp>(op) ||
        !isa_and_present<gpu::GPUDialect, NVVM::NVVMDialect>(op->getDialect()))
      return WalkResult::advance();
    auto gridDim = dyn_cast<gpu::GridDimOp>(op);
    if (!gridDim) {
      op->emitOpError() << "has no CPU lowering";
      return WalkResult::interrupt();
    }
    if (gridDim.getDimension() == gpu::Dimension::x &&
        !kernel.getKnownGridSize()) {
      op->emitOpError() << "needs the kernel's known_grid_size to run on the "
                           "CPU";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Checks that `launch` of `kernel` is one the CPU lowering can run: in
/// program order (the CPU runs each launch to completion where it stands,
/// so there is no token to give an async launch's users), over x blocks
/// only, and the way the block function assumes: each size a constant
/// equal to the kernel's known one. The block function runs
/// known_block_size threads and answers grid_dim from known_grid_size, so a
/// launch that disagreed would be run as some other launch (on a GPU the
/// disagreement is undefined behaviour).
LogicalResult gpu_to_cpu::checkLaunchRunsOnCPU(gpu::LaunchFuncOp launch,
                                               gpu::GPUFuncOp kernel) {
  if (launch.getAsyncToken())
    return launch.emitOpError() << "is async: the CPU lowering runs launches "
                                   "in program order and has no token to "
                                   "return";
  if (!matchPattern(launch.getGridSizeY(), m_One()) ||
      !matchPattern(launch.getGridSizeZ(), m_One()))
    return launch.emitOpError() << "has a grid of more than one dimension; "
                                   "the CPU lowering loops over x blocks only";
  auto checkSizes = [&](StringRef what, gpu::KernelDim3 sizes,
                        std::optional<ArrayRef<int32_t>> known,
                        StringRef knownName) -> LogicalResult {
    if (!known)
      return success();
    Value values[] = {sizes.x, sizes.y, sizes.z};
    // What the launch asks for, "?" where it is not a constant.
    SmallVector<std::string> asked;
    bool matches = true;
    for (auto [value, expected] : llvm::zip_equal(values, *known)) {
      APInt size;
      if (!matchPattern(value, m_ConstantInt(&size))) {
        asked.push_back("?");
        matches = false;
        continue;
      }
      asked.push_back(std::to_string(size.getSExtValue()));
      matches &= size.getSExtValue() == expected;
    }
    if (!matches)
      return launch.emitOpError()
             << "needs a constant " << what << " size equal to its kernel's "
             << knownName << " (" << llvm::interleaved(*known)
             << ") to run on the CPU, not (" << llvm::interleaved(asked) << ")";
    return success();
  };
  if (failed(checkSizes("block", launch.getBlockSizeOperandValues(),
                        kernel.getKnownBlockSize(), "known_block_size")))
    return failure();
  return checkSizes("grid", launch.getGridSizeOperandValues(),
                    kernel.getKnownGridSize(), "known_grid_size");
}
