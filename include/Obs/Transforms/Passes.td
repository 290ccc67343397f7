//===- Passes.td - obs transformation passes ----------------*- tablegen -*-===//

#ifndef OBS_TRANSFORMS_PASSES_TD
#define OBS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

// What a pass that simulates the kernel (KernelSimulation.h) must load: the
// simulation lowers the kernel to gpu, memref, scf and nvvm operations, and
// a dialect that is not loaded makes them unregistered ops (a null gpu.module
// for obs-assign-work run alone, before it declared these).
defvar kernelSimulationDialects = [
  "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
  "::mlir::memref::MemRefDialect", "::mlir::NVVM::NVVMDialect",
  "::mlir::scf::SCFDialect", "::mlir::ub::UBDialect"
];

def ObsCheckLaunches : Pass<"obs-check-launches", "::mlir::ModuleOp"> {
  let summary = "Check at run time what the launch proof takes as given "
                "about memrefs and grids";
  let description = [{
    `--obs-verify-launches` proves launches place by place within the
    memrefs they are given, and takes as given what only the run knows:
    that a view (a subview, a reinterpret_cast, a view of a function's
    argument) lies within the allocation it views; that views it proved
    apart symbolically are apart (`ValueBoundsConstraintSet` reasons over
    integers that never wrap, where index arithmetic wraps); and that a grid
    known only at run time is one CUDA can launch. This pass adds those
    checks to host code, before each `obs.launch` and each call of a
    function that launches kernels:
    - every memref operand that is a view lies within its allocation;
    - a `memref.cast` on the way to its allocation that claims a static
      offset or stride its source has only at run time claims it truly
      (the kernels compute with the type's);
    - every two memref operands over one allocation that the proof took to
      be apart (different views at run-time places, of a launch whose sizes
      are known only at run time, or arguments of such a call) hold no byte
      in common;
    - a grid given as a value is at most 2^31 - 1.
    The first broken one is reported through the runner's
    `obs_launch_contract` (Obs/Support/RuntimeFunctions.h), which stops the
    run with one line; as one call with no branch, so that the host code's
    launches stay one straight line. Every target's pipeline runs it after
    the proofs, before launches are lowered. On the cuda target, which
    refuses such grids as it launches, `grids=false` leaves the grids out:
    gpu-async-region waits for the device before every call, and a check
    between two launches would cost that wait.
  }];
  let options = [
    Option<"checkGrids", "grids", "bool", /*default=*/"true",
           "Check that grids given as values are at most 2^31 - 1">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numChecked", "checked-launches",
              "launches and calls given run-time checks">,
  ];
}

def ObsVerifyLaunches : Pass<"obs-verify-launches", "::mlir::ModuleOp"> {
  let summary = "Prove every launch's global memory accesses safe, place by "
                "place, across blocks and within them";
  let description = [{
    The blocks of an `obs.launch` run concurrently and in any order. For
    every launch, with or without `layouts`, this pass follows each memref
    through its views (subview, expand_shape, collapse_shape, cast,
    reinterpret_cast, transpose, view) to its allocation, and visits every
    block and element of every array:

    * every place is inside its memref and its allocation;
    * no place is written twice (by two blocks, two elements, or two views
      of one allocation);
    * no block writes a place that another block reads;
    * where a block reads a place that it also writes (an output over an
      input), the kernel's block is run thread by thread, as
      `obs-verify-sync` runs it, and every read of that place must come
      before the write: earlier in the same thread, or across a barrier
      that orders both threads. A kernel reads its inputs as they were
      before the launch.

    What cannot be followed to an allocation, or compared place by place
    (views of one allocation with different element sizes), is rejected.
    A function's memref arguments are taken to be distinct allocations; a
    call in the module that passes one allocation twice to a function that
    launches kernels is rejected. Every lowering pipeline runs this pass,
    after kernels are flattened. A kernel that obs-verify-sync proved in
    this context, exactly as it is now (locations included), is not
    simulated again: the block that proof ran is read instead. Likewise the
    places of a large static launch (2^16 or more) that
    obs-collect-launch-overlaps proved in this context, in a host function
    exactly as it is now and for the same launch operands and layouts, are
    not visited again.
  }];
  let dependentDialects = kernelSimulationDialects;
  let statistics = [
    Statistic<"numLaunches", "launches", "Launches proved">,
    Statistic<"numRunsReused", "proved-runs-reused",
              "Kernel blocks read from obs-verify-sync's proof in this "
              "context, not simulated again">,
    Statistic<"numPlacesReused", "launch-places-reused",
              "Large static launches whose places obs-collect-launch-overlaps "
              "proved in this context, not visited again">
  ];
}

def ObsCollectLaunchOverlaps
    : Pass<"obs-collect-launch-overlaps", "::mlir::ModuleOp"> {
  let summary = "Tell each kernel launched in place which of its elements "
                "share a place, so that refinements keep them ordered";
  let description = [{
    A launch whose output is a view of its input puts some elements of the
    kernel's arrays at one place of a block. The kernel reads its inputs as
    they were before the launch, so each such read must stay ordered before
    the write: a refinement that weakens the barrier between them (a warp
    scope) would race in global memory. This pass proves every launch's
    places as `obs-verify-launches` does, and records on each kernel, as
    `obs.launch_overlaps`, the pairs of elements (read operand and element,
    written operand and element) that any of its launches overlaps. The
    refinement passes' simulation then counts a read after, or unordered
    with, its write as a hazard, as it counts those in shared memory.
    `obs-optimize` runs it first.
  }];
  let statistics = [
    Statistic<"numKernels", "kernels", "Kernels launched in place">,
    Statistic<"numPairs", "pairs", "Pairs of elements that share a place">
  ];
}

def ObsDefineElementCode
    : Pass<"obs-define-element-code", "::mlir::ModuleOp"> {
  let summary = "Take poison and the flags folds assume out of element code, "
                "before anything folds";
  let description = [{
    Element code has one meaning on every target (docs/Rationale.md,
    "Element code has no undefined behaviour"): integers wrap and
    `ub.poison` is 0. MLIR's folds read overflow flags, `exact`, fast-math
    flags and poison their own way: `x + poison` folds to poison, and
    `(x * y nsw) / y` to `x`. Where a canonicalization ran before the
    element emitter defined an op, the cpu and cuda targets computed that
    meaning (`[0, 0, 0, 0]` for `x + poison`, where ref gave `x`). This
    pass drops the flags and replaces each scalar `ub.poison` by 0 in every
    obs.kernel and in every device op's region, so that every later fold
    keeps element code's meaning. It is the first pass of every pipeline.
  }];
  let statistics = [
    Statistic<"numPoison", "poison-replaced", "ub.poison ops replaced by 0">
  ];
}

def ObsDeduplicateKernels
    : Pass<"obs-deduplicate-kernels", "::mlir::ModuleOp"> {
  let summary = "Keep one of each set of private kernels that are identical "
                "but for their names";
  let description = [{
    Device expansion builds each device op's kernels for that op, so a
    program that sorts in two functions holds two copies of every sort
    kernel, identical but for their names, and each would be proved and
    refined again. This pass keeps the first private kernel of each such
    set and points every use of the others (their launches) at it, then
    erases them, as IREE's executable deduplication and LLVM's mergefunc
    do. Two kernels are identical when they print the same in generic form
    without locations once their names are set aside: every op, attribute,
    property, type and argument attribute (`threads`,
    `obs.launch_overlaps`, `obs.absent`, ...) is compared. Public kernels
    are entry points and are never merged away. `obs-optimize` runs it
    after `obs-collect-launch-overlaps`, before any kernel is refined, and
    every lowering runs it after device expansion.
  }];
  let statistics = [
    Statistic<"numMerged", "kernels-merged",
              "Private kernels replaced by an identical one">
  ];
}

def ObsExpandDevice : Pass<"obs-expand-device", "::mlir::ModuleOp"> {
  let summary = "Lower device-level ops to launch plans of obs kernels, "
                "tiled launches to launches of one dimension, and halo "
                "arguments to global ones";
  let description = [{
    Replaces every `obs.device_map`, `obs.device_reduce`, `obs.device_scan`
    and `obs.device_sort` in host code by launches of obs kernels over tiles of
    its arrays, for a length known only at run time (0 to 2^31 - 1), with
    kernels compiled once for every length:

    * map: one launch over `ceil(n / T)` tiles; a partial last tile maps
      only its present elements.
    * reduce: each tile folded by a tree to its total, level after level
      (`ceil(n / T)` totals, then theirs, ...) until one tile is left, whose
      fold is the result. Every element is read once.
    * scan: reduce-then-scan. The tiles' totals, their exclusive scan (a
      device scan itself, recursively), then each tile scanned by Sklansky's
      network from its total's prefix. Each element is read twice and
      written once; a length of at most one tile takes one launch.
    * sort: an LSD radix sort of 8-bit digits (see `obs.device_sort`) in
      onesweep's shape: one count of every pass's digits, then a kernel a
      pass that counts its tile's digits, finds each digit's place after
      the tiles before by an obs.carry of the 256 counts, and scatters the
      tile stably.
      This is for a `less` that is one comparison of the first scalars.
    * sort by any other `less`: a merge sort. Each tile sorted stably by
      merges of runs that double in shared memory, then merge passes
      that double the sorted runs (T, 2T, ...) until one run is left. A
      merge block reads the previous pass's array whole (an `obs.global`
      argument), finds its share of the two runs by binary searches along
      the merge path, loads that window into shared memory and merges it.
      Every pass is one kernel, its run length data; a pass the length does
      not need gets a grid of 0, and the last one that runs writes `outs`.
      `less` must be a strict weak order on the data (floats without NaNs
      under `olt`); for one that is not, the order is unspecified, but no
      read leaves the arrays.

    First, every tiled launch (`obs.launch ... grid(R, C)` over 2-D
    memrefs) becomes a launch of `R C` blocks with layouts over views of
    its memrefs as rows of one tile's width: block `r C + c` reads and
    writes the tiles block `(r, c)` would. Then every kernel argument with
    an `obs.halo` becomes an `obs.global`
    argument, the launch's memref whole, and the kernel reads a pull array of
    its block's tile and neighbours from it, each place outside the memref
    where the halo's boundary says (`clamp`, `zero` or `wrap`).

    The tile `T` is chosen per element type: 32 KiB of elements, between
    256 and 8,192, on 256 threads (a radix sort's 4,096; a merge sort's 16
    KiB of elements with their i32 positions, between 256 and 4,096). Absent elements of a partial last tile
    read as the op's identity, which a fold cannot tell from no element.
    The kernels are `obs.kernel`s like any other: every pipeline then
    refines and proves them, and the launches, as it would written ones.
  }];
  let options = [
    Option<"tile", "tile", "uint64_t", /*default=*/"0",
           "Elements per tile, a power of two from 2 to 65536 (0: chosen "
           "per element type). "
           "Small tiles make plans of many levels on short arrays">,
    ListOption<"algorithms", "algorithms", "std::string",
               "The device algorithms to expand with, of map, reduce, scan, "
               "radix-sort and merge-sort (all when empty): each is a "
               "pattern (Obs/Transforms/DeviceExpansion.h), and a device op "
               "none of them expands is an error">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numOps", "device-ops", "Device-level ops expanded">,
    Statistic<"numKernels", "kernels", "Tile kernels built">,
    Statistic<"numLaunches", "launches", "Launches written">,
    Statistic<"numRadixSorts", "radix-sorts", "Sorts made radix sorts">,
    Statistic<"numMergeSorts", "merge-sorts",
              "Sorts made merge sorts (a `less` radix cannot follow)">
  ];
}

