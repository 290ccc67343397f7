//===- GPUPasses.td - obs passes on gpu.modules -------------*- tablegen -*-===//
//
// The passes that refine the gpu.module the kernels lower to, and make its
// binary; Passes.td includes this file.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_TRANSFORMS_GPUPASSES_TD
#define OBS_TRANSFORMS_GPUPASSES_TD

include "mlir/Pass/PassBase.td"

def ObsGPUIndexWidth : Pass<"obs-gpu-index-width", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Compute a gpu.module's indices in 32 bits where every one "
                "fits";
  let description = [{
    `index` is 64 bits wide on the host, and so it is in PTX by default:
    every element offset, comparison and mask of a kernel is a 64-bit
    operation, which the GPU issues as two. This pass, run on a gpu.module
    before convert-gpu-to-nvvm, proves with MLIR's integer range analysis
    (the kernels' known block and grid sizes bound the thread and block
    ids) that every `index` value of every kernel in the module lies in
    `[-2^31, 2^31)`, every index operand of an op that reads it as
    unsigned (`index_castui`, `divui`, `remui`, `ceildivui`, `shrui`) in
    `[0, 2^31)`, every memref has a static shape of fewer than 2^31
    elements (the lowering's linear offsets) and every `scf.for`'s bound
    plus its step fits; then 32-bit arithmetic computes the same values, and it
    writes the module's data layout `#dlti.dl_spec<index = 32 : i64>`, from
    which convert-gpu-to-nvvm takes the index width. A value the analysis
    cannot bound (an index cast from 64-bit data, a product that may grow
    past 2^31, an argument of type `index`, as the run-time sizes of a
    launch whose sizes are known only at run time) leaves the module at 64
    bits. Pointers stay 64 bits: a 32-bit offset is sign-extended into
    the address.
  }];
  let dependentDialects = ["::mlir::DLTIDialect"];
  let statistics = [
    Statistic<"numNarrowed", "narrowed-modules",
              "gpu.modules whose indices are 32 bits wide">
  ];
}

def ObsPreciseGPUMath
    : Pass<"obs-precise-gpu-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Correctly rounded square roots, and 16-bit magnitudes, in a "
                "gpu.module, as on the host";
  let description = [{
    convert-gpu-to-nvvm calls libdevice for `math.sqrt` on f32 (and f16,
    through f32): `__nv_sqrtf`, which is `sqrt.approx.f32` unless the
    module asks for precise square roots, and for `math.rsqrt`
    `__nv_rsqrtf` and `__nv_rsqrt`, `rsqrt.approx`. The host (ref, cpu)
    computes an IEEE square root, correctly rounded, and `1 / sqrt(x)`
    for rsqrt, so the PTX answered differently (read in the PTX: an
    adversarial run; nvcc's default is the precise square root too). This
    pass, before convert-gpu-to-nvvm, writes `math.sqrt` of f16, bf16 and
    f32 as PTX's `sqrt.rn.f32` (inline; the 16-bit types through f32,
    which rounds their roots once: f32 has more than twice their digits
    and two), and every `math.rsqrt` as a division of 1 by the square
    root (`rcp.rn`). An f64 square root is libdevice's `sqrt.rn.f64`
    already. And IEEE's sign-bit operations, `math.absf`, `arith.negf`
    and `math.copysign` on f16, bf16, f32 and f64, become the operations on
    the bits that IEEE defines them to be, as on the host: the sign bit
    cleared, flipped, or taken from the second operand. NVPTX computes the
    16-bit ones through f32 (copysign on every chip, abs and neg on chips
    without 16-bit arithmetic), whose conversions make a NaN's payload the
    canonical one, and PTX's `neg.f32`, `neg.f64` and `abs.f32` leave the
    NaN they give unspecified (found by adversarial runs, reading the PTX:
    16-bit absf, then copysign, then f32 and f64). And `arith.remf` of
    f16, bf16 and f32 is computed in f64 and narrowed: libdevice's
    `__nv_fmodf` divides with `div.approx.f32`, whose reciprocal of a
    subnormal divisor overflows (2^-140 rem 2^-149 comes out infinite,
    traced by hand through the PTX, where the remainder is 0), and
    `__nv_fmod` is exact; a
    remainder is exact in its type, so the narrowing rounds nothing.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "math.sqrt, math.rsqrt and "
              "sign-bit operations and remainders made precise">
  ];
}

