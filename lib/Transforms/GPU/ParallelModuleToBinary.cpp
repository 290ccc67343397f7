//===- ParallelModuleToBinary.cpp - PTX for each kernel on its own thread -===//
//
// gpu-module-to-binary, with the PTX of a module's kernels compiled in
// parallel where they share nothing. See the pass's description in
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include <atomic>
#include <chrono>

namespace mlir::obs {
#define GEN_PASS_DEF_OBSGPUMODULETOBINARY
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {

using Object = SmallVector<char, 0>;

/// The top-level ops of `module` in parts, one per kernel, each with the
/// functions and globals the kernel reaches (what no kernel reaches goes
/// with the first); none when the module has fewer than two kernels or
/// its kernels share anything: a function or global two kernels reach, a
/// declaration (libdevice's functions are linked into each module that
/// declares them, and would then be defined twice), or an op that is no
/// symbol.
std::optional<SmallVector<SmallVector<Operation *>>>
partitionByKernel(gpu::GPUModuleOp module) {
  SymbolTable symbols(module);
  SmallVector<Operation *> kernels;
  for (Operation &op : module.getBody()->getOperations()) {
    auto function = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (function && function.isExternal())
      return std::nullopt;
    if (!isa<SymbolOpInterface>(op))
      return std::nullopt;
    if (op.hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
      kernels.push_back(&op);
  }
  if (kernels.size() < 2)
    return std::nullopt;
  DenseMap<Operation *, size_t> partOf;
  SmallVector<SmallVector<Operation *>> parts(kernels.size());
  for (auto [index, kernel] : llvm::enumerate(kernels)) {
    SmallVector<Operation *> worklist = {kernel};
    partOf[kernel] = index;
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(op);
      if (!uses)
        return std::nullopt;
      for (const SymbolTable::SymbolUse &use : *uses) {
        Operation *used = symbols.lookup(use.getSymbolRef().getRootReference());
        if (!used)
          continue; // Not the module's: an intrinsic or the host's.
        auto [it, inserted] = partOf.try_emplace(used, index);
        if (!inserted) {
          if (it->second != index)
            return std::nullopt; // Two kernels reach it.
          continue;
        }
        worklist.push_back(used);
      }
    }
  }
  // In module order within each part, as the whole module would print.
  for (Operation &op : module.getBody()->getOperations())
    parts[partOf.lookup(&op)].push_back(&op);
  return parts;
}

/// The PTX of `parts` as one: the first whole, the others after their
/// header (up to and including `.address_size`); none when the headers
/// differ. A terminating NUL, which the driver's loader wants, is kept at
/// the end only.
std::optional<Object> joinPTX(ArrayRef<Object> parts) {
  auto header = [](StringRef ptx) -> std::optional<size_t> {
    size_t at = ptx.find("\n.address_size");
    if (at == StringRef::npos)
      return std::nullopt;
    size_t end = ptx.find('\n', at + 1);
    return end == StringRef::npos ? ptx.size() : end + 1;
  };
  auto text = [](const Object &part) {
    StringRef ptx(part.data(), part.size());
    return ptx.rtrim('\0');
  };
  StringRef first = text(parts.front());
  std::optional<size_t> firstHeader = header(first);
  if (!firstHeader)
    return std::nullopt;
  Object joined(first.begin(), first.end());
  for (const Object &part : parts.drop_front()) {
    StringRef ptx = text(part);
    std::optional<size_t> end = header(ptx);
    if (!end || ptx.take_front(*end) != first.take_front(*firstHeader))
      return std::nullopt;
    joined.append(ptx.begin() + *end, ptx.end());
  }
  if (!parts.front().empty() && parts.front().back() == '\0')
    joined.push_back('\0');
  return joined;
}

struct ObsGPUModuleToBinaryPass
    : public obs::impl::ObsGPUModuleToBinaryBase<ObsGPUModuleToBinaryPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<gpu::CompilationTarget> compilationTarget =
        llvm::StringSwitch<std::optional<gpu::CompilationTarget>>(format)
            .Cases({"offloading", "llvm"}, gpu::CompilationTarget::Offload)
            .Cases({"assembly", "isa"}, gpu::CompilationTarget::Assembly)
            .Cases({"binary", "bin"}, gpu::CompilationTarget::Binary)
            .Cases({"fatbinary", "fatbin"}, gpu::CompilationTarget::Fatbin)
            .Default(std::nullopt);
    if (!compilationTarget) {
      emitError(getOperation().getLoc())
          << "obs-gpu-module-to-binary: unknown format '" << format
          << "' (llvm, isa, bin or fatbin)";
      return signalPassFailure();
    }
    // Upstream's serializer reports a toolkit that is not there as an error
    // and carries on, so that the pass succeeded after an error.
    if (!toolkit.empty() && !llvm::sys::fs::is_directory(toolkit)) {
      // At the module's location: the op itself, printed, would be the
      // whole program.
      emitError(getOperation().getLoc())
          << "obs-gpu-module-to-binary: the CUDA toolkit '" << toolkit
          << "' is not a directory";
      return signalPassFailure();
    }
    gpu::TargetOptions options(toolkit, /*librariesToLink=*/{},
                               /*cmdOptions=*/{}, /*elfSection=*/{},
                               *compilationTarget);
    // Upstream's serializer reports some failures as errors and carries on
    // (a toolkit without libdevice): an error makes the pass fail. Parts
    // are compiled on several threads.
    std::atomic<unsigned> errors = 0;
    ScopedDiagnosticHandler countErrors(&getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        ++errors;
      return failure(); // Reported on, as ever.
    });
    for (auto module : llvm::make_early_inc_range(
             getOperation().getBody()->getOps<gpu::GPUModuleOp>()))
      if (failed(serialize(module, options)) || errors)
        return signalPassFailure();
  }

  /// `module` as a gpu.binary of an object for each of its targets.
  LogicalResult serialize(gpu::GPUModuleOp module,
                          const gpu::TargetOptions &options) {
    if (!module.getTargetsAttr())
      return module.emitError("the module has no target attributes");
    std::optional<SmallVector<SmallVector<Operation *>>> parts;
    if (splitKernels &&
        options.getCompilationTarget() == gpu::CompilationTarget::Assembly)
      parts = partitionByKernel(module);
    SmallVector<Attribute> objects;
    for (Attribute attr : module.getTargetsAttr()) {
      auto target = cast<gpu::TargetAttrInterface>(attr);
      std::optional<Object> object;
      if (parts && isa<NVVM::NVVMTargetAttr>(attr)) {
        FailureOr<std::optional<Object>> joined =
            serializeByParts(module, target, *parts, options);
        if (failed(joined))
          return module.emitError(
              "An error happened while serializing the module.");
        object = std::move(*joined);
      }
      if (!object)
        object = target.serializeToObject(module, options);
      if (!object)
        return module.emitError(
            "An error happened while serializing the module.");
      Attribute created = target.createObject(module, *object, options);
      if (!created)
        return module.emitError("An error happened while creating the object.");
      objects.push_back(created);
    }
    OpBuilder builder(module);
    gpu::BinaryOp::create(
        builder, module.getLoc(), module.getName(),
        dyn_cast_or_null<gpu::OffloadingLLVMTranslationAttrInterface>(
            module.getOffloadingHandlerAttr()),
        builder.getArrayAttr(objects));
    module->erase();
    return success();
  }

  /// The PTX of `module` for `target`, each of `parts` compiled as a module
  /// of its own on the context's threads, joined; none when the parts'
  /// headers differ (the module is then compiled whole), failure when a
  /// part fails to compile (with its errors).
  FailureOr<std::optional<Object>>
  serializeByParts(gpu::GPUModuleOp module, gpu::TargetAttrInterface target,
                   ArrayRef<SmallVector<Operation *>> parts,
                   const gpu::TargetOptions &options) {
    // Each part is a copy of the module without the other parts' ops, in
    // a module of its own, as the whole one is in the program.
    OwningOpRef<ModuleOp> holder = ModuleOp::create(module.getLoc());
    SmallVector<gpu::GPUModuleOp> copies;
    for (const auto &part : parts) {
      IRMapping mapping;
      auto copy = cast<gpu::GPUModuleOp>(module->cloneWithoutRegions());
      holder->getBody()->push_back(copy);
      Block *body = new Block();
      copy.getBodyRegion().push_back(body);
      OpBuilder builder = OpBuilder::atBlockEnd(body);
      for (Operation *op : part)
        builder.clone(*op, mapping);
      copies.push_back(copy);
    }
    SmallVector<Object> objects(copies.size());
    auto start = std::chrono::steady_clock::now();
    if (failed(failableParallelForEach(
            &getContext(), llvm::seq<size_t>(0, copies.size()),
            [&](size_t index) -> LogicalResult {
              std::optional<Object> object =
                  target.serializeToObject(copies[index], options);
              if (!object)
                return failure();
              objects[index] = std::move(*object);
              return success();
            })))
      return failure();
    int64_t milliseconds =
        std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - start)
            .count();
    std::optional<Object> joined = joinPTX(objects);
    if (joined) {
      // What upstream's serializer records of the whole module (the object's
      // properties show it): here the wall time of all the parts.
      module->setAttr("LLVMIRToISATimeInMs",
                      Builder(&getContext()).getI64IntegerAttr(milliseconds));
      addToStatistic(*this, numModulesSplit, "modules-split");
      addToStatistic(*this, numParts, "parts", parts.size());
    }
    return {std::move(joined)};
  }
};

} // namespace
