//===- ObsDialect.td - The obs dialect ---------------------*- tablegen -*-===//
//
// Obsidian's array language and GPU programs as an MLIR dialect.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_DIALECT_OBS_OBSDIALECT_TD
#define OBS_DIALECT_OBS_OBSDIALECT_TD

include "mlir/IR/OpBase.td"

def Obs_Dialect : Dialect {
  let name = "obs";
  let cppNamespace = "::mlir::obs";
  let summary = "Obsidian's pull arrays, combinators and synchronised GPU programs";
  let description = [{
    The `obs` dialect is Obsidian (Svensson, Claessen and Sheeran) in MLIR. A
    kernel is a computation between arrays: pure array programs built from
    combinators (`pair`, `riffle`, `two`, `ilv`, `fan`, ...) interspersed with
    `obs.sync` points, where the array computed so far is stored in shared
    memory and work is assigned to threads.

    Arrays (`!obs.arr<N x T>`) are *pull arrays*: a static length and a way to
    compute element `i`. They name no memory; only `obs.sync` does. Every op
    that produces an array implements `PullArrayOpInterface`, which emits the
    IR computing one element from elements of its operands; the reference
    target and the kernel lowering are both built on it.

    How a sync runs (work per thread, barrier scope, in-place storage) is a
    property of the sync that the user may write or the refinement passes may
    choose; either way `--obs-verify-sync` proves it safe.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  // The plan the passes hand on, and what the lowering records for the
  // analyses to map a gpu.func back to its kernel (each checked by
  // verifyOperationAttribute; named only through their helpers):
  //  - launch_overlaps, on a kernel launched in place (an output over an
  //    input): the pairs of its elements that share a place within a block,
  //    read operand, read element, written operand, written element, four
  //    numbers each (obs-collect-launch-overlaps);
  //  - shared_bytes, on a kernel: the bytes of the one arena its shared
  //    buffers are views of (obs-plan-shared);
  //  - shared_offsets, on a sync, repeat or scatter: the byte offsets in the arena of
  //    its buffer's components, multiples of 16 (obs-plan-shared);
  //  - shared_padding, on a sync or repeat of an array of rows: the
  //    elements its shared buffers leave after each row (an i64 from 1 to
  //    32), so that a warp reading a column meets distinct banks
  //    (obs-plan-shared);
  //  - sync_index, on a lowered barrier: the position in program order of
  //    the sync it ends (-1: none);
  //  - in_place, on a lowered barrier: its stage overwrote what it read;
  //  - owner, on a workgroup buffer or view: the location of the sync,
  //    repeat or scatter whose array it stores;
  //  - owner_index, on a workgroup buffer: that owner's position among the
  //    kernel's syncs, repeats and scatters in program order;
  //  - arena, on the workgroup buffer that is the shared-memory plan's arena;
  //  - host_memory_shared, on a module lowered for the cuda target whose host
  //    code reads or writes memory itself: its memory is the kind host and
  //    device share (obs-host-memory-to-gpu), its arguments' included;
  //  - tiled_columns, on the launch of one dimension that
  //    obs-expand-device makes of a tiled launch (`grid(R, C)`): C, so that
  //    the launch proof names its block b as the user wrote it, (b floordiv
  //    C, b mod C);
  //  - host_checked, on a host func.func whose memref accesses and views
  //    obs-check-host-code has given their run-time checks: they are
  //    not given them again (a program obs-optimize refined, lowered
  //    later), and code obs adds to the function later is obs's own;
  //  - recorded_launches, on a module instrumented by obs-record-launches:
  //    the names of the kernels its records number;
  //  - data, on a lowered gpu.block_id: the block index as the kernel's own
  //    code uses it (obs.block_id, obs.extent), which the simulation takes
  //    to be any value, since one plan serves every block;
  //  - checked_scatter, on a lowered store of a scatter without a combine
  //    whose place may depend on data: the ref and cpu targets check at run
  //    time that no place is written twice, so the proof leaves two such
  //    stores of one scatter to that check (and to nothing else); and on
  //    the workgroup buffer in which the cpu target's code counts the
  //    writes (not shared memory a GPU block needs);
  //  - chain_publish and chain_observe, on the memref.atomic_rmw ops of an
  //    obs.carry's look-back that write a tile's state into the chain
  //    (an exchange) and read one (an or of 0): the cpu target answers a
  //    read with a state the word held earlier (Obs/Support/
  //    RuntimeFunctions.h), which a GPU's reads may meet;
  //  - register_read, on the lowered check `owner == thread id` beside a
  //    read of an array kept in registers: the index of the sync whose
  //    array it reads. The simulation evaluates it in every thread; the
  //    value read is right only where it holds.
  //  - shuffle_read, likewise beside a read of an array exchanged by
  //    shuffles (the check `owner == thread id`, which holds in the warp
  //    sense: the owner must be a lane of the reader's warp) and on each
  //    nvvm.shfl.sync of the read, which every lane its mask names must
  //    run together: the index of the sync whose array it reads.
  //  - index_bounds, on the lowered check `index < length` (an arith.cmpi
  //    ult) of each place an obs.index reads, located at the obs.index:
  //    the simulation evaluates it in every thread and rejects a place
  //    outside the array; the read takes element 0 where it fails, and the
  //    ref and cpu targets report a failure as they run.
  //  - keeps_fold, on an obs.scan or obs.reduce without a network that
  //    obs-expand-networks left as the fold it is written as (it was not
  //    in the kernel's body, or did not take the serial network by
  //    default): a later run keeps it so even once obs-flatten has lifted
  //    it into the kernel's body, as the reference target, which decides
  //    on the kernel as written, folds it (a float sum must agree bit for
  //    bit);
  //  - own_lanes_kept, on such an nvvm.shfl.sync whose read selects, in
  //    the lanes that read an element they computed themselves (where the
  //    read's check holds exactly), their own value instead of the
  //    shuffle's: the simulation does not ask those lanes' shuffle to take
  //    from the owner, since what it gives them is not used.
  // And four the user writes, on a kernel's argument (verified by
  // verifyRegionArgAttribute):
  //  - absent: the value an absent element of the argument reads as, in a
  //    launch whose sizes are known only at run time: a typed scalar, or an
  //    array of them for a tuple element, one per scalar;
  //  - global: the argument is the launch's memref whole, the same in every
  //    block, read at any place (a merge reads where a search finds): its
  //    length is the memref's, and no operand of the launch may write its
  //    allocation (--obs-verify-launches);
  //  - chain: the argument is the launch's chain (an !obs.arr<N x i64>
  //    whose memref every block sees whole): word 0 counts the blocks
  //    that have started, words 1 + t K to t K + K hold tile t's published
  //    states, one per element of the carry's K. Only
  //    obs.carry uses it; a kernel with one takes its tile as a ticket;
  //  - halo: an #obs.halo<width, boundary>, the argument is the block's
  //    tile and `width` places on each side, read past the memref's ends as
  //    `boundary` says; --obs-expand-device makes it an obs.global argument
  //    and the reads of those places.
  let discardableAttrs = (ins
    "::mlir::DenseI64ArrayAttr":$launch_overlaps,
    "::mlir::IntegerAttr":$shared_bytes,
    "::mlir::DenseI64ArrayAttr":$shared_offsets,
    "::mlir::IntegerAttr":$shared_padding,
    "::mlir::IntegerAttr":$sync_index,
    "::mlir::UnitAttr":$in_place,
    "::mlir::LocationAttr":$owner,
    "::mlir::IntegerAttr":$owner_index,
    "::mlir::UnitAttr":$arena,
    "::mlir::UnitAttr":$host_memory_shared,
    "::mlir::UnitAttr":$host_checked,
    "::mlir::IntegerAttr":$tiled_columns,
    "::mlir::UnitAttr":$data,
    "::mlir::UnitAttr":$checked_scatter,
    "::mlir::UnitAttr":$chain_publish,
    "::mlir::UnitAttr":$chain_observe,
    "::mlir::IntegerAttr":$register_read,
    "::mlir::IntegerAttr":$shuffle_read,
    "::mlir::UnitAttr":$index_bounds,
    "::mlir::UnitAttr":$own_lanes_kept,
    "::mlir::UnitAttr":$keeps_fold,
    "::mlir::ArrayAttr":$recorded_launches,
    "::mlir::Attribute":$absent,
    "::mlir::UnitAttr":$global,
    "::mlir::UnitAttr":$chain,
    "::mlir::Attribute":$halo
  );
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 0;
  let extraClassDeclaration = [{
    /// A check every obs.kernel's verifier runs after its own, for a tool
    /// that shows more than the structure's errors: obs-lsp-server sets the
    /// sync proof, so that an editor shows a racy kernel's errors. (This
    /// library cannot call the proof, which is built on it.)
    using KernelCheck =
        std::function<::mlir::LogicalResult(::mlir::Operation *kernel)>;
    void setKernelCheck(KernelCheck check) { kernelCheck = std::move(check); }
    const KernelCheck &getKernelCheck() const { return kernelCheck; }
    /// A check the verifier runs on a module with launches, once (at the
    /// first obs.launch's symbol uses): obs-lsp-server sets the launch
    /// proof, so that an editor shows blocks that race.
    using LaunchCheck =
        std::function<::mlir::LogicalResult(::mlir::Operation *module)>;
    void setLaunchCheck(LaunchCheck check) { launchCheck = std::move(check); }
    const LaunchCheck &getLaunchCheck() const { return launchCheck; }

    /// The kernels obs-verify-sync proved in this context, by a hash of
    /// their content (the kernel printed whole, in the generic form: every
    /// op, attribute, type and location). A pipeline that refines and then
    /// lowers in one context proves the refined kernels at the end of
    /// obs-optimize; the lowering's obs-verify-sync finds the same kernel
    /// here and does not run the same proof again, and its launch proof
    /// reads the block that proof simulated (`proof`, a KernelSimulation:
    /// this library cannot name it) rather than simulate it again. A kernel
    /// changed in any way since has another content, and is proved.
    /// Thread-safe: kernels are proved in parallel.
    /// What identifies a kernel's proof: the hash of its content.
    using ProofKey = std::array<uint8_t, 32>;
    static ProofKey getProofKey(::mlir::Operation *kernel);
    void recordProvedKernel(const ProofKey &key,
                            std::shared_ptr<const void> proof = nullptr);
    bool isProvedKernel(const ProofKey &key) const;
    /// What the proof of the kernel with `key` left, if it is among the
    /// most recent proofs; otherwise null.
    std::shared_ptr<const void> getKernelProof(const ProofKey &key) const;

    /// What is known of a kernel's code alone (its fingerprintKernelCode,
    /// without the plan or the ops' identities), shared by everything in
    /// this context that lowers the same code: obs-assign-work's copies of
    /// a kernel, one per strategy, the passes after it and the lowering.
    /// One `Entry` (default-constructed when the code is seen first) per
    /// code and type, which locks itself. Thread-safe; the most recent
    /// entries of each type are kept.
    using CodeKey = std::array<uint8_t, 20>;
    template <typename Entry>
    std::shared_ptr<Entry> getCodeEntry(const CodeKey &key) {
      return std::static_pointer_cast<Entry>(
          getCodeEntry(::mlir::TypeID::get<Entry>(), key,
                       [] { return std::make_shared<Entry>(); }));
    }

  private:
    KernelCheck kernelCheck;
    LaunchCheck launchCheck;
    /// The most recent proved kernels (a context that compiles many
    /// programs keeps a bounded list).
    static constexpr unsigned kProvedKernelsKept = 256;
    /// Of which the most recent keep what their proof left: each holds
    /// every access of a simulated block.
    static constexpr unsigned kProofsKept = 8;
    mutable std::mutex provedKernelsMutex;
    struct ProvedKernel {
      ProofKey key;
      std::shared_ptr<const void> proof;
    };
    std::deque<ProvedKernel> provedKernels;
    /// The most recent entries (getCodeEntry), by type and code:
    /// kCodeEntriesKept of each type.
    std::shared_ptr<void>
    getCodeEntry(::mlir::TypeID type, const CodeKey &key,
                 ::llvm::function_ref<std::shared_ptr<void>()> create);
    static constexpr unsigned kCodeEntriesKept = 64;
    std::mutex codeEntriesMutex;
    struct CodeEntry {
      ::mlir::TypeID type;
      CodeKey key;
      std::shared_ptr<void> entry;
    };
    std::deque<CodeEntry> codeEntries;

  public:
  }];
}

class Obs_Op<string mnemonic, list<Trait> traits = []>
    : Op<Obs_Dialect, mnemonic, traits>;

#endif // OBS_DIALECT_OBS_OBSDIALECT_TD
