//===- Pipelines.cpp - obs pass pipelines ---------------------------------===//

#include "Obs/Pipelines/Pipelines.h"
#include "Obs/Conversion/Passes.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/Chips.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

/// scf-to-cf without the conversion driver's rollback. Its patterns never
/// fail once they have changed the IR, so nothing is lost; and the
/// rollback's record of every op each scf.if's block split moved made the
/// conversion quadratic in a block's ops: 0.55 s of the merge sort's
/// lowering, 0.05 s without it, the output the same.
static std::unique_ptr<Pass> createSCFToControlFlow() {
  SCFToControlFlowPassOptions options;
  options.allowPatternRollback = false;
  return createSCFToControlFlowPass(options);
}

void mlir::obs::buildHostToLLVMPipeline(OpPassManager &pm) {
  // Host code only: kernels' element code lowered as host code would no
  // longer be element code.
  pm.addPass(createObsVerifyHostCode());
  // Before LLVM's lowering of floordivsi, which is wrong above 64 bits.
  pm.addPass(createObsExpandRoundedDivisions());
  // Functions named like the C library's take names of their own before
  // anything declares the library's or LLVM sees them.
  pm.addPass(createObsRenameLibrarySymbols());
  // memref.realloc, which no conversion to LLVM takes, as alloc, copy and
  // dealloc.
  pm.addPass(memref::createExpandReallocPass());
  pm.addPass(createSoundCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Views a host function makes (subview, expand_shape, collapse_shape,
  // reinterpret_cast) become their offsets and strides, computed by affine
  // maps, before memrefs become LLVM structs.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlow());
  // The host functions' checks (obs-check-host-code) call the runner's
  // report where they fail, once their loops are branches.
  pm.addPass(createObsLowerHostChecks());
  // Identical blocks are merged here, where their new arguments are still
  // memrefs that the conversions below take: gpu-to-llvm's own greedy
  // rewrite, after the host code is LLVM, merged an scf.if's branches that
  // launch one kernel on different memrefs into an llvm.cond_br passing
  // memrefs, which nothing converted (an adversarial run; cuda only).
  pm.addPass(createSoundCanonicalizerPass());
  // expm1 and log1p through libm: convert-math-to-llvm loses their
  // precision where they have it.
  pm.addPass(createObsPreciseMathToLibm());
  pm.addPass(createConvertMathToLLVMPass());
  // What LLVM has no intrinsic for (erf, erfc, acosh, asinh, atanh, cbrt)
  // calls the C library, which the JIT resolves; a GPU's kernels take
  // libdevice's instead.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  // Allocations through the runner's functions, which track them: a
  // dealloc of memory the code did not allocate is then one line, not a
  // crash (Runner/Target.h, RuntimeReports::unknownFree).
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  // Host functions take MLIR's memref descriptors, which carry the sizes of
  // memrefs known only at run time (kernels keep bare pointers).
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::obs::buildReferencePipeline(OpPassManager &pm) {
  // The oracle runs kernels as written, but only kernels that the GPU
  // targets would run without a race: they are proved as they would be
  // there, on a copy, and nothing is changed. Element code means what it
  // means on every target before anything folds. Host functions check
  // their accesses as they run, as written.
  pm.addPass(createObsCheckHostCode());
  pm.addPass(createObsDefineElementCode());
  pm.addPass(createObsExpandDevice());
  pm.addPass(createObsDeduplicateKernels());
  // A scan or reduce without a network takes the serial network on the GPU
  // targets; the oracle is told so, and computes it in that order itself.
  ObsExpandNetworksOptions markDefaults;
  markDefaults.markDefaults = true;
  pm.addNestedPass<KernelOp>(createObsExpandNetworks(markDefaults));
  // A kernel the GPU targets accept as they refine it by default is
  // accepted here too (a written claim that holds under the work
  // assignment obs-optimize chooses).
  pm.addPass(createObsVerifyReference([](OpPassManager &refinement) {
    buildOptimizePipeline(refinement, OptimizePipelineOptions());
  }));
  // What the proof takes as given about the memrefs and grids launches are
  // given, checked as the program runs.
  pm.addPass(createObsCheckLaunches());
  pm.addPass(createObsLowerReference());
  buildHostToLLVMPipeline(pm);
}

std::pair<StringRef, StringRef>
mlir::obs::describeRefinementPass(RefinementPass pass) {
  switch (pass) {
  case RefinementPass::AssignWork:
    return {"assign-work", "obs-assign-work"};
  case RefinementPass::PromoteRegisters:
    return {"promote-registers", "obs-promote-registers"};
  case RefinementPass::InPlace:
    return {"inplace", "obs-inplace"};
  case RefinementPass::PlanShared:
    return {"plan-shared", "obs-plan-shared"};
  case RefinementPass::ElideWarpSyncs:
    return {"elide-warp-syncs", "obs-elide-warp-syncs"};
  case RefinementPass::None:
    return {"none", "no refinement: the kernel as written"};
  }
  llvm_unreachable("a refinement pass");
}

void mlir::obs::buildOptimizePipeline(OpPassManager &pm,
                                      const OptimizePipelineOptions &options) {
  // The host functions' accesses as written, before obs adds host code of
  // its own.
  pm.addPass(createObsCheckHostCode());
  // Element code's meaning, before anything folds it.
  pm.addPass(createObsDefineElementCode());
  // Device-level ops become kernels, which are refined like any other.
  pm.addPass(createObsExpandDevice());
  // What launches in place require of the kernels they launch, for the
  // refinements to keep.
  pm.addPass(createObsCollectLaunchOverlaps());
  // Kernels identical but for their names (two functions' expansions of
  // one device op) are refined and proved once. After the overlaps, which
  // are part of what must be identical.
  pm.addPass(createObsDeduplicateKernels());
  OpPassManager &kernels = pm.nest<KernelOp>();
  kernels.addPass(createObsExpandNetworks());
  kernels.addPass(createObsFlatten());
  // The laws simplify what flattening builds (segment views of segment
  // views), which every simulation below then runs through.
  kernels.addPass(createSoundCanonicalizerPass());
  auto wanted = [&](RefinementPass pass) {
    return options.passes.empty() || llvm::is_contained(options.passes, pass);
  };
  // Registers once the work is dealt out (they depend on who computes
  // what), before anything about buffers and barriers is decided: an array
  // in registers has neither. In place and the shared-memory plan before
  // warp scopes: they decide which thread writes what where, and the
  // scopes are then chosen for the layout that runs. The plan reuses
  // memory across block barriers, so it must see them before any is
  // downgraded; the elision then keeps those that a reuse needs.
  // With the cost strategy, obs-assign-work refines each strategy's copy
  // and keeps the chosen one refined: registers and in place are made
  // there, not again after it.
  bool refinedByAssignment = wanted(RefinementPass::AssignWork) &&
                             options.strategy == WorkStrategy::Cost;
  if (wanted(RefinementPass::AssignWork)) {
    ObsAssignWorkOptions assignOptions;
    assignOptions.threads = options.threads;
    assignOptions.strategy = options.strategy;
    // Each strategy's copy is refined by the passes that change most
    // between strategies: registers and shuffles, and in place (which
    // compact deals out for). Warp scopes and the shared-memory plan are
    // left out: they cost the most compile time (obs-elide-warp-syncs
    // tries each sync), and they rank the strategies of the seed and
    // example kernels as the two do (bench/run's cost rows).
    for (RefinementPass later :
         {RefinementPass::PromoteRegisters, RefinementPass::InPlace})
      if (wanted(later))
        assignOptions.refineWith.push_back(
            describeRefinementPass(later).first.str());
    assignOptions.keepRefined = refinedByAssignment;
    kernels.addPass(createObsAssignWork(assignOptions));
  }
  if (!refinedByAssignment && wanted(RefinementPass::PromoteRegisters))
    kernels.addPass(createObsPromoteRegisters());
  if (!refinedByAssignment && wanted(RefinementPass::InPlace))
    kernels.addPass(createObsInPlace());
  if (wanted(RefinementPass::PlanShared))
    kernels.addPass(createObsPlanShared());
  if (wanted(RefinementPass::ElideWarpSyncs))
    kernels.addPass(createObsElideWarpSyncs());
  kernels.addPass(createObsVerifySync());
}

void mlir::obs::buildKernelsToGPUPipeline(OpPassManager &pm,
                                          bool recordLaunches,
                                          bool guardEmptyGrids,
                                          bool runTimeChecks) {
  // Nothing left to do after obs-optimize, which does all three first.
  pm.addPass(createObsCheckHostCode());
  pm.addPass(createObsDefineElementCode());
  pm.addPass(createObsExpandDevice());
  pm.addPass(createObsDeduplicateKernels());
  OpPassManager &kernels = pm.nest<KernelOp>();
  kernels.addPass(createObsExpandNetworks());
  kernels.addPass(createObsFlatten());
  kernels.addPass(createObsVerifySync());
  // The launch proof simulates the kernels it launches: flat ones.
  pm.addPass(createObsVerifyLaunches());
  // The cpu target runs every grid it is given; cuda refuses those past a
  // GPU's as it launches (see obs-check-launches).
  ObsCheckLaunchesOptions checkOptions;
  checkOptions.checkGrids = runTimeChecks;
  pm.addPass(createObsCheckLaunches(checkOptions));
  if (recordLaunches)
    pm.addPass(createObsRecordLaunches());
  ConvertObsToGPUOptions gpuOptions;
  gpuOptions.guardEmptyGrids = guardEmptyGrids;
  gpuOptions.runTimeChecks = runTimeChecks;
  pm.addPass(createConvertObsToGPU(gpuOptions));
  // Specialise the element code per thread and round: fold what the thread
  // id's range decides (fan's `i < N/2` under strided<256>), then share the
  // index arithmetic. Bottom-up: on fused element code (tens of thousands
  // of ops of index arithmetic under nested scf.if) the default top-down
  // walk takes several times as long to reach the same fixpoint.
  // Each kernel and host function on its own, so that a module's kernels
  // are specialised on the context's threads at once: every function is
  // isolated from above, so canonicalization and CSE do the same there, and
  // the range analysis reads a kernel's thread ids from its own attributes.
  // Before the range analysis, which gives ceildivsi of the least integer
  // the wrong sign.
  pm.addPass(createObsExpandRoundedDivisions());
  GreedyRewriteConfig bottomUp;
  bottomUp.setUseTopDownTraversal(false);
  auto specialise = [&](OpPassManager &functions) {
    functions.addPass(createSoundCanonicalizerPass(bottomUp));
    functions.addPass(createCSEPass());
    functions.addPass(createObsIntRangeOptimizations());
    functions.addPass(createSoundCanonicalizerPass(bottomUp));
    functions.addPass(createCSEPass());
  };
  specialise(pm.nest<gpu::GPUModuleOp>().nest<gpu::GPUFuncOp>());
  specialise(pm.nest<func::FuncOp>());
  // Now that equal shuffles have the same operands.
  pm.addNestedPass<gpu::GPUModuleOp>(createObsMergeShuffles());
}

void mlir::obs::buildCPUPipeline(OpPassManager &pm,
                                 const CPUPipelineOptions &options) {
  buildKernelsToGPUPipeline(pm, options.recordLaunches,
                            /*guardEmptyGrids=*/true, /*runTimeChecks=*/true);
  ObsGPUToCPUOptions cpuOptions;
  cpuOptions.order = options.order;
  cpuOptions.seed = options.seed;
  cpuOptions.blockOrder = options.blockOrder;
  cpuOptions.blockSeed = options.blockSeed;
  cpuOptions.runTimeOrders = options.runTimeOrders;
  pm.addPass(createObsGPUToCPU(cpuOptions));
  buildHostToLLVMPipeline(pm);
}

std::string mlir::obs::getPTXFeatures(StringRef chip) {
  // Without a PTX version, NVPTX uses the lowest one the chip needs (6.0
  // for sm_70, 7.8 for sm_90, 8.6 for sm_100), so the PTX loads on the
  // oldest driver that knows the chip. Warp barriers (bar.warp.sync) need
  // PTX 6.0, which chips before sm_70 do not imply.
  std::optional<unsigned> number = getChipNumber(chip);
  if (number && *number < 70)
    return "+ptx60";
  return "";
}

llvm::Error mlir::obs::checkChip(StringRef chip) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("no NVPTX target in this LLVM: " + error);
  // Made for no CPU in particular: made for an unknown one, it would warn.
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!info || !info->isCPUStringValid(chip))
    return llvm::createStringError("unknown chip '" + chip +
                                   "': expected an NVPTX architecture such "
                                   "as sm_80, sm_90 or sm_100");
  std::optional<unsigned> version = getChipNumber(chip);
  if (!version || *version < kOldestChip)
    return llvm::createStringError(
        "chip '" + chip +
        "' is older than obs's kernels need: they synchronise warps "
        "(bar.warp.sync), from sm_" +
        llvm::Twine(kOldestChip));
  return llvm::Error::success();
}

void mlir::obs::buildPTXPipeline(OpPassManager &pm,
                                 const PTXPipelineOptions &options) {
  buildKernelsToGPUPipeline(pm, options.recordLaunches,
                            options.guardEmptyGrids);
  // Host code's memory on the device, its work on one stream per function.
  pm.addPass(createObsHostMemoryToGPU());
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addPass(createObsHostSharedAllocsToGPU());
  // While the loops are still scf.for, whose bounds the range analysis
  // reads.
  pm.addNestedPass<gpu::GPUModuleOp>(createObsGPUIndexWidth());
  pm.addNestedPass<gpu::GPUModuleOp>(createSCFToControlFlow());
  // Before libdevice's approximate square roots are chosen for them.
  pm.addNestedPass<gpu::GPUModuleOp>(createObsPreciseGPUMath());
  ConvertGpuOpsToNVVMOpsOptions nvvmOptions;
  nvvmOptions.useBarePtrCallConv = true;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(nvvmOptions));
  pm.addNestedPass<gpu::GPUModuleOp>(createSoundCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  // After canonicalization, which takes the memref descriptors apart: an
  // atomic's pointer is then a kernel argument's element. obs's atomics
  // are scatters' merges, which barriers order.
  ObsNVVMReductionsOptions reductionOptions;
  reductionOptions.relaxOrderings = true;
  reductionOptions.chip = options.chip;
  pm.addNestedPass<gpu::GPUModuleOp>(createObsNVVMReductions(reductionOptions));
  // A warp's butterfly fold (the serial reduce network's) as one redux.sync.
  ObsNVVMWarpReductionsOptions warpReductionOptions;
  warpReductionOptions.chip = options.chip;
  pm.addNestedPass<gpu::GPUModuleOp>(
      createObsNVVMWarpReductions(warpReductionOptions));
  GpuNVVMAttachTargetOptions targetOptions;
  targetOptions.chip = options.chip;
  targetOptions.features = getPTXFeatures(options.chip);
  targetOptions.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(targetOptions));
  buildHostToLLVMPipeline(pm);
  GpuToLLVMConversionPassOptions launchOptions;
  launchOptions.kernelBarePtrCallConv = true;
  pm.addPass(createGpuToLLVMConversionPass(launchOptions));
  // The translation of each launch puts its parameters on the stack where
  // the launch is: in a host loop, once per iteration.
  pm.addPass(createObsScopeLaunchParameters());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (!options.serialize)
    return;
  // Upstream's gpu-module-to-binary, with each kernel's PTX compiled on a
  // thread of its own where the kernels share nothing.
  ObsGPUModuleToBinaryOptions binaryOptions;
  binaryOptions.format = options.format;
  // Without a toolkit given, the one obs was configured with, where it is
  // installed: libdevice (the math functions) and ptxas come from it, and
  // PTX text needs neither otherwise. One given must be there.
  binaryOptions.toolkit = options.toolkit;
  if (binaryOptions.toolkit.empty() &&
      llvm::sys::fs::is_directory(OBS_CUDA_TOOLKIT_PATH))
    binaryOptions.toolkit = OBS_CUDA_TOOLKIT_PATH;
  pm.addPass(createObsGPUModuleToBinary(binaryOptions));
}