def ObsMergeShuffles : Pass<"obs-merge-shuffles", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Merge a block's identical shfl.sync ops, and drop unused ones";
  let description = [{
    MLIR's CSE and LLVM leave `nvvm.shfl.sync` alone: it is an op with
    effects, and convergent. Yet a shuffle only exchanges the SSA values its
    lanes give, and every lane of a block (a basic block) runs that block's
    ops together, so a second shuffle with the same operands and attributes
    in the same block gives every lane what the first gave it, and a shuffle
    whose value no op uses changes nothing. The kernel lowering leaves both
    behind: a read of an array in shuffles exchanges every round's value
    before the round its element is in folds (and the others go unused),
    and two reads of one element (a compare-and-swap's, one per output
    element) exchange the same value twice.

    Run after canonicalization and CSE, which make the operands of equal
    shuffles the same values. The proof does not depend on it: the
    simulation checks every shuffle the lowering emits, before this pass.

    ```mlir
    %a = nvvm.shfl.sync bfly %m, %v, %c1, %c31 : i32 -> i32
    %b = nvvm.shfl.sync bfly %m, %v, %c1, %c31 : i32 -> i32  // becomes %a
    %c = nvvm.shfl.sync bfly %m, %w, %c1, %c31 : i32 -> i32  // unused: erased
    ```
  }];
  let statistics = [
    Statistic<"numMerged", "shuffles-merged",
              "shfl.sync ops replaced by an identical one before them">,
    Statistic<"numErased", "shuffles-erased",
              "shfl.sync ops whose value no op used">
  ];
}

