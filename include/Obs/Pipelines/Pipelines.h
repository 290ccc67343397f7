//===- Pipelines.h - obs pass pipelines -------------------------*- C++ -*-===//
//
// The named pipelines (docs/Rationale.md), as functions that build them on a
// pass manager (for tools and embedders) and as obs-opt pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_PIPELINES_PIPELINES_H
#define OBS_PIPELINES_PIPELINES_H

#include "Obs/Conversion/Passes.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/Error.h"

namespace mlir::obs {

/// `obs-reference`: kernels to sequential loops (the ref target), then to the
/// LLVM dialect, ready to JIT. Each kernel @k becomes an LLVM function @k
/// taking one bare pointer per stored component of its arguments and then of
/// its results (see Obs/Dialect/Obs/Storage.h).
void buildReferencePipeline(OpPassManager &pm);

/// Lowers host code (func, scf, arith, memref, math, cf) to the LLVM
/// dialect, memrefs as bare pointers at function boundaries.
void buildHostToLLVMPipeline(OpPassManager &pm);

/// The refinement passes obs-optimize may be limited to.
enum class RefinementPass {
  AssignWork,
  PromoteRegisters,
  InPlace,
  PlanShared,
  ElideWarpSyncs,
  None
};

/// The name of a refinement pass in `passes=` (the pass's name without
/// `obs-`), and what it stands for.
std::pair<StringRef, StringRef> describeRefinementPass(RefinementPass pass);

inline raw_ostream &operator<<(raw_ostream &os, RefinementPass pass) {
  return os << describeRefinementPass(pass).first;
}

/// Parses a refinement pass's name. The names are added here rather than by
/// `cl::values` because a pipeline's ListOption parses each element with a
/// parser of its own, which `cl::values` does not reach (MLIR 22).
struct RefinementPassParser
    : public mlir::detail::PassOptions::OptionParser<RefinementPass> {
  using Base = mlir::detail::PassOptions::OptionParser<RefinementPass>;
  using Base::Base;
  void initialize() {
    Base::initialize();
    for (RefinementPass pass :
         {RefinementPass::AssignWork, RefinementPass::PromoteRegisters,
          RefinementPass::InPlace, RefinementPass::PlanShared,
          RefinementPass::ElideWarpSyncs, RefinementPass::None}) {
      auto [name, help] = describeRefinementPass(pass);
      addLiteralOption(name, pass, help);
    }
  }
};

struct OptimizePipelineOptions : PassPipelineOptions<OptimizePipelineOptions> {
  Option<uint64_t> threads{
      *this, "threads",
      llvm::cl::desc("Threads per block, unless a kernel sets `threads`"),
      llvm::cl::init(0)};
  Option<WorkStrategy> strategy{
      *this, "strategy", llvm::cl::desc("How stages are dealt out"),
      llvm::cl::init(WorkStrategy::Cost), OBS_WORK_STRATEGY_VALUES};
  ListOption<RefinementPass, RefinementPassParser> passes{
      *this, "passes",
      llvm::cl::desc("The refinements to run, in the pipeline's order; all "
                     "when empty")};
};

/// `obs-optimize`: the refinements Obsidian's programmer made by hand, made
/// by passes and proved: flatten, assign work, place stages in place, elide
/// warp syncs, plan shared memory, verify.
void buildOptimizePipeline(OpPassManager &pm,
                           const OptimizePipelineOptions &options);

/// The kernel half of every GPU pipeline: obs kernels and launches to
/// gpu.module/gpu.func and gpu.launch_func, with the element code
/// specialised per thread and round (the thread id's range from
/// known_block_size, integer range optimisations, canonicalization, CSE).
/// Kernels are flattened and their syncs verified first. With
/// `recordLaunches`, host code reports each launch at run time
/// (obs-record-launches). Without `guardEmptyGrids`, a launch of a grid
/// known only at run time is made even for a grid of 0, which the runtime
/// must skip (convert-obs-to-gpu's guard-empty-grids). With
/// `runTimeChecks`, the kernels check as they run what the proof leaves to
/// run time: that a scatter without a combine writes no place twice, and
/// that obs.index reads inside its array (convert-obs-to-gpu's
/// run-time-checks).
void buildKernelsToGPUPipeline(OpPassManager &pm, bool recordLaunches = false,
                               bool guardEmptyGrids = true,
                               bool runTimeChecks = false);

struct CPUPipelineOptions : PassPipelineOptions<CPUPipelineOptions> {
  Option<ExecutionOrder> order{
      *this, "order", llvm::cl::desc("Order of threads and warps"),
      llvm::cl::init(ExecutionOrder::Forward), OBS_EXECUTION_ORDER_VALUES};
  Option<uint64_t> seed{
      *this, "seed",
      llvm::cl::desc("Seed of the shuffled order of threads and warps"),
      llvm::cl::init(1)};
  Option<ExecutionOrder> blockOrder{
      *this, "block-order", llvm::cl::desc("Order of a launch's blocks"),
      llvm::cl::init(ExecutionOrder::Forward), OBS_EXECUTION_ORDER_VALUES};
  Option<uint64_t> blockSeed{
      *this, "block-seed",
      llvm::cl::desc("Seed of the shuffled order of blocks"),
      llvm::cl::init(1)};
  Option<bool> recordLaunches{
      *this, "record-launches",
      llvm::cl::desc("Report every launch to @obs_record_launch at run time "
                     "(obs-record-launches)"),
      llvm::cl::init(false)};
  Option<bool> runTimeOrders{
      *this, "run-time-orders",
      llvm::cl::desc("Make the orders data that a runner may fill again "
                     "before a run (obs-gpu-to-cpu's run-time-orders)"),
      llvm::cl::init(false)};
};

/// `obs-to-cpu`: the cpu target. The gpu.func of buildKernelsToGPUPipeline
/// runs as loops over threads split at barriers; each kernel @k and each
/// host function with launches becomes an LLVM function over bare pointers,
/// called like the ref target's. A scatter without a combine reports a place
/// written twice to @obs_scatter_collision.
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

struct PTXPipelineOptions : PassPipelineOptions<PTXPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("The GPU architecture, e.g. sm_90"),
                           llvm::cl::init("sm_90")};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("NVPTX optimisation level"),
                            llvm::cl::init(3)};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("isa (PTX text) or bin (a cubin, assembled by ptxas "
                     "from `toolkit`)"),
      llvm::cl::init("isa")};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("The CUDA toolkit, for libdevice and format=bin "
                     "(empty: the one obs was configured with, where it "
                     "is installed)"),
      llvm::cl::init("")};
  Option<bool> recordLaunches{
      *this, "record-launches",
      llvm::cl::desc("Report every launch to @obs_record_launch at run time "
                     "(obs-record-launches)"),
      llvm::cl::init(false)};
  Option<bool> guardEmptyGrids{
      *this, "guard-empty-grids",
      llvm::cl::desc("Guard each launch of a grid known only at run time by "
                     "an scf.if in host code (for a runtime whose "
                     "mgpuLaunchKernel passes a grid of 0 to CUDA, which "
                     "refuses it, as MLIR's own does). Off by default: obs's "
                     "runtime runs nothing for an empty grid, and the host "
                     "code stays one block, its launches on one stream"),
      llvm::cl::init(false)};
  Option<bool> serialize{
      *this, "serialize",
      llvm::cl::desc("Serialize the gpu.module to PTX or a cubin (off: stop "
                     "at the NVVM dialect)"),
      llvm::cl::init(true)};
};

/// The NVPTX features for `chip`: the lowest PTX version that the chip and
/// obs's kernels need (empty where that is the chip's own minimum).
std::string getPTXFeatures(StringRef chip);

/// Succeeds where `chip` is an architecture NVPTX knows (it would warn and
/// carry on for another) and obs emits PTX for.
llvm::Error checkChip(StringRef chip);

/// `obs-to-ptx`: kernels to NVVM and PTX (gpu.binary, by
/// gpu-module-to-binary), host code with gpu.launch_func to the LLVM dialect.
void buildPTXPipeline(OpPassManager &pm, const PTXPipelineOptions &options);

/// Registers the pipelines with the pass registry (obs-opt).
void registerPipelines();

} // namespace mlir::obs

#endif // OBS_PIPELINES_PIPELINES_H