void mlir::obs::registerPipelines() {
  PassPipelineRegistration<>(
      "obs-reference",
      "The ref target: obs kernels to sequential loops, one buffer per "
      "array, then to the LLVM dialect",
      buildReferencePipeline);
  PassPipelineRegistration<>(
      "obs-host-to-llvm",
      "Host code (func, scf, arith, math, memref, cf) to the LLVM dialect, "
      "memrefs passed as MLIR's descriptors",
      buildHostToLLVMPipeline);
  PassPipelineRegistration<OptimizePipelineOptions>(
      "obs-optimize",
      "Refine kernels as Obsidian's programmer did by hand, with proofs: "
      "flatten, assign work, elide warp syncs, in place, verify",
      buildOptimizePipeline);
  PassPipelineRegistration<>(
      "obs-to-gpu",
      "obs kernels and launches to gpu.func and gpu.launch_func, flattened "
      "and specialised per thread and round",
      [](OpPassManager &pm) { buildKernelsToGPUPipeline(pm); });
  PassPipelineRegistration<CPUPipelineOptions>(
      "obs-to-cpu",
      "The cpu target: the gpu.func of obs-to-gpu as loops over threads "
      "split at barriers, then to the LLVM dialect",
      buildCPUPipeline);
  // The chip is checked as the options are read: NVPTX warns and carries
  // on for a chip it does not know (PTX ptxas refuses), and the NVVM
  // target's verifier crashed on an empty one.
  registerPassPipeline(
      "obs-to-ptx",
      "The cuda target: obs kernels to NVVM and PTX (or a cubin), host code "
      "and launches to the LLVM dialect",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        PTXPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (llvm::Error error = checkChip(options.chip))
          return errorHandler("obs-to-ptx: " + toString(std::move(error)));
        buildPTXPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> describe) {
        describe(PTXPipelineOptions());
      });
}
