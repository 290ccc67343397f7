//===- Passes.td - obs conversion passes --------------------*- tablegen -*-===//

#ifndef OBS_CONVERSION_PASSES_TD
#define OBS_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ObsLowerReference : Pass<"obs-lower-reference", "::mlir::ModuleOp"> {
  let summary = "Lower obs kernels to sequential loops, one buffer per array "
                "(the ref target)";
  let description = [{
    The reference target, the oracle every other target is compared with.
    Each `obs.kernel @k` becomes `func.func @k` whose arguments are the
    kernel's arrays followed by one destination per result, each array as one
    memref per scalar of its element (a tuple's scalars in order; a nested
    array as extra dimensions). The body is sequential:

    * every array computed at the level of a program is materialised into a
      buffer of its own by a loop nest, each element computed by the
      op's `PullArrayOpInterface` from the buffers of its operands;
    * there are no threads: `obs.sync` is the identity and its placement and
      work assignment are ignored;
    * `two`, `ilv` and `one` copy each part into a buffer and run their
      sub-program on it, in a loop over the parts; `repeat` is a loop;
    * the results are copied into the destinations;
    * `obs.launch` calls the kernel's function once per block, in order, on
      copies of the block's chunks.

    Buffers are heap-allocated and freed at the end of the program region
    that made them.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect"
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Kernels lowered">,
    Statistic<"numBuffers", "buffers", "Arrays materialised in buffers">
  ];
}

def ConvertObsToGPU : Pass<"convert-obs-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower obs kernels to gpu.func in a gpu.module, and launches "
                "to gpu.launch_func";
  let description = [{
    Each `obs.kernel @k` becomes `gpu.func @k` in `gpu.module @obs_kernels`,
    a block-level program over the kernel's thread block, plus a host
    function `@k` that launches it on one block. Each `obs.launch @k
    grid(G)` becomes a `gpu.launch_func` of an instance of `@k` for G blocks
    (`@k_grid<G>`), in which block `b` reads and writes the `b`-th chunk of
    each memref.

    Each sync is a stage: every thread computes the elements its work
    assignment gives it (round by round, the element index built from
    `gpu.thread_id`), with the stage's pure computation inlined through the
    index functions, stores them into the sync's workgroup buffer, and
    meets the others at a barrier: `gpu.barrier` for block scope,
    `nvvm.bar.warp.sync` with the warp's mask for warp scope. Kernel
    arguments are read from global memory where the first stage needs them;
    results are written to global memory by the last stage, under its own
    assignment (a sync whose result is only returned writes straight to
    global memory). An in-place sync writes the buffer its stage reads.

    `obs.repeat` becomes an `scf.for` over two buffers that swap each
    iteration (chosen from the loop counter, so that no value but the thread
    id and loop counters lives across a barrier).

    Kernels must be flat (`--obs-flatten`): a `two`, `ilv` or `one` holding
    a sync is an error. The element code is left general; the pipelines
    specialise it with `gpu.func`'s `known_block_size`, integer range
    optimisations and canonicalization.

    A kernel whose workgroup buffers need more than `max-shared-bytes` is an
    error naming the kernel and its bytes, whatever ran before (with
    `obs-plan-shared`, buffers share memory; without it, each has its own),
    so that no pipeline emits PTX that ptxas refuses or runs on the cpu
    target a kernel no GPU block could hold.

    An instance's memref arguments say what every launch of it passes:
    `llvm.noalias` where each launch passes an allocation no other argument
    of the launch reaches, and `llvm.align` with the alignment all of them
    have (an allocation the host code makes gets 16 bytes where it has no
    alignment of its own), so that LLVM loads inputs through the read-only
    path and makes a thread's contiguous accesses vectors. A host function
    that launches kernels takes distinct allocations aligned to 16 bytes:
    each public one checks both as it starts, and reports a caller outside
    the module that breaks this through `@obs_argument_contract(first,
    second)`, which obs's runners provide and which does not return: an
    error, not a wrong answer.
  }];
  let options = [
    Option<"maxSharedBytes", "max-shared-bytes", "uint64_t",
           /*default=*/"::mlir::obs::KernelOp::kMaxSharedBytes",
           "Shared memory a block may use">,
    Option<"guardEmptyGrids", "guard-empty-grids", "bool",
           /*default=*/"true",
           "Put each launch of a grid known only at run time in an scf.if "
           "(grid > 0): CUDA refuses a grid of 0. Off, the launch is made "
           "whatever the grid, for a runtime whose mgpuLaunchKernel runs "
           "nothing for an empty grid (obs's does), and the host code stays "
           "one block (gpu-async-region then puts its launches on one stream "
           "with no synchronisation between them)">,
    Option<"runTimeChecks", "run-time-checks", "bool", /*default=*/"false",
           "Check as the kernels run what the proof leaves to run time "
           "(what depends on data), the cpu target's code: each obs.scatter "
           "without a combine counts the writes of each place and reports a "
           "second one through @obs_scatter_collision(block, place, line, "
           "column), and "
           "each place an obs.index reads outside its array is reported "
           "through @obs_index_outside(block, index, length, line, column), "
           "line and column being the op's place in the source">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::ub::UBDialect"
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Kernels lowered">,
    Statistic<"numStages", "stages", "Stages (one per sync and output)">,
    Statistic<"numBlockBarriers", "block-barriers", "gpu.barrier emitted">,
    Statistic<"numWarpBarriers", "warp-barriers",
              "nvvm.bar.warp.sync emitted">,
    Statistic<"numRegisterStages", "register-stages",
              "Stages whose arrays stay in registers (no buffer, no barrier)">,
    Statistic<"numShuffleStages", "shuffle-stages",
              "Stages whose arrays stay in registers and are exchanged "
              "within warps by shfl.sync (no buffer, no barrier)">,
    Statistic<"numSharedBytes", "shared-bytes",
              "Bytes of workgroup memory, over all kernels">
  ];
}

