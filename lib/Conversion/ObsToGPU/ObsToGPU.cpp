//===- ObsToGPU.cpp - obs kernels and launches to the gpu dialect ---------===//
//
// The module-level conversion: every kernel gets a gpu.func per grid size it
// is launched with (Obs/KernelLowering/KernelLowering.h lowers each), every
// obs.launch becomes a gpu.launch_func of its instance, and every public
// kernel a host function of its name that launches its one-block instance.
//
//===----------------------------------------------------------------------===//

#include "KernelArguments.h"
#include "Obs/Analysis/Allocations.h"
#include "Obs/Conversion/Passes.h"
#include "Obs/Dialect/Obs/DefinedArithmetic.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/Statistics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::obs {
#define GEN_PASS_DEF_CONVERTOBSTOGPU
#include "Obs/Conversion/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

static constexpr StringLiteral kGPUModuleName = "obs_kernels";

/// The name of the instance of `kernel` for a grid of `grid` blocks: a PTX
/// identifier (letters, digits, `_` and `$`, not starting with a digit),
/// since it becomes a PTX `.entry` (a kernel may be called @"padd-2").
static std::string instanceName(StringRef kernel, int64_t grid) {
  std::string name = grid == 1 ? kernel.str()
                     : ShapedType::isDynamic(grid)
                         ? (kernel + "_any").str()
                         : (kernel + "_grid" + Twine(grid)).str();
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_' && c != '$')
      c = '_';
  if (name.empty() || llvm::isDigit(name.front()))
    name.insert(name.begin(), '_');
  return name;
}

/// The bytes of `func`'s workgroup buffers.
/// The shared memory the GPU's code of `func` takes: the buffers the cpu
/// target's scatter checks add are not in it.
static uint64_t sharedBytesOf(gpu::GPUFuncOp func) {
  uint64_t bytes = 0;
  StringAttr checks =
      ObsDialect::CheckedScatterAttrHelper(func.getContext()).getName();
  for (auto [index, buffer] : llvm::enumerate(func.getWorkgroupAttributions()))
    if (!func.getWorkgroupAttributionAttr(index, checks))
      bytes += getTotalBytes(cast<MemRefType>(buffer.getType()));
  return bytes;
}

/// Allocates the write counts a launch of `kernel` gives `func` for its
/// checked global scatters (see lowerKernelToGPUFunc), zeroed, one i32 per
/// place of the result's memref among `memrefs` (the launch's operands), as
/// the types `func` takes, and appends them to `operands`. Returns the
/// allocations, to free after the launch.
static SmallVector<Value>
allocateWriteCounts(OpBuilder &b, Location loc, KernelOp kernel,
                    gpu::GPUFuncOp func, ValueRange memrefs, bool runTimeChecks,
                    SmallVectorImpl<Value> &operands) {
  SmallVector<Value> allocations;
  if (!runTimeChecks)
    return allocations;
  SmallVector<unsigned> checked = getUncombinedGlobalResults(kernel);
  ArrayRef<Type> countTypes =
      func.getFunctionType().getInputs().slice(operands.size(), checked.size());
  SmallVector<LaunchOperandArray> operandArrays =
      getLaunchOperandArrays(kernel);
  for (auto [index, countType] : llvm::zip_equal(checked, countTypes)) {
    Value memref = memrefs[getFirstOperandOf(operandArrays,
                                             kernel.getNumArguments() + index)];
    auto type = cast<MemRefType>(countType);
    Value length = memref::DimOp::create(b, loc, memref, 0);
    Value counts;
    if (type.hasStaticShape() &&
        type.getDimSize(0) ==
            cast<MemRefType>(memref.getType()).getDimSize(0)) {
      auto allocation = memref::AllocOp::create(b, loc, type);
      allocation.setAlignment(kArgumentAlignment);
      counts = allocation;
      allocations.push_back(counts);
    } else {
      // A memref of the run-time length, as the instance's nominal type.
      auto allocation = memref::AllocOp::create(
          b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI32Type()),
          ValueRange{length});
      allocation.setAlignment(kArgumentAlignment);
      allocations.push_back(allocation);
      counts = memref::ReinterpretCastOp::create(b, loc, type, allocation,
                                                 /*offset=*/0, type.getShape(),
                                                 SmallVector<int64_t>{1});
    }
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
    auto clear =
        scf::ForOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, 0),
                           length, arith::ConstantIndexOp::create(b, loc, 1));
    OpBuilder body = OpBuilder::atBlockBegin(clear.getBody());
    memref::StoreOp::create(body, loc, zero, counts, clear.getInductionVar());
    operands.push_back(counts);
  }
  return allocations;
}