def ObsNVVMReductions : Pass<"obs-nvvm-reductions", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Atomics whose old value is unused become PTX reductions "
                "(`red`)";
  let description = [{
    A scatter with a combine lowers to `memref.atomic_rmw`, whose old value
    it never reads; NVPTX still emits `atom.*` into a register nobody uses.
    This pass, run on a gpu.module in the LLVM dialect (after
    convert-gpu-to-nvvm), turns each `llvm.atomicrmw` without uses in
    global or shared memory (address spaces 1 and 3), of an operation PTX's
    `red` has for its type, into the instruction itself, as inline PTX:

    ```mlir
    llvm.atomicrmw add %p, %v monotonic : !llvm.ptr<1>, i32
    // becomes
    llvm.inline_asm has_side_effects "red.global.add.u32 [$0], $1;", "l,r,~{memory}" %p, %v
    ```

    A `red` without qualifiers is relaxed at `.gpu` scope on every chip (the
    scope NVPTX also gives LLVM's default, system, scope), so only relaxed
    (`monotonic`) atomics become one;
    a stronger ordering keeps its atomic. With `relax-orderings`, every
    atomic is taken as relaxed: obs's PTX pipeline sets it, since the only
    atomics in obs's kernels are scatters' merges, which a block barrier or
    the kernel's end orders, and the `acq_rel` that `memref.atomic_rmw`
    lowers to is more than they ask for (NVPTX's own `atom` for them has no
    ordering either). A generic pointer into a kernel's argument is global
    memory. Integer add, and, or, signed and unsigned min and max on 32 and
    64 bits, and float add on f32 and, from sm_60 on, f64 are rewritten;
    anything else (float min and max, which NVPTX lowers to a
    compare-and-swap loop, narrow integers, pointers and vectors) is left
    alone. The cpu target runs the same gpu.func with the atomics as they
    are: only the PTX pipeline runs this pass.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"relaxOrderings", "relax-orderings", "bool", /*default=*/"false",
           "Take every atomic as relaxed, whatever its ordering (for "
           "atomics that something else orders, as obs's scatters)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The chip the PTX is for (sm_XX); below sm_60 an f64 add stays "
           "an atomic. Empty: any chip obs emits PTX for from sm_60 on">
  ];
  let statistics = [
    Statistic<"numReductions", "reductions", "Atomics turned into red">
  ];
}

def ObsNVVMWarpReductions
    : Pass<"obs-nvvm-warp-reductions", "::mlir::gpu::GPUModuleOp"> {
  let summary = "A warp's butterfly fold of an i32 by add, min, max, and, or "
                "or xor becomes one `redux.sync` (sm_80 and newer)";
  let description = [{
    The serial reduce network folds a whole warp's 32 values by butterflies
    (lib/Builder/Networks.cpp, `butterflyFold`): at each distance d of 1, 2,
    4, 8 and 16, every lane combines its value with lane `l xor d`'s. On
    sm_80 and newer PTX has that fold of an i32 as one instruction,
    `redux.sync`, for integer add, signed and unsigned min and max, and, or
    and xor. This pass, run on a gpu.module in the LLVM dialect (after
    convert-gpu-to-nvvm), finds each chain of five `nvvm.shfl.sync bfly`
    whose offsets are 1, 2, 4, 8 and 16 in some order, each with the full
    mask and clamp 31, each followed in its block by the same operation on
    the value it shuffles and the shuffle's result, and replaces the chain's
    last value with `nvvm.redux.sync` of its first:

    ```mlir
    %s1 = nvvm.shfl.sync bfly %full, %v, %c1, %c31 : i32 -> i32
    %v1 = llvm.add %v, %s1 : i32
    ... distances 2, 4, 8 and 16 ...
    %v5 = llvm.add %v4, %s5 : i32
    // %v5 becomes
    %v5 = nvvm.redux.sync add %v, %full : i32 -> i32
    ```

    The two are equal in every lane: each lane's butterfly folds all 32
    values, and these operations are associative and commutative on
    integers. Both need all 32 lanes to run them, which the shuffles'
    proof already asks (every lane of a shuffle's mask runs it), and the
    chain lies in one block, so a lane that runs its first shuffle runs it
    all. Values of the chain that something else uses stay. Only the PTX
    pipeline runs this pass: the cpu target and the proofs run the
    shuffles, which compute the same.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The chip the PTX is for (sm_XX); nothing is rewritten below "
           "sm_80, which has no redux.sync, or for no chip">
  ];
  let statistics = [
    Statistic<"numWarpReductions", "warp-reductions",
              "Butterfly folds turned into redux.sync">
  ];
}

def ObsGPUModuleToBinary : Pass<"obs-gpu-module-to-binary", "::mlir::ModuleOp"> {
  let summary = "gpu-module-to-binary with each kernel's PTX compiled on its "
                "own thread";
  let description = [{
    Upstream's `gpu-module-to-binary` compiles a gpu.module's LLVM IR to PTX
    as one LLVM module, on one thread: for a device program of a dozen
    kernels, such as the radix sort's, that is the largest serial step of
    the PTX pipeline. This pass does the same job, and where a module's
    kernels share nothing (each function and global is reached from at
    most one kernel, and none is a declaration, which libdevice would fill
    in each part), it compiles each kernel with what it reaches as a module
    of its own, on the context's threads, and joins their PTX into the one
    object the host code loads: the first part whole, the others after
    their header (`.version`, `.target`, `.address_size`), which must be the
    same in every part. No function is inlined across kernels and no global
    crosses them, so each kernel's code is what the whole module gives.

    Everything else is upstream's: other formats than `isa` (a cubin cannot
    be joined so), other targets, and modules whose kernels share anything
    are serialized whole. The result is a `gpu.binary` of the module's name,
    as upstream makes it.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"isa\"",
           "What to make of each gpu.module: llvm (offloading), isa (PTX "
           "text), bin (a cubin, by ptxas from `toolkit`) or fatbin">,
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "The CUDA toolkit's path, for bin and fatbin">,
    Option<"splitKernels", "split-kernels", "bool", /*default=*/"true",
           "Compile the kernels of a module to PTX each on its own thread "
           "where they share nothing (false: one LLVM module, as "
           "upstream)">
  ];
  let statistics = [
    Statistic<"numModulesSplit", "modules-split",
              "gpu.modules compiled to PTX kernel by kernel">,
    Statistic<"numParts", "parts", "Kernels compiled on their own">
  ];
}

#endif // OBS_TRANSFORMS_GPUPASSES_TD
