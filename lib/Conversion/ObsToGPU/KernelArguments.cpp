//===- KernelArguments.cpp - what a kernel may assume of its pointers -----===//

#include "KernelArguments.h"
#include "Obs/Analysis/Allocations.h"
#include "Obs/Support/ByteSpan.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::obs;

void KernelArgumentFacts::recordLaunch(gpu::GPUFuncOp func,
                                       ValueRange operands) {
  SmallVector<Argument> &arguments = instances[func];
  arguments.resize(func.getNumArguments());
  SmallVector<std::optional<AllocationView>> views;
  for (Value operand : operands) {
    views.emplace_back();
    if (!isa<MemRefType>(operand.getType()))
      continue;
    FailureOr<AllocationView> view =
        followToAllocation(operand, /*user=*/nullptr, "");
    if (succeeded(view))
      views.back() = std::move(*view);
  }
  bool allFollowed = llvm::all_of(llvm::zip(operands, views), [](auto pair) {
    return !isa<MemRefType>(std::get<0>(pair).getType()) ||
           std::get<1>(pair).has_value();
  });
  for (auto [position, operand] : llvm::enumerate(operands)) {
    // A copy: a lambda below captures it (not a structured binding).
    size_t index = position;
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type)
      continue;
    Argument &argument = arguments[index];
    const std::optional<AllocationView> &view = views[index];
    if (!view) {
      argument.alignment =
          std::min<uint64_t>(argument.alignment, getElementBytes(type));
      argument.distinct = false;
      continue;
    }
    // The pointer a launch passes is the allocation's (a view's offset is
    // in the instance's own indexing), moved only by memref.view; every
    // host allocation is aligned before the launches are lowered
    // (alignHostAllocations).
    uint64_t alignment = getAllocationAlignment(view->root);
    if (uint64_t shift = static_cast<uint64_t>(view->baseBytes))
      alignment = std::min(alignment, shift & -shift);
    argument.alignment = std::min(argument.alignment, alignment);
    // Noalias holds only where no other pointer of the launch reaches the
    // same allocation (or may: one that could not be followed).
    bool shared =
        !allFollowed || llvm::any_of(llvm::enumerate(views), [&](auto other) {
          return other.index() != index && other.value() &&
                 other.value()->root == view->root;
        });
    argument.distinct &= !shared;
  }
}

void KernelArgumentFacts::annotate() {
  for (auto &[op, arguments] : instances) {
    auto func = cast<gpu::GPUFuncOp>(op);
    Builder builder(func.getContext());
    for (auto [index, argument] : llvm::enumerate(arguments)) {
      if (!isa<MemRefType>(func.getArgument(index).getType()) ||
          argument.alignment == ~uint64_t(0))
        continue;
      func.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                      builder.getI64IntegerAttr(argument.alignment));
      if (argument.distinct)
        func.setArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName(),
                        builder.getUnitAttr());
    }
  }
}

LogicalResult mlir::obs::addEntryChecks(ModuleOp module) {
  // The functions that launch kernels, and those that call them (directly
  // or through a func.constant, as the launch proof follows them).
  llvm::SetVector<Operation *> launching = getLaunchingFunctions(
      module, [](Operation *op) { return isa<gpu::LaunchFuncOp>(op); });
  MLIRContext *context = module.getContext();
  Type i64 = IntegerType::get(context, 64);
  func::FuncOp report;
  for (Operation *op : launching) {
    // Private ones too: the proof takes every launching function's memref
    // arguments as aligned (getAllocationAlignment), and a private helper
    // given a view 4 bytes into a buffer launched kernels whose pointers
    // claimed 16.
    auto func = dyn_cast<func::FuncOp>(op);
    if (!func || func.isExternal())
      continue;
    SmallVector<std::pair<int64_t, Value>> memrefs;
    for (BlockArgument argument : func.getArguments())
      if (isa<MemRefType>(argument.getType()))
        memrefs.push_back({argument.getArgNumber(), argument});
    if (memrefs.empty())
      continue;
    if (!report) {
      FailureOr<func::FuncOp> declared = getOrDeclareRuntimeFunction(
          module, kArgumentContractFunction,
          FunctionType::get(context, {i64, i64}, {}));
      if (failed(declared))
        return failure();
      report = *declared;
    }
    ImplicitLocOpBuilder b(func.getLoc(),
                           OpBuilder::atBlockBegin(&func.front()));
    // The first broken part of the contract, as (first, second), or
    // (-1, -1): one call.
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(b, value, 64);
    };
    SmallVector<RuntimeCheck> checks;
    Value zero = arith::ConstantIndexOp::create(b, 0);
    Value alignment = arith::ConstantIndexOp::create(b, kArgumentAlignment);
    SmallVector<ByteSpan> spans;
    for (auto [number, memref] : memrefs) {
      ByteSpan span = emitByteSpan(b, memref);
      spans.push_back(span);
      Value aligned = arith::CmpIOp::create(
          b, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(b, span.pointer, alignment), zero);
      checks.push_back({arith::OrIOp::create(b, aligned, span.empty),
                        {constant(number), constant(-1)}});
    }
    for (unsigned i = 0; i < memrefs.size(); ++i)
      for (unsigned j = i + 1; j < memrefs.size(); ++j)
        checks.push_back(
            {emitSpansApart(b, spans[i], spans[j]),
             {constant(memrefs[i].first), constant(memrefs[j].first)}});
    SmallVector<Value> broken =
        selectFirstFailure(b, b.getLoc(), checks, {constant(-1), constant(-1)});
    func::CallOp::create(b, report, broken);
  }
  return success();
}