namespace {
struct ConvertObsToGPUPass
    : mlir::obs::impl::ConvertObsToGPUBase<ConvertObsToGPUPass> {
  using ConvertObsToGPUBase::ConvertObsToGPUBase;
  void runOnOperation() override;
};

/// The instances of a module's kernels in its gpu.module, and the launches
/// of them that replace its obs.launch ops and kernels.
class InstanceLowering {
public:
  InstanceLowering(gpu::GPUModuleOp gpuModule,
                   const GPULoweringCounters &counters,
                   std::function<ChangedElementsCache *(KernelOp)> cacheOf,
                   uint64_t maxSharedBytes, bool runTimeChecks,
                   bool guardEmptyGrids)
      : gpuModule(gpuModule), counters(counters), cacheOf(std::move(cacheOf)),
        maxSharedBytes(maxSharedBytes), runTimeChecks(runTimeChecks),
        guardEmptyGrids(guardEmptyGrids) {}

  /// The instance of `kernel` for each of its `grids`.
  LogicalResult lowerInstances(KernelOp kernel, ArrayRef<int64_t> grids);
  /// Replaces `launch` of `kernel` by a gpu.launch_func of its instance
  /// (one of its own where it has layouts or views at run-time places).
  LogicalResult lowerLaunch(LaunchOp launch, KernelOp kernel);
  /// Replaces the public `kernel` by a host function of its name that
  /// launches its one-block instance.
  void lowerToHostFunction(KernelOp kernel);
  /// Gives each instance's memref arguments the noalias and alignment every
  /// launch of it allows.
  void annotateArguments() { argumentFacts.annotate(); }

private:
  /// `kernel` lowered to a new gpu.func (see lowerKernelToGPUFunc), or an
  /// error where it fails or needs more shared memory than a block has.
  FailureOr<gpu::GPUFuncOp> lower(KernelOp kernel, StringRef name, int64_t grid,
                                  const KernelLayouts *layouts = nullptr,
                                  bool runTimeOffsets = false);
  /// The instance a launch with layouts gets: one per distinct kernel,
  /// grid, layouts and memref types.
  FailureOr<gpu::GPUFuncOp> laidOutInstance(LaunchOp launch, KernelOp kernel,
                                            ValueRange operands);
  /// A launch of `operands`, which are the launch's memrefs `memrefs` and
  /// what the instance takes with them (their lengths), with the write
  /// counts of its checked global scatters, then `offsets` (see
  /// lowerKernelToGPUFunc).
  void emitLaunch(OpBuilder &b, Location loc, KernelOp kernel,
                  gpu::GPUFuncOp func, Value grid, ValueRange memrefs,
                  ValueRange operands, ValueRange offsets = {});
  /// A launch whose sizes are known only at run time passes its memrefs as
  /// the instance's nominal types, then their lengths, and runs no block
  /// for a grid of 0 or less (which CUDA would refuse): guarded here, or
  /// by the runtime.
  void emitDynamicLaunch(LaunchOp launch, KernelOp kernel, gpu::GPUFuncOp func,
                         ValueRange memrefs, bool withOffsets);

  gpu::GPUModuleOp gpuModule;
  const GPULoweringCounters &counters;
  std::function<ChangedElementsCache *(KernelOp)> cacheOf;
  uint64_t maxSharedBytes;
  bool runTimeChecks, guardEmptyGrids;
  /// What every launch of an instance passes it, for its arguments'
  /// noalias and alignment.
  KernelArgumentFacts argumentFacts;
  /// Instances are found by kernel and grid, not by name: the names are
  /// only hints, renamed where taken (a kernel may be called k_grid4).
  llvm::DenseMap<std::pair<Operation *, int64_t>, gpu::GPUFuncOp> instances;
  /// Launches with sizes known only at run time that pass a view at a
  /// run-time place get an instance of their own per kernel, which takes
  /// every memref with its offset.
  llvm::DenseMap<Operation *, gpu::GPUFuncOp> offsetFuncs;
  /// Launches with layouts get instances of their own, one per distinct
  /// kernel, grid, layouts and memref types.
  llvm::DenseMap<std::tuple<Operation *, int64_t, Attribute, Type>,
                 gpu::GPUFuncOp>
      laidOutFuncs;
};
} // namespace