def ObsRecordLaunches : Pass<"obs-record-launches", "::mlir::ModuleOp"> {
  let summary = "Report every launch's grid, block and memory traffic at run "
                "time";
  let description = [{
    Instruments host code for `obs-run --emit=plan`: before every
    `obs.launch`, a call

    ```mlir
    func.call @obs_record_launch(%kernel, %grid, %threads, %read, %written)
        : (i64, i64, i64, i64, i64) -> ()
    ```

    of a function the runner provides, with the launched kernel's position
    in the module's `obs.recorded_launches` (the kernels' names, in
    order), the grid and block size, and the bytes of global memory the
    launch reads and writes by the traffic model: each memref's places in
    the launch once (its blocks' chunks, cut at the memref's end where its
    size is known only at run time). Run it after the refinements, which
    may still choose a kernel's block size.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numLaunches", "launches", "Launches instrumented">
  ];
}

def ObsExpandNetworks : Pass<"obs-expand-networks", "::mlir::obs::KernelOp"> {
  let summary = "Expand scan, sort and reduce networks into combinators and "
                "syncs";
  let description = [{
    Replaces every `obs.scan`, `obs.sort` and `obs.reduce` that names a
    `network` and stands at program level (a kernel body, or the region of
    `two`, `ilv`, `one` or `repeat`) by that network, built with the C++
    combinator functions of `Obs/Builder/Networks.h`: stages of combinators
    separated by `obs.sync`, which every refinement pass then works on.

    * scan: `sklansky`, `kogge_stone`, `brent_kung`, `serial`;
    * sort: `periodic` (seed 001), `odd_even_merge` (seed 000), `bitonic`;
    * reduce: `tree` (seed 004), `serial`, whose results become `obs.index`
      of the last level's one element.

    `serial` is CUB's composition: each of the block's threads scans or
    folds its run of consecutive elements in sequence (the stages write
    `blocked<run>`, so `--obs-promote-registers` can keep the runs in
    registers), the runs' totals are combined within each warp, then the
    warps' totals. The threads are the kernel's `threads`, else one per
    element (at most 1024); in the region of `two`, `ilv`, `one` or
    `repeat` each run is one element. A scan or reduce without a network
    at program level (a kernel's body or a sub-program's, as written)
    becomes `serial` where its combine folds to constants on sample
    elements and is associative on all of them (counted as
    `serial-defaults`): a reduce of any length, a scan whose
    runs are at most 64 elements, whose array takes at most half a
    block's shared memory and whose run stages hold at most 2^19 elements
    together. A scan past the first or last of those bounds becomes
    `sklansky` instead (counted as `sklansky-defaults`: log2(n) stages of
    the whole array, in place), where its array takes at most half a
    block's shared memory: 4,096 i32 on 32 threads (runs of 128), say. A
    scan whose array takes more than half a block's shared memory stays
    `serial`, in the same order, without run stages (counted as
    `checkpointed-scans`, as is a written `serial` past that bound): each
    run's left fold is kept every `every` elements (8, more where those
    checkpoints would take more than half a block's shared memory: over
    48 Ki i32 on 256 threads), a stage per checkpoint holding one element per
    thread, the last the runs' totals; each element continues its run's
    fold from the checkpoint before it and takes in its run's prefix, so
    that no stage holds the array and an element folds at most `every`
    elements (8 of 16,384 i32 on 256 threads), not the array up to itself.
    The network is the association order, which the reference target
    follows, so a float sum or scan rounds alike on every target.

    A scan or reduce without a network that stays a fold (its combine not
    associative on the samples; marked `obs.keeps_fold`, which the reference
    target folds left to right) is computed once by one thread in that
    same order where it fits, rather than by every element's thread again
    (counted as `chains`): a reduction of any length (one thread folds the
    array in a loop, in one stage), a scan of at most 64 elements within
    the same bounds (a stage per element, one thread's run). A longer scan
    whose array takes at most half a block's shared memory is computed
    block by block in that order (counted as `folds-in-blocks`): a stage
    per 64 elements, in which each element folds from the last element of
    the block before, 64 elements at most; 1,000 elements are 16 stages
    and 31,956 combines, where each element folding from the start takes
    499,500. A longer array has only its blocks' last elements as stages
    (one element each, in the same order), and each element folds its block
    up to itself from the end of the block before, again at most 64
    elements (also counted as `folds-in-blocks`).

    The op's combine or `less` region is cloned into each stage. A scan's
    or reduction's combine that folds to constants is first tried for
    associativity on a few sample elements: a network reassociates it, so
    one that is not would make the targets disagree (rejected, with three
    elements that show it). Ops inside
    element code (a `map` or `generate` region) have no stages to expand
    into: they stay, and each thread computes them sequentially.
  }];
  let options = [
    Option<"markDefaults", "mark-defaults", "bool", /*default=*/"false",
           "Write `network(serial)` on the scans and reductions that take it "
           "by default, and expand nothing: the reference target computes "
           "each network itself, in the same order">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numScans", "scans", "Scan networks expanded (chains apart)">,
    Statistic<"numSorts", "sorts", "Sort networks expanded">,
    Statistic<"numReductions", "reductions",
              "Reduction networks expanded (chains apart)">,
    Statistic<"numSerialDefaults", "serial-defaults",
              "Scans and reductions without a network made serial">,
    Statistic<"numSklanskyDefaults", "sklansky-defaults",
              "Scans without a network made sklansky, past serial's bounds">,
    Statistic<"numChains", "chains",
              "Folds computed once, by one thread, in their order (counted "
              "in neither scans nor reductions)">,
    Statistic<"numFoldsInBlocks", "folds-in-blocks",
              "Scans that keep their fold computed block by block, 64 "
              "elements a stage (counted in neither scans nor chains)">,
    Statistic<"numCheckpointedScans", "checkpointed-scans",
              "Serial scans too long for run stages, from checkpoints of "
              "their runs' folds (counted in scans too)">,
    Statistic<"numStages", "stages", "Syncs the networks introduced">
  ];
}