def ObsGPUToCPU : Pass<"obs-gpu-to-cpu", "::mlir::ModuleOp"> {
  let summary = "Run gpu.func kernels on the CPU: split at barriers into "
                "loops over threads";
  let description = [{
    The cpu target runs the very `gpu.func` that becomes PTX. Each kernel
    of a `gpu.module` becomes `func.func @<name>.block`, which runs one block:
    its body is split at barriers into loops over the block's threads, so a
    block barrier (`gpu.barrier`) ends a loop over all threads, and a warp
    barrier (`nvvm.bar.warp.sync`) ends a loop over the threads of one warp:
    between block barriers, warps run one after the other, each through all
    its warp-synchronous steps. A block barrier that was wrongly relaxed to
    a warp barrier therefore changes the result under some order.

    `order` sets the order of threads and of warps: `forward`, `reverse`, or
    `shuffle` (a permutation drawn from `seed`), so that a race shows. Loops
    around barriers (a `repeat`) stay outside the thread loops. Workgroup
    buffers become one allocation per block; `gpu.launch_func` becomes a
    loop over the blocks of the grid calling `@<name>.block`, in the order
    `block-order` sets (`block-seed` for its shuffle): each block runs to
    its end before the next starts, so a block that reads what another
    writes gets a different result under some order.

    The kernel must keep the lowering's invariant: no value computed by a
    thread is used after a barrier. A kernel that breaks it, or that has a
    barrier under a condition, is rejected.
  }];
  let options = [
    Option<"order", "order", "::mlir::obs::ExecutionOrder",
           /*default=*/"::mlir::obs::ExecutionOrder::Forward",
           "Order of threads and warps", "OBS_EXECUTION_ORDER_VALUES">,
    Option<"seed", "seed", "uint64_t", /*default=*/"1",
           "Seed of the shuffled order of threads and warps">,
    Option<"blockOrder", "block-order", "::mlir::obs::ExecutionOrder",
           /*default=*/"::mlir::obs::ExecutionOrder::Forward",
           "Order of a launch's blocks", "OBS_EXECUTION_ORDER_VALUES">,
    Option<"blockSeed", "block-seed", "uint64_t", /*default=*/"1",
           "Seed of the shuffled order of blocks">,
    Option<"runTimeOrders", "run-time-orders", "bool", /*default=*/"false",
           "Make the orders data the code reads (public globals "
           "obs_thread_order_<count>, obs_block_order_<count> and "
           "obs_*_order_affine, Obs/Support/ExecutionOrder.h), filled with "
           "the orders given here and which a runner may fill again before "
           "a run, so that one compiled program runs in every order">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
  let statistics = [
    Statistic<"numThreadLoops", "thread-loops",
              "Loops over the threads of a block">,
    Statistic<"numWarpLoops", "warp-loops",
              "Loops over the threads of one warp">
  ];
}

def ObsVerifyHostCode : Pass<"obs-verify-host-code", "::mlir::ModuleOp"> {
  let summary = "Refuse a module that still holds obs ops before the host "
                "pipeline";
  let description = [{
    The host pipeline (`obs-host-to-llvm`) lowers func, scf, arith, math,
    memref and cf to the LLVM dialect, module-wide. On a module that still
    holds obs kernels, it lowered their element code as host code, and the
    kernels no longer verified. This pass, first in the host pipeline, is an
    error at the first obs op left, saying to lower obs first (every
    target's pipeline does before its host pipeline).
  }];
}

def ObsLowerHostChecks : Pass<"obs-lower-host-checks", "::mlir::ModuleOp"> {
  let summary = "Lower host functions' cf.assert to a call of the runner's "
                "obs_host_check";
  let description = [{
    The checks `obs-check-host-code` adds (and any `cf.assert` a host
    function holds) branch, where they fail, to one call of the runner's
    `void obs_host_check(ptr message)` with the assert's message, which
    stops the run with that one line and exit status 1 (obs-run), where
    upstream's lowering of `cf.assert` prints and aborts. Part of the host
    pipeline, after scf is lowered to cf and before cf is lowered to LLVM.
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def ObsRenameLibrarySymbols
    : Pass<"obs-rename-library-symbols", "::mlir::ModuleOp"> {
  let summary = "Rename host functions named like C library functions";
  let description = [{
    A function the program defines (`func.func` with a body, in the
    module) under a name LLVM knows as a C library function's on this host
    (`erf`, `round`, `free`, ...) is renamed with the prefix `obs.`, with
    every use. Left as it is, the name is the library's once the host code
    is LLVM IR: convert-math-to-libm would call the user's function for a
    kernel's `math.erf`, and LLVM folds a call of a function of that name
    as the library's. Declarations keep their names: they are the library's
    functions, or the runner's. obs-run and every runner find a renamed
    entry or kernel by `getHostSymbolName`. A function whose new name is
    taken is an error at it. The host pipelines of every target run this
    first.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def ObsPreciseMathToLibm
    : Pass<"obs-precise-math-to-libm", "::mlir::ModuleOp"> {
  let summary = "Call libm for math.expm1 and math.log1p, which "
                "convert-math-to-llvm computes as exp(x) - 1 and log(1 + x)";
  let description = [{
    `expm1` and `log1p` exist for small x, where `exp(x) - 1` and
    `log(1 + x)` lose every digit: upstream's convert-math-to-llvm lowers
    them so (log1p unless told not to), which gave 1.19e-7 for
    `expm1(6e-8)` on ref and cpu, and 0 for `log1p(1e-40)`, where the PTX
    calls libdevice's `__nv_expm1f`. This pass, before
    convert-math-to-llvm on the host (ref, cpu and the cuda target's host
    code), calls libm's `expm1` and `log1p` (`expm1f`, `log1pf` for f32;
    f16 through f32) as convert-math-to-libm does, and leaves every other
    math op to convert-math-to-llvm.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def ObsHostMemoryToGPU : Pass<"obs-host-memory-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Put the memory of host code lowered for the cuda target on "
                "the device";
  let description = [{
    On the cuda target, kernels read and write the memory that host
    functions allocate and pass them, so that memory must be the device's.
    After `convert-obs-to-gpu`, in every host function, `memref.alloc`
    becomes `gpu.alloc`, `memref.dealloc` becomes `gpu.dealloc` and
    `memref.copy` becomes `gpu.memcpy`, which `gpu-async-region` and
    `gpu-to-llvm` then turn into calls of obs's CUDA runtime on one stream.

    Host code that reads or writes memory itself (a `memref.load` in a
    loop on the host) cannot touch device memory. Then the module's memory
    is the kind host and device share (CUDA's managed memory): the module
    gets `obs.host_memory_shared`, its allocations are left for
    `obs-host-shared-allocs-to-gpu` (a shared allocation cannot be ordered
    on a stream, so it is made after `gpu-async-region`), and the program
    that runs it gives the entry's arguments memory of that kind too.
    `gpu-async-region` waits for the device before every such access.

    What device memory cannot hold is an error: memory on the host's stack
    (`memref.alloca`), a global, or a copy between memrefs of different
    layouts.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
  let statistics = [
    Statistic<"numAllocations", "allocations", "Allocations made on the device">,
    Statistic<"numCopies", "copies", "Copies made by the device">
  ];
}

def ObsHostSharedAllocsToGPU
    : Pass<"obs-host-shared-allocs-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Make the allocations of a module whose host code touches "
                "memory shared between host and device";
  let description = [{
    In a module with `obs.host_memory_shared` (see
    `obs-host-memory-to-gpu`), every `memref.alloc` of host code becomes
    `gpu.alloc host_shared`: memory that both the host code and the kernels
    read and write. It runs after `gpu-async-region`, since a shared
    allocation is not ordered on a stream.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
  let statistics = [
    Statistic<"numAllocations", "allocations",
              "Allocations made in memory host and device share">
  ];
}

def ObsScopeLaunchParameters
    : Pass<"obs-scope-launch-parameters", "::mlir::ModuleOp"> {
  let summary = "Give back the host stack each kernel launch's parameters "
                "take, once the launch is made";
  let description = [{
    Upstream's translation of `gpu.launch_func` to LLVM IR puts the
    launch's parameters (the arguments' struct and the array of pointers
    to them that `cuLaunchKernel` takes) in `alloca`s where the launch is.
    In a loop of the host those are dynamic allocas, which LLVM frees only
    when the function returns: every iteration took 32 to 64 more bytes of
    stack, and a loop of a few hundred thousand launches overflowed it
    (hunt 23). After `gpu-to-llvm`, every `gpu.launch_func` in host code
    is put between `llvm.intr.stacksave` and `llvm.intr.stackrestore`.
    `cuLaunchKernel` copies the parameters before it returns, so nothing
    reads them after the restore.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let statistics = [
    Statistic<"numScoped", "launches-scoped",
              "Launches whose parameters' stack is given back after them">
  ];
}

#endif // OBS_CONVERSION_PASSES_TD