/// The grid a launch's instance is for: kDynamic for every launch whose
/// sizes are known only at run time (one instance serves them all).
static int64_t gridOf(LaunchOp launch) {
  return launch.hasDynamicSizes() ? ShapedType::kDynamic
                                  : *launch.getStaticGridSize();
}

/// Whether `launch` passes a memref at a place known only at run time, for
/// which its kernel has an instance that takes offsets.
static bool passesRunTimeOffsets(LaunchOp launch) {
  return llvm::any_of(launch->getOperandTypes(), [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && !memref.getLayout().isIdentity();
  });
}

/// The bytes of parameters `func` takes in PTX: a memref is one pointer (the
/// bare-pointer convention), an index 64 bits (at most: obs-gpu-index-width
/// may narrow it later), each aligned to its size.
static uint64_t getParameterBytes(gpu::GPUFuncOp func) {
  uint64_t bytes = 0;
  for (Type type : func.getArgumentTypes()) {
    uint64_t size = 8;
    if (type.isIntOrFloat())
      size = std::max<uint64_t>(
          1, llvm::divideCeil(type.getIntOrFloatBitWidth(), 8));
    bytes = llvm::alignTo(bytes, size) + size;
  }
  return bytes;
}

FailureOr<gpu::GPUFuncOp> InstanceLowering::lower(KernelOp kernel,
                                                  StringRef name, int64_t grid,
                                                  const KernelLayouts *layouts,
                                                  bool runTimeOffsets) {
  FailureOr<gpu::GPUFuncOp> func = lowerKernelToGPUFunc(
      kernel, gpuModule, name, grid, counters, cacheOf(kernel), layouts,
      runTimeChecks, runTimeOffsets);
  if (failed(func) ||
      failed(kernel.checkSharedMemory(sharedBytesOf(*func), maxSharedBytes)))
    return failure();
  // A GPU refuses to load a kernel whose parameters are more than PTX
  // allows (ptxas: "uses too much parameter space"): found by an
  // adversarial run, a device_map of 140 inputs and 140 outputs accepted
  // and run on ref and cpu.
  uint64_t parameterBytes = getParameterBytes(*func);
  if (parameterBytes > KernelOp::kMaxParameterBytes) {
    tagError(kernel.emitOpError()
                 << "@" << kernel.getSymName() << " takes " << parameterBytes
                 << " bytes of parameters in " << func->getNumArguments()
                 << " (pointers, lengths and scalars), more than the "
                 << KernelOp::kMaxParameterBytes
                 << " a kernel may take: give it fewer arrays or scalars",
             ErrorKind::CompilerLimit);
    return failure();
  }
  return func;
}

LogicalResult InstanceLowering::lowerInstances(KernelOp kernel,
                                               ArrayRef<int64_t> grids) {
  for (int64_t grid : grids) {
    FailureOr<gpu::GPUFuncOp> func =
        lower(kernel, instanceName(kernel.getSymName(), grid), grid);
    if (failed(func))
      return failure();
    instances[{kernel, grid}] = *func;
  }
  return success();
}

void InstanceLowering::emitLaunch(OpBuilder &b, Location loc, KernelOp kernel,
                                  gpu::GPUFuncOp func, Value grid,
                                  ValueRange memrefs, ValueRange operands,
                                  ValueRange offsets) {
  uint64_t threads = kernel.getBlockThreads();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  SmallVector<Value> allOperands(operands);
  SmallVector<Value> counts = allocateWriteCounts(b, loc, kernel, func, memrefs,
                                                  runTimeChecks, allOperands);
  allOperands.append(offsets.begin(), offsets.end());
  argumentFacts.recordLaunch(func, allOperands);
  Value one = constant(1);
  gpu::LaunchFuncOp::create(b, loc, func, gpu::KernelDim3{grid, one, one},
                            gpu::KernelDim3{constant(threads), one, one},
                            /*dynamicSharedMemorySize=*/Value(), allOperands);
  for (Value allocation : counts)
    memref::DeallocOp::create(b, loc, allocation);
}