def ObsFlatten : Pass<"obs-flatten", "::mlir::obs::KernelOp"> {
  let summary = "Lift two, ilv and one with their sub-programs into programs "
                "over the whole array";
  let description = [{
    Obsidian's `two P` runs two instances of the program `P` side by side; on
    a GPU they run as one program whose stages span both halves, with one
    barrier per stage for both. This pass makes that explicit: every `two`,
    `ilv` and `one` whose sub-program contains a sync (at any depth) is
    replaced by a program over the whole array.

    * `two P`: each sync of `P` on `K` elements becomes one sync on `2K`
      elements, computing element `s*K + l` as element `l` of the sync's
      array in instance `s` (the segment index). The instance's view of an
      earlier stage is the segment `s` of that stage's merged result.
    * `ilv P` is `riffle (two P (unriffle a))`, then as `two`.
    * `one P` is `conc (halve a).low (P (halve a).high)`: `P` is inlined on
      the second half and its syncs keep their lengths.
    * A `repeat` with syncs inside `P` becomes a `repeat` over the whole
      array whose body is `two` of its body, flattened in turn.

    Nesting to any depth flattens from the inside out. Syncs keep their
    scope, placement and work assignment, now over the merged array. `two`,
    `ilv` and `one` without syncs are pure index functions and stay.

    Scans, reductions and sorts at program level are first expanded as
    `obs-expand-networks` expands them (their networks are decided on the
    kernel as written): lifted into element code, a sub-program's float
    scan would fold where its network associated.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numLifted", "lifted", "Sub-program combinators lifted">,
    Statistic<"numMergedSyncs", "merged-syncs",
              "Syncs of sub-program instances merged into one">
  ];
}

def ObsAssignWork : Pass<"obs-assign-work", "::mlir::obs::KernelOp"> {
  let summary = "Choose which thread computes which element of each sync";
  let description = [{
    Sets the work assignment (`how`) of every sync that has none, for a block
    of T threads: the kernel's `threads` attribute when it has one (it
    overrides the pass option), otherwise the `threads` option, raised to
    what the work assignments the user wrote need, which then becomes the
    kernel's `threads`. It works on the kernel as the GPU targets run it:
    its networks expanded first where `obs-expand-networks` has not run
    (their defaults are decided by the threads as written), then
    flattened (`obs-flatten`), as `obs-optimize` orders the passes.

    * `strided`: `strided<T>`, Obsidian's `pairNth T`: element e by thread
      e mod T in round e div T.
    * `blocked`: `blocked<ceil(N/T)>`: each thread a contiguous run.
    * `compact`: `compact<T>`: only the elements the stage writes (after an
      in-place stage drops its identity writes) are dealt out, so no thread
      works on an element that does not change.
    * `cost`: each of the three on a copy of the kernel, refined by the
      passes `refine-with` names (obs-optimize names those it runs after
      this one), and simulated; the one with the fewest estimated issue
      slots wins (`obs-report-cost` prints the estimate), the first of
      them on a tie. Strided and blocked deal out a stage alike when it
      has no more elements than threads, and are tried once then. A
      strategy whose copy cannot be refined is not chosen.

    A kernel's own `strategy` attribute wins over the option, as its
    `threads` does: the device expansions write the strategy the cost
    would choose where it is known (the radix sort's scatter), so that the
    kernel is dealt out once instead of refined and simulated three times.

    With `keep-refined`, the kernel leaves the pass refined by the passes
    of `refine-with`, as if they ran after it: with `cost`, the chosen
    strategy's copy, already refined, takes the kernel's place (with the
    statistics its refinements counted), so no refinement is made twice;
    otherwise the refinements run on the kernel once it is dealt out.
    obs-optimize runs the refinements it names this way.

    Syncs whose work assignment is written or already planned keep it; the
    assignment chosen here goes into the sync's plan.

    A warp scope or an in-place placement that an earlier pass planned
    (`obs-elide-warp-syncs` or `obs-inplace` run before this one) was
    proved for the work assignments before this pass: a stage dealt out
    anew reads the previous sync's array from other threads. Where the new
    assignments make one a hazard, the plan takes it back to a block
    barrier and a fresh buffer, which are always safe (and a shared-memory
    plan made before is dropped, to be made again). A scope or placement
    the user wrote is never taken back: it is kept, and `obs-verify-sync`
    rejects the kernel if the assignment makes it unsafe.
  }];
  let options = [
    Option<"threads", "threads", "uint64_t", /*default=*/"0",
           "Threads per block (0: the kernel's `threads`, or leave the "
           "default of one thread per element)">,
    Option<"strategy", "strategy", "::mlir::obs::WorkStrategy",
           /*default=*/"::mlir::obs::WorkStrategy::Strided",
           "How stages are dealt out (a kernel's `strategy` attribute wins)",
           "OBS_WORK_STRATEGY_VALUES">,
    ListOption<"refineWith", "refine-with", "std::string",
               "With strategy=cost: the refinements to run on each copy "
               "before it is costed, in order (promote-registers, inplace, "
               "plan-shared, elide-warp-syncs)">,
    Option<"keepRefined", "keep-refined", "bool", /*default=*/"false",
           "Leave the kernel refined by the passes of refine-with (with "
           "strategy=cost, the chosen copy's refinement, not made again)">
  ];
  // Keeping earlier decisions safe simulates the kernel.
  let dependentDialects = kernelSimulationDialects;
  let statistics = [
    Statistic<"numAssigned", "syncs-assigned", "Syncs given a work assignment">,
    Statistic<"numElementsPerThread", "max-elements-per-thread",
              "Most elements one thread computes in a stage">,
    Statistic<"numTakenBack", "decisions-taken-back",
              "Warp scopes and in-place placements the assignment made unsafe">,
    Statistic<"numStrategiesCosted", "strategies-costed",
              "Strategies tried on a copy and costed (strategy=cost)">,
    Statistic<"numStrategyRunsShared", "strategy-runs-shared",
              "Strategies' copies whose refinement lowered to code another "
              "strategy's copy ran: that run, taken over, not run again">,
    Statistic<"numSimulations", "simulations",
              "Kernel simulations run (each a lowering and a run of every thread)">,
    Statistic<"numSimulationsReused", "simulations-reused",
              "Simulations handed out again because the kernel had not changed">,
    Statistic<"numSimulationsRescoped", "simulations-rescoped",
              "Simulations derived from a kept one of the kernel with other "
              "sync scopes, without running it again">,
    Statistic<"numSimulationsShared", "simulations-shared",
              "Simulations of a plan that lowers to code run before (another "
              "strategy's copy): that run, not run again">
  ];
}

def ObsElideWarpSyncs : Pass<"obs-elide-warp-syncs", "::mlir::obs::KernelOp"> {
  let summary = "Downgrade block syncs whose dependences stay within a warp";
  let description = [{
    For each sync whose scope the user left open, in program order, tries
    warp scope (`bar.warp.sync`) and keeps it when the kernel is still free
    of hazards: every read after write, write after read and write after
    write between two threads of different warps is ordered by a block
    barrier. The check runs the kernel's block thread by thread with every
    index known (Obs/Analysis/BlockRun.h), so it covers buffers that stages
    share (in place or by the shared-memory plan) and the wrap-around of
    `repeat` loops; an index that depends on data may be anywhere in its
    buffer, which keeps the block barrier.

    This is the decision Obsidian left to the programmer (`syncWarp`), and
    that its author found unsound to automate with a per-element writer
    analysis; here each downgrade is checked on every access of every thread.
  }];
  let dependentDialects = kernelSimulationDialects;
  let statistics = [
    Statistic<"numDowngraded", "syncs-downgraded",
              "Block syncs downgraded to warp scope">,
    Statistic<"numKept", "block-syncs-kept", "Syncs that stay block-scoped">,
    Statistic<"numSimulations", "simulations",
              "Kernel simulations run (each a lowering and a run of every thread)">,
    Statistic<"numSimulationsReused", "simulations-reused",
              "Simulations handed out again because the kernel had not changed">,
    Statistic<"numSimulationsRescoped", "simulations-rescoped",
              "Simulations derived from a kept one of the kernel with other "
              "sync scopes, without running it again">,
    Statistic<"numSimulationsShared", "simulations-shared",
              "Simulations of a plan that lowers to code run before (another "
              "strategy's copy): that run, not run again">
  ];
}

def ObsInPlace : Pass<"obs-inplace", "::mlir::obs::KernelOp"> {
  let summary = "Make stages overwrite the array they read where that is safe";
  let description = [{
    For each sync whose placement the user left open, in program order, tries
    `inplace`: the stage's result overwrites the one array in shared memory
    its stage reads (of the same type), and elements that would be copied
    unchanged (identity writes, like the first half of Sklansky's fan) are
    not written at all. The sync keeps the placement when no thread
    overwrites an element that another thread (or the same thread, later in
    the stage) still reads, and the kernel stays free of hazards across
    barriers.

    A shared-memory plan made before (by `obs-plan-shared`) is dropped when
    a sync goes in place, since the overwritten array then lives longer than
    the plan allowed for; run `obs-plan-shared` after this pass.
  }];
  let dependentDialects = kernelSimulationDialects;
  let statistics = [
    Statistic<"numInPlace", "syncs-in-place", "Syncs placed in place">,
    Statistic<"numIdentityWrites", "identity-writes-dropped",
              "Elements in-place stages leave as they are">,
    Statistic<"numNotTried", "syncs-not-tried",
              "Syncs not tried in place: their stage has no array to "
              "overwrite, or the simulation of the kernel as it was shows "
              "that it would then race within itself">,
    Statistic<"numSimulations", "simulations",
              "Kernel simulations run (each a lowering and a run of every thread)">,
    Statistic<"numSimulationsReused", "simulations-reused",
              "Simulations handed out again because the kernel had not changed">,
    Statistic<"numSimulationsRescoped", "simulations-rescoped",
              "Simulations derived from a kept one of the kernel with other "
              "sync scopes, without running it again">,
    Statistic<"numSimulationsShared", "simulations-shared",
              "Simulations of a plan that lowers to code run before (another "
              "strategy's copy): that run, not run again">
  ];
}

def ObsPromoteRegisters : Pass<"obs-promote-registers",
                               "::mlir::obs::KernelOp"> {
  let summary = "Keep arrays in registers where each thread reads only its "
                "own elements, and in shuffles where reads stay in warps";
  let description = [{
    For each sync whose storage, scope and placement the user left open, in
    program order, tries `registers`: each thread keeps the elements it
    computed as values, and the stage has no shared buffer and no barrier.
    The sync keeps the storage when the simulation shows every read of the
    array, in every thread, reading an element that same thread computed
    (a thread's sequential fold over its own elements, Sklansky's low
    levels under `blocked<k>`), and the kernel, without the sync's barrier,
    stays free of hazards. Elements must be scalars or tuples, the work
    assignment `strided` or `blocked` (or the default sweep) of at most 16
    rounds, and the array not yielded by a repeat body. The pass tries only
    syncs of at most 8 rounds where no work assignment is written (one a
    pass planned, or the default sweep): a budget of its search, since
    obs-assign-work refines each strategy's copy with this pass, and 16
    unrolled rounds in every stage of a 4,096-key sort took `@sort` from
    2.8 s to 9.5 s. A written assignment (a network's schedule, as the
    serial network's runs, or the user's) is tried up to 16.

    Then, with `shuffles` (the default), tries `shuffle` for the syncs left
    open: each thread keeps its elements so, and a read of another lane's
    element takes it by `shfl.sync`. The sync keeps it when the simulation
    shows every read by a thread of the element's owner's warp, every
    shuffle run by exactly the lanes its mask names (none skips it, and no
    branch on data may), each taking its value from one of them, and the
    kernel, without the sync's barrier, free of hazards: a warp's
    Kogge-Stone step written with reads outside its branches (the serial
    network's), a butterfly within a warp. Scalars of integers and floats
    of at most 64 bits, or tuples of them.

    Run it after `obs-assign-work` (registers depend on who computes what)
    and before `obs-inplace`, `obs-plan-shared` and `obs-elide-warp-syncs`:
    an array in registers needs no buffer to place, and its stage no
    barrier to weaken. A shared-memory plan made before is dropped when a
    sync goes to registers or shuffles, as obs-inplace does; run
    `obs-plan-shared` after this pass.
  }];
  let options = [
    Option<"shuffles", "shuffles", "bool", /*default=*/"true",
           "Also try shuffle storage for the syncs registers do not suit">
  ];
  let dependentDialects = kernelSimulationDialects;
  let statistics = [
    Statistic<"numPromoted", "syncs-in-registers", "Syncs kept in registers">,
    Statistic<"numShuffled", "syncs-in-shuffles",
              "Syncs kept in registers and exchanged by shuffles">,
    Statistic<"numSimulations", "simulations",
              "Kernel simulations run (each a lowering and a run of every thread)">,
    Statistic<"numSimulationsReused", "simulations-reused",
              "Simulations handed out again because the kernel had not changed">,
    Statistic<"numSimulationsRescoped", "simulations-rescoped",
              "Simulations derived from a kept one of the kernel with other "
              "sync scopes, without running it again">,
    Statistic<"numSimulationsShared", "simulations-shared",
              "Simulations of a plan that lowers to code run before (another "
              "strategy's copy): that run, not run again">
  ];
}

def ObsPlanShared : Pass<"obs-plan-shared", "::mlir::obs::KernelOp"> {
  let summary = "Place the kernel's shared buffers by liveness, and check the "
                "limit";
  let description = [{
    Gives every shared buffer of the kernel a byte offset in one arena
    (`obs.shared_offsets` on the syncs and repeats that own buffers,
    `obs.shared_bytes` on the kernel), first fit by liveness: two buffers
    share memory only when one is no longer read when the other is first
    written, with a block barrier between them, so that reuse never needs a
    barrier the kernel does not have. The lowering then allocates one
    workgroup buffer and views into it.

    Before placing them, where the simulation shows bank conflicts (shared
    accesses that take more than 1.05 times the fewest wavefronts their
    widths allow), each buffer of an array
    of rows (a sync or repeat of `!obs.arr<R x !obs.arr<C x T>>`), or of a
    flat array of at least 64 elements (as rows of 32), is tried
    with 1 to 4 elements of padding after each row, and keeps the padding
    that takes the fewest wavefronts, if any takes fewer than none
    (`obs.shared_padding` on its owner). A warp that reads a column of a
    32 x 32 tile of i32 meets one bank 32 times; with rows of 33 elements,
    32 banks once; a warp that reads every other word of a flat array meets
    each even bank twice, and with 33 words to a row, once. Only addresses
    move: every place keeps its indices, so the proofs stay as they are.
    Each padding is tried on the simulation's own accesses moved where it
    would put them (computeBlockCost over other accesses), not by running
    the kernel again; the kernel as padded is run once, its buffers are
    placed by what that run allocates, and it keeps its paddings only if
    it takes fewer wavefronts.

    Reports the bytes used; a kernel that needs more than `max-shared-bytes`
    (48 KiB by default) is an error that gives the bytes needed.
  }];
  let options = [
    Option<"maxSharedBytes", "max-shared-bytes", "uint64_t",
           /*default=*/"::mlir::obs::KernelOp::kMaxSharedBytes",
           "Shared memory a block may use">,
    Option<"padRows", "pad-rows", "bool", /*default=*/"true",
           "Pad the rows of shared arrays of rows, and of flat arrays as rows "
           "of 32, where that removes bank conflicts the simulation shows">
  ];
  let dependentDialects = kernelSimulationDialects;
  let statistics = [
    Statistic<"numSharedBytes", "shared-bytes",
              "Bytes of shared memory the kernels use">,
    Statistic<"numBuffers", "buffers", "Shared buffers placed">,
    Statistic<"numReused", "buffers-reusing-memory",
              "Buffers placed over memory an earlier buffer no longer needs">,
    Statistic<"numPadded", "buffers-padded",
              "Syncs and repeats whose shared rows were padded against bank "
              "conflicts">,
    Statistic<"numSimulations", "simulations",
              "Kernel simulations run (each a lowering and a run of every thread)">,
    Statistic<"numSimulationsReused", "simulations-reused",
              "Simulations handed out again because the kernel had not changed">,
    Statistic<"numSimulationsRescoped", "simulations-rescoped",
              "Simulations derived from a kept one of the kernel with other "
              "sync scopes, without running it again">,
    Statistic<"numSimulationsShared", "simulations-shared",
              "Simulations of a plan that lowers to code run before (another "
              "strategy's copy): that run, not run again">
  ];
}

def ObsReportCost : Pass<"obs-report-cost", "::mlir::obs::KernelOp"> {
  let summary = "Report what one block costs, from the simulation";
  let description = [{
    Simulates the kernel as it would run (its plan, after whatever
    refinements ran before) and reports, as a remark on the kernel and as
    statistics, what one block costs, and, as a remark on each sync whose
    barrier ends a stage, that stage's share (the work done since the
    barrier before, register and shuffle stages included; a stage a repeat
    runs again counts every time), with the last stage's at the kernel's
    `obs.return`:

    * the block and warp barriers it passes;
    * its shared-memory warp accesses and the wavefronts they take: one per
      distinct 4-byte word in the most used of 32 banks, so that a
      conflict-free access takes 1 and a 2-way bank conflict 2. A thread's
      accesses of one aligned 8- or 16-byte chunk between two barriers
      count as one vector access, as LLVM's load-store vectorizer makes
      them (`ld.shared.v2` of 32 threads takes 2 wavefronts, no conflict).
      Last in the remark, the wavefronts against the fewest the accesses'
      widths allow (a warp access of n bytes takes n / 128 at least): 1.00
      without bank conflicts, whatever the widths;
    * its global-memory warp accesses and the 128-byte lines they touch:
      1 for a coalesced warp of 4-byte elements, up to 32 for a scattered
      one;
    * the ops its warps issue, each op of the lowered gpu.func once per
      warp that runs it (before LLVM's optimisations, so an estimate of the
      instructions), per element of the kernel's results;
    * one number that weighs them, in warp issue slots: each op once, each
      wavefront and line past an access's first once more, and each block
      barrier 16 slots of waiting per warp (a warp barrier 2).
      `obs-optimize` picks the work strategy with the fewest.

    A warp access is the k-th execution of one load or store by the threads
    of one warp. Accesses whose place depends on data are counted apart.
    No GPU is needed: this is the exact access pattern, not a measurement.

    ```
    obs-opt --pass-pipeline='builtin.module(obs-optimize, obs.kernel(obs-report-cost))' kernel.mlir
    ```
  }];
  let dependentDialects = kernelSimulationDialects;
  let statistics = [
    Statistic<"numBlockBarriers", "block-barriers", "Block barriers passed">,
    Statistic<"numWarpBarriers", "warp-barriers", "Warp barriers passed">,
    Statistic<"numSharedAccesses", "shared-warp-accesses",
              "Warp accesses of shared memory">,
    Statistic<"numSharedWavefronts", "shared-wavefronts",
              "Wavefronts those take (bank conflicts add)">,
    Statistic<"numGlobalAccesses", "global-warp-accesses",
              "Warp accesses of global memory">,
    Statistic<"numGlobalLines", "global-lines",
              "128-byte lines those touch">,
    Statistic<"numWarpOps", "warp-ops-issued",
              "Ops issued, once per warp that runs them">,
    Statistic<"numIssueSlots", "issue-slots",
              "The estimate in warp issue slots obs-optimize compares">
  ];
}

def ObsVerifySync : Pass<"obs-verify-sync", "::mlir::obs::KernelOp"> {
  let summary = "Prove every sync's scope, placement and work assignment safe";
  let description = [{
    Runs the kernel's block thread by thread, as it will be lowered, and
    reports every conflicting pair of accesses to shared memory that no
    barrier orders: with the sync responsible, the two threads and their
    warps, the element, the buffer and the kind of hazard (read after write,
    write after read, write after write; through buffer reuse; across repeat
    iterations). A stage that reads what it has itself written in place is
    an error too, and so is a barrier that some threads could skip. It
    checks every choice alike, whether the user wrote it or a pass made it;
    every lowering pipeline runs it, the reference target's included, so
    that no target runs a kernel the GPU would race on. A kernel that is not
    flat is proved on a flattened copy, as the GPU targets will lower it.
    A kernel it has proved before in the same context (the same content,
    printed whole: obs-optimize's last pass, then the lowering's first
    proof in one process) is not proved again; one changed in any way since
    is.
  }];
  let options = [
    Option<"skipSafeByConstruction", "skip-safe-by-construction", "bool",
           /*default=*/"false",
           "Prove only kernels that are not safe by construction on the "
           "reference target: those with a written or planned sync property, "
           "or with a read by obs.index or an obs.scatter in a block a GPU "
           "could run. A kernel whose syncs are all open runs with block "
           "barriers, fresh buffers and the default sweep; without either op "
           "it reads and writes only inside its arrays, and with more "
           "threads than a GPU block (1024), which only ref runs, ref checks "
           "their places as it runs">
  ];
  let dependentDialects = kernelSimulationDialects;
  let statistics = [
    Statistic<"numVerified", "syncs-verified", "Syncs proved safe">,
    Statistic<"numSimulations", "simulations",
              "Kernel simulations run (each a lowering and a run of every thread)">,
    Statistic<"numSimulationsReused", "simulations-reused",
              "Simulations handed out again because the kernel had not changed">,
    Statistic<"numSimulationsRescoped", "simulations-rescoped",
              "Simulations derived from a kept one of the kernel with other "
              "sync scopes, without running it again">,
    Statistic<"numSimulationsShared", "simulations-shared",
              "Simulations of a plan that lowers to code run before (another "
              "strategy's copy): that run, not run again">,
    Statistic<"numAlreadyProved", "kernels-already-proved",
              "Kernels this pass had proved before in this context, with "
              "the same content, and did not prove again">
  ];
}

def ObsExpandRoundedDivisions
    : Pass<"obs-expand-rounded-divisions", "::mlir::ModuleOp"> {
  let summary = "Write arith.floordivsi and arith.ceildivsi as a division, "
                "a remainder and a select";
  let description = [{
    `floordivsi` is the truncating quotient less one where the remainder is
    not zero and its sign is not the divisor's; `ceildivsi` is that quotient
    plus one where the remainder is not zero and its sign is the divisor's.
    Every obs pipeline writes them so before any integer range analysis and
    lowering to LLVM, in kernels and host code alike, because upstream gets
    two things wrong that obs's programs met (found by an adversarial run):
    the lowering of `floordivsi` to LLVM adds 2^64 - 1 where it means -1 in
    integers wider than 64 bits (an i128 -7 floordiv 2 was 2^64 - 4), and
    the range inference of `ceildivsi` gives a dividend of the least integer
    the wrong sign (`-128 ceildiv 3` over i8 is 42 by its range, which
    `arith-int-range-optimizations` then substitutes, where -42 is right).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Divisions written anew">,
  ];
}

def ObsIntRangeOptimizations : Pass<"obs-int-range-optimizations"> {
  let summary = "arith-int-range-optimizations, with the counters of unsigned "
                "loops left unbounded";
  let description = [{
    Upstream's `arith-int-range-optimizations` replaces values that MLIR's
    integer range analysis shows constant, a comparison it decides among
    them. That analysis bounds an `scf.for`'s counter by its bounds read
    as signed integers, also for a loop that compares them unsigned
    (`scf.for unsigned`), so a loop from 2^63 - 2 to 2^63 + 2 seemed to
    run once, its counter never negative: a comparison of the counter
    with 0 was folded to false, and an `obs.index` bounds check the
    counter fed to true, in a kernel that read past its array on the cpu
    and cuda targets, where ref answered right (found by an adversarial
    run). This pass runs the same rewrites on an analysis that knows
    nothing of an unsigned loop's counter, and gives a division or
    remainder whose divisor may be zero obs's meaning (x / 0 = 0, x % 0 =
    x), where arith's inference assumes a divisor above zero
    (`SoundIntegerRangeAnalysis`, which obs-gpu-index-width reads too).
    Every obs pipeline runs it in place of the upstream pass.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ObsCheckHostCode : Pass<"obs-check-host-code", "::mlir::ModuleOp"> {
  let summary = "Check host functions' memory accesses, views and integer "
                "divisions as they run, and refuse their writes into "
                "constant globals";
  let description = [{
    Kernels prove every place they read and write; host functions
    (`func.func`) index their memrefs with values only the run knows. Each
    op of a host function that MLIR can check as it runs
    (`RuntimeVerifiableOpInterface`: `memref.load`, `memref.store`, the
    atomics, `memref.copy` between memrefs of different lengths,
    `memref.cast`, `memref.expand_shape`, `memref.dim`) gets that check
    before it, and each view it makes (`memref.subview`,
    `memref.reinterpret_cast`, `memref.view`) obs's own after it: its
    elements within its source's bytes, computed in i128 so that nothing
    wraps, and a subview's places within each dimension of its source
    (LLVM 22's check of a subview at a run-time offset crashes, and it has
    none for the other two), and each `memref.collapse_shape`'s elements
    within its source's (dimensions of run-time strides are read as one run
    even where they are none). `affine.load` and `affine.store`, which
    become memref ops only later, get their places checked against their
    memref's sizes. An `expand_shape` of more than one run-time size in one
    group, which upstream's lowering crashes on, is an error. An integer
    division or remainder (scalars and indices) checks that its divisor is
    not 0 and, signed, that it is not the least integer by -1: LLVM leaves
    both undefined and the host traps (SIGFPE), where kernels' element code
    defines them. Each check is a `cf.assert` whose message is the op's
    location,
    its name and what failed. `obs-lower-host-checks` makes each failed
    check one call of the runner's `obs_host_check`, which stops the run
    with that message (Obs/Support/RuntimeFunctions.h) on every target.

    A store, atomic or copy into a constant global is an error here: the
    memory is read-only, and the JIT's code may keep its constants. The
    memref written is followed through views and casts, selects, `scf.if`
    and `scf.for` results, and a host function's arguments to what its
    calls pass.

    A host function is checked once, and marked `obs.host_checked`: every
    pipeline runs this pass first, on the program as written, before
    device-level ops are expanded into host code obs builds (whose places
    obs computes itself), and a program obs-optimize refined is not checked
    again when it is lowered.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numChecked", "checked-ops",
              "host ops given a check as they run">,
  ];
}

def ObsVerifyReference : Pass<"obs-verify-reference", "::mlir::ModuleOp"> {
  let summary = "Prove a module's kernels and launches as the GPU targets "
                "would, without changing it";
  let description = [{
    What the reference pipeline proves before it lowers kernels as written:
    on a copy of the module, every kernel's networks are expanded, it is
    flattened and canonicalized, as the GPU pipelines prepare it, and then
    `obs-verify-sync` (for kernels with a written or planned sync property)
    and `obs-verify-launches` run. A kernel or launch the GPU would race on
    is rejected with their diagnostics, so that no target runs it; the
    module itself is left as it is, so the reference lowering stays
    independent of those rewrites.
  }];
  let constructor = "::mlir::obs::createObsVerifyReference()";
  let dependentDialects = kernelSimulationDialects;
}

//===----------------------------------------------------------------------===//
// GPU to GPU: gpu.modules made cheaper after the kernel lowering
//===----------------------------------------------------------------------===//

include "Obs/Transforms/GPUPasses.td"

#endif // OBS_TRANSFORMS_PASSES_TD