void InstanceLowering::emitDynamicLaunch(LaunchOp launch, KernelOp kernel,
                                         gpu::GPUFuncOp func,
                                         ValueRange memrefs, bool withOffsets) {
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  SmallVector<Value> operands, lengths;
  // The nominal type reinterprets the memref's row-major layout from its
  // base (a cast between two static lengths is not a memref.cast); an
  // instance that takes offsets gets each one after all else.
  SmallVector<Value> offsets;
  for (auto [memref, type] :
       llvm::zip_first(memrefs, func.getFunctionType().getInputs())) {
    auto nominal = cast<MemRefType>(type);
    SmallVector<int64_t> strides(nominal.getRank(), 1);
    for (int64_t d = nominal.getRank() - 1; d > 0; --d)
      strides[d - 1] = strides[d] * nominal.getDimSize(d);
    operands.push_back(memref::ReinterpretCastOp::create(
        b, loc, nominal, memref, /*offset=*/0, nominal.getShape(), strides));
    lengths.push_back(memref::DimOp::create(b, loc, memref, 0));
    if (withOffsets)
      offsets.push_back(
          memref::ExtractStridedMetadataOp::create(b, loc, memref).getOffset());
  }
  operands.append(lengths);
  Value grid = launch.buildGridSize(b);
  if (!guardEmptyGrids) {
    emitLaunch(b, loc, kernel, func, grid, memrefs, operands, offsets);
    return;
  }
  Value positive =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, grid,
                            arith::ConstantIndexOp::create(b, loc, 0));
  auto ifAny = scf::IfOp::create(b, loc, positive, /*withElseRegion=*/false);
  OpBuilder then = ifAny.getThenBodyBuilder();
  emitLaunch(then, loc, kernel, func, grid, memrefs, operands, offsets);
}

FailureOr<gpu::GPUFuncOp>
InstanceLowering::laidOutInstance(LaunchOp launch, KernelOp kernel,
                                  ValueRange operands) {
  int64_t grid = *launch.getStaticGridSize();
  SmallVector<Type> memrefTypes(operands.getTypes());
  auto key = std::make_tuple(
      kernel.getOperation(), grid, Attribute(launch.getLayoutsAttr()),
      Type(FunctionType::get(launch.getContext(), memrefTypes, {})));
  gpu::GPUFuncOp &instance = laidOutFuncs[key];
  if (instance)
    return instance;
  std::string name = instanceName(kernel.getSymName(), grid) + "_layout" +
                     std::to_string(laidOutFuncs.size() - 1);
  // The layouts of an array's memrefs agree; take the first of each.
  KernelLayouts layouts;
  layouts.memrefTypes = memrefTypes;
  SmallVector<AffineMap> perMemref = launch.getLayoutsOrChunks(kernel);
  for (auto [memref, operand] : llvm::enumerate(getLaunchOperandArrays(kernel)))
    if (operand.component == 0)
      layouts.arrays.push_back(perMemref[memref]);
  FailureOr<gpu::GPUFuncOp> laidOut = lower(kernel, name, grid, &layouts);
  if (failed(laidOut))
    return failure();
  instance = *laidOut;
  return instance;
}

LogicalResult InstanceLowering::lowerLaunch(LaunchOp launch, KernelOp kernel) {
  SmallVector<Value> operands(launch.getInputs());
  llvm::append_range(operands, launch.getOutputs());
  gpu::GPUFuncOp func = instances.lookup({kernel, gridOf(launch)});
  if (launch.hasDynamicSizes()) {
    // Views at run-time places get the instance that takes offsets.
    bool withOffsets = passesRunTimeOffsets(launch);
    if (withOffsets) {
      gpu::GPUFuncOp &instance = offsetFuncs[kernel];
      if (!instance) {
        FailureOr<gpu::GPUFuncOp> lowered =
            lower(kernel,
                  instanceName(kernel.getSymName(), ShapedType::kDynamic) +
                      "_offsets",
                  ShapedType::kDynamic, /*layouts=*/nullptr,
                  /*runTimeOffsets=*/true);
        if (failed(lowered))
          return failure();
        instance = *lowered;
      }
      func = instance;
    }
    emitDynamicLaunch(launch, kernel, func, operands, withOffsets);
    launch.erase();
    return success();
  }
  int64_t grid = *launch.getStaticGridSize();
  if (launch.getLayoutsAttr()) {
    FailureOr<gpu::GPUFuncOp> laidOut =
        laidOutInstance(launch, kernel, operands);
    if (failed(laidOut))
      return failure();
    func = *laidOut;
  }
  OpBuilder b(launch);
  emitLaunch(b, launch.getLoc(), kernel, func,
             arith::ConstantIndexOp::create(b, launch.getLoc(), grid), operands,
             operands);
  launch.erase();
  return success();
}

void InstanceLowering::lowerToHostFunction(KernelOp kernel) {
  gpu::GPUFuncOp func = instances.lookup({kernel, 1});
  OpBuilder builder(kernel);
  // It takes the kernel's memrefs; the launch adds the write counts.
  auto host = func::FuncOp::create(
      builder, kernel.getLoc(), kernel.getSymName().str() + ".host",
      builder.getFunctionType(func.getFunctionType().getInputs().take_front(
                                  getLaunchOperandArrays(kernel).size()),
                              {}));
  Block *entry = host.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  emitLaunch(b, kernel.getLoc(), kernel, func,
             arith::ConstantIndexOp::create(b, kernel.getLoc(), 1),
             entry->getArguments(), entry->getArguments());
  func::ReturnOp::create(b, kernel.getLoc());
  StringAttr name = kernel.getSymNameAttr();
  kernel.erase();
  host.setSymNameAttr(name);
}

/// Aligns every allocation of `module`'s host functions to
/// kArgumentAlignment. A launching function checks as it starts that its
/// memref arguments are (addEntryChecks), and its kernels' pointers are
/// annotated so (KernelArgumentFacts, which reads the allocations'
/// alignment): an allocation that reached it through a call kept its
/// element's alignment (an alloca of i32, 4), and the stack gave 16 or not
/// (an adversarial run: refused on cpu, run on ref).
static void alignHostAllocations(ModuleOp module) {
  auto align = [](auto allocation) {
    if (allocation.getAlignment().value_or(0) < kArgumentAlignment)
      allocation.setAlignment(kArgumentAlignment);
  };
  for (auto function : module.getOps<func::FuncOp>())
    function.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        align(alloc);
      else if (auto alloca = dyn_cast<memref::AllocaOp>(op))
        align(alloca);
    });
}

/// Why obs cannot give `op`, in a gpu.func written by hand, one meaning on
/// every target; empty where it can. What element code refuses for its
/// types or name (bf16 rounded twice on cpu, a 16-bit fma rounded twice in
/// the PTX, an i64 fpowi exponent passed to libdevice as 0, a rounding mode
/// no lowering honours, math no target lowers); raw llvm and index ops,
/// which host code refuses too (an llvm.sdiv by zero raised SIGFPE on cpu);
/// and the ops obs defines on scalars only, on vectors (a vector divided by
/// zero: zeros on cpu, no store in the PTX). Found by a hunt.
static std::string whyNotDefined(Operation *op) {
  if (std::string unportable = findUnportableOp(op); !unportable.empty())
    return unportable;
  if (std::string undefined = findUndefinedView(op); !undefined.empty())
    return undefined;
  for (Type type : op->getResultTypes())
    if (std::string inexact = findInexactMemRef(type); !inexact.empty())
      return "it makes a memref that " + inexact;
  StringRef dialect =
      op->isRegistered() ? op->getDialect()->getNamespace() : "";
  if (dialect == "llvm" || dialect == "index")
    return "obs gives arith's and math's ops one meaning on every target, "
           "not the " +
           dialect.str() + " dialect's; write it with those";
  bool onVectors =
      llvm::any_of(op->getOperandTypes(), llvm::IsaPred<VectorType>) ||
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<VectorType>);
  if (onVectors && hasDefinedMeaning(op))
    return "obs defines it on scalars (a division by zero, a shift by the "
           "width, a conversion out of range), not on vectors; compute "
           "element by element";
  return "";
}

/// Gives the functions written by hand in `module`'s gpu.modules (gpu.funcs,
/// and the func.funcs they call, which cuda compiles) the
/// meaning obs gives element code and host code, as its own kernels have by
/// construction, and refuses what it cannot give one meaning (whyNotDefined).
/// A loop whose counter would step past its type's largest value ends
/// there (MLIR's `lb <= iv < ub`), where upstream's lowering wrapped it (an
/// i8 loop from 0 to 120 by 100 ran 14 times on cpu and in the PTX, and one
/// to 250 forever); a switch compares whole indices, where upstream's
/// compared them in i32; shifts by the width or more, divisions by zero,
/// out-of-range conversions and scalar poison have one answer on every target,
/// where LLVM's freedom made cpu and the PTX differ (hunts 28 and 29). They
/// are rewritten once, here, where every gpu.func is still the user's
/// (obs's own are made after, in a gpu.module of their own).
static LogicalResult defineHandWrittenKernels(ModuleOp module) {
  bool refused = false;
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    for (auto function : gpuModule.getOps<FunctionOpInterface>()) {
      if (function.isExternal())
        continue;
      SmallVector<Type> memrefs(function.getArgumentTypes());
      if (auto kernel = dyn_cast<gpu::GPUFuncOp>(function.getOperation())) {
        for (BlockArgument buffer : kernel.getWorkgroupAttributions())
          memrefs.push_back(buffer.getType());
        for (BlockArgument buffer : kernel.getPrivateAttributions())
          memrefs.push_back(buffer.getType());
      }
      for (auto [index, type] : llvm::enumerate(memrefs))
        if (std::string why = findInexactMemRef(type); !why.empty()) {
          tagError(function->emitOpError()
                       << "cannot be compiled by obs: its argument or buffer "
                       << index << " is a memref that " << why,
                   ErrorKind::UnsafeProgram);
          refused = true;
        }
      SmallVector<Operation *> ops;
      function->walk([&](Operation *op) {
        if (op == function.getOperation())
          return;
        ops.push_back(op);
        if (std::string why = whyNotDefined(op); !why.empty()) {
          tagError(op->emitOpError()
                       << "cannot be in a kernel obs compiles: " << why,
                   ErrorKind::UnsafeProgram);
          refused = true;
        }
      });
      if (refused)
        continue;
      for (Operation *op : ops)
        defineOp(op, /*divisorChecked=*/false);
    }
  return failure(refused);
}

void ConvertObsToGPUPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  if (failed(verifyDeviceExpanded(module)))
    return signalPassFailure();
  auto launches = collectLaunchesOfKernelsIn(module);
  if (failed(launches))
    return signalPassFailure();
  if (failed(defineHandWrittenKernels(module)))
    return signalPassFailure();
  SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
  if (kernels.empty())
    return;
  alignHostAllocations(module);

  // The grid sizes each kernel is launched with; every public kernel also
  // gets a one-block instance, which its host function launches.
  llvm::MapVector<Operation *, llvm::SetVector<int64_t>> grids;
  for (KernelOp kernel : kernels)
    if (!kernel.isPrivate())
      grids[kernel].insert(1);
  // A launch that passes run-time offsets, or has layouts, gets an
  // instance of its own, made as it is lowered: no plain instance is made
  // for it.
  for (auto [launch, kernel] : *launches) {
    llvm::SetVector<int64_t> &kernelGrids = grids[kernel];
    if (!passesRunTimeOffsets(launch) && !launch.getLayoutsAttr())
      kernelGrids.insert(gridOf(launch));
  }

  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module.getBody());
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  builder.getUnitAttr());
  // Renamed when the module already has a symbol of that name (a kernel
  // may be called obs_kernels).
  SymbolTable symbols(module);
  auto gpuModule =
      gpu::GPUModuleOp::create(builder, module.getLoc(), kGPUModuleName);
  symbols.insert(gpuModule);
  GPULoweringCounters counters{
      [&] { addToStatistic(*this, numStages, "stages"); },
      [&] { addToStatistic(*this, numBlockBarriers, "block-barriers"); },
      [&] { addToStatistic(*this, numWarpBarriers, "warp-barriers"); },
      [&](uint64_t bytes) {
        addToStatistic(*this, numSharedBytes, "shared-bytes", bytes);
      }};
  counters.registerStage = [&] {
    addToStatistic(*this, numRegisterStages, "register-stages");
  };
  counters.shuffleStage = [&] {
    addToStatistic(*this, numShuffleStages, "shuffle-stages");
  };

  InstanceLowering lowering(
      gpuModule, counters,
      [&](KernelOp kernel) {
        return &getChildAnalysis<ChangedElementsCache>(kernel);
      },
      maxSharedBytes, runTimeChecks, guardEmptyGrids);
  for (auto &[op, gridSizes] : grids) {
    if (failed(lowering.lowerInstances(cast<KernelOp>(op),
                                       gridSizes.getArrayRef())))
      return signalPassFailure();
    addToStatistic(*this, numKernels, "kernels");
  }
  for (auto [launch, kernel] : *launches)
    if (failed(lowering.lowerLaunch(launch, kernel)))
      return signalPassFailure();
  for (KernelOp kernel : kernels) {
    // A private kernel runs only where it is launched.
    if (kernel.isPrivate())
      kernel.erase();
    else
      lowering.lowerToHostFunction(kernel);
  }
  lowering.annotateArguments();
  if (failed(addEntryChecks(module)))
    return signalPassFailure();
}
