//===- ObsAttributes.td - the properties of a sync ----------*- tablegen -*-===//

#ifndef OBS_DIALECT_OBS_OBSATTRIBUTES_TD
#define OBS_DIALECT_OBS_OBSATTRIBUTES_TD

include "Obs/Dialect/Obs/ObsDialect.td"
include "Obs/Dialect/Obs/ObsInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Obs_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Obs_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Scope and placement
//===----------------------------------------------------------------------===//

def Obs_SyncScope : I32EnumAttr<"SyncScope",
    "which threads a sync's barrier waits for", [
      I32EnumAttrCase<"Block", 0, "block">,
      I32EnumAttrCase<"Warp", 1, "warp">
    ]> {
  let cppNamespace = "::mlir::obs";
  let genSpecializedAttr = 0;
}

def Obs_SyncScopeAttr : EnumAttr<Obs_Dialect, Obs_SyncScope, "scope"> {
  let summary = "barrier scope of a sync: `block` (bar.sync) or `warp` (bar.warp.sync)";
  let assemblyFormat = "`<` $value `>`";
}

def Obs_Placement : I32EnumAttr<"Placement",
    "where a sync stores the array it materialises", [
      I32EnumAttrCase<"Fresh", 0, "fresh">,
      I32EnumAttrCase<"InPlace", 1, "inplace">
    ]> {
  let cppNamespace = "::mlir::obs";
  let genSpecializedAttr = 0;
}

def Obs_PlacementAttr : EnumAttr<Obs_Dialect, Obs_Placement, "placement"> {
  let summary = "placement of a sync: a `fresh` buffer or `inplace` over its input";
  let assemblyFormat = "`<` $value `>`";
}

def Obs_WorkStrategy : I32EnumAttr<"WorkStrategy",
    "how obs-assign-work deals out the stages that have no work assignment", [
      I32EnumAttrCase<"Strided", 0, "strided">,
      I32EnumAttrCase<"Blocked", 1, "blocked">,
      I32EnumAttrCase<"Compact", 2, "compact">,
      I32EnumAttrCase<"Cost", 3, "cost">
    ]> {
  let cppNamespace = "::mlir::obs";
  let genSpecializedAttr = 0;
}

def Obs_WorkStrategyAttr : EnumAttr<Obs_Dialect, Obs_WorkStrategy,
                                    "strategy"> {
  let summary = "a kernel's work strategy: `strided<T>` (Obsidian's "
                "pairNth), `blocked<k>`, `compact<T>`, or `cost` (the one "
                "whose refined kernel the simulation finds cheapest)";
  let assemblyFormat = "`<` $value `>`";
}

def Obs_Storage : I32EnumAttr<"Storage",
    "where the array a sync materialises lives", [
      I32EnumAttrCase<"Shared", 0, "shared">,
      I32EnumAttrCase<"Registers", 1, "registers">,
      I32EnumAttrCase<"Shuffle", 2, "shuffle">
    ]> {
  let cppNamespace = "::mlir::obs";
  let genSpecializedAttr = 0;
}

def Obs_StorageAttr : EnumAttr<Obs_Dialect, Obs_Storage, "storage"> {
  let summary = "storage of a sync: `shared` memory (a buffer and a barrier), "
                "`registers` (each thread keeps the elements it computed) or "
                "`shuffle` (kept so, and exchanged within warps by shfl.sync)";
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Work assignment (Obsidian's How)
//===----------------------------------------------------------------------===//

def Obs_StridedAttr : Obs_Attr<"Strided", "strided",
    [DeclareAttrInterfaceMethods<Obs_WorkAssignmentAttrInterface,
                                 ["buildRoundInThread"]>]> {
  let summary = "element e is computed by thread e mod T in round e div T";
  let description = [{
    Obsidian's `pairNth T`: `T` threads sweep the array in rounds, thread `t`
    computing elements `t`, `t + T`, `t + 2T`, ... Consecutive threads touch
    consecutive elements in every round, so global accesses coalesce. An
    array of rows is swept by leaf, in row-major order (as `blocked` deals
    out runs of leaves): thread `t` computes leaf `t` of the rows laid end
    to end, so a warp works on consecutive elements of a row.

    ```mlir
    %1 = obs.sync strided<256> %0 : !obs.arr<512 x i32>
    ```
  }];
  let parameters = (ins "uint64_t":$threads);
  let assemblyFormat = "`<` $threads `>`";
  let genVerifyDecl = 1;
}

def Obs_BlockedAttr : Obs_Attr<"Blocked", "blocked",
    [DeclareAttrInterfaceMethods<Obs_WorkAssignmentAttrInterface,
                                 ["buildRoundInThread"]>]> {
  let summary = "thread t computes the k consecutive elements t*k .. t*k+k-1";
  let description = [{
    Each thread computes a contiguous run of `k` elements; the last thread may
    have fewer. The kernel needs `ceil(N / k)` threads.

    ```mlir
    %1 = obs.sync blocked<2> %0 : !obs.arr<8 x i32>
    ```
  }];
  let parameters = (ins "uint64_t":$elementsPerThread);
  let assemblyFormat = "`<` $elementsPerThread `>`";
  let genVerifyDecl = 1;
}

def Obs_CompactAttr : Obs_Attr<"Compact", "compact",
    [DeclareAttrInterfaceMethods<Obs_WorkAssignmentAttrInterface>]> {
  let summary = "T threads share out only the elements the stage writes";
  let description = [{
    The perfect division of labour that seed 000's `How` could not express:
    the elements a stage really writes are dealt to `T` threads in rounds,
    the k-th of them to thread `k mod T` in round `k div T`. An in-place
    stage writes only the elements that change (identity writes are
    dropped), so Sklansky's fan on 512 elements gives each of 256 threads
    exactly one element to compute; a fresh stage writes them all, and
    compact is then strided.

    As a work assignment, its "elements" are positions in that list of
    written elements; the lowering maps positions to elements.

    ```mlir
    %1 = obs.sync inplace compact<256> %0 : !obs.arr<512 x i32>
    ```
  }];
  let parameters = (ins "uint64_t":$threads);
  let assemblyFormat = "`<` $threads `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// The plan: what the refinement passes chose
//===----------------------------------------------------------------------===//

def Obs_SyncPlanAttr : Obs_Attr<"SyncPlan", "plan"> {
  let summary = "the properties of a sync that the refinement passes chose";
  let description = [{
    A sync's properties are either written by the user (the sync's `scope`,
    `placement` and `how`) or chosen by a refinement pass. Choices live
    here, apart from what was written, so that a pass can re-decide its own
    choices (obs-assign-work takes back a warp scope that its new work
    assignment makes unsafe) but can never replace a written property: a
    written property is kept, or the kernel is rejected. The plan names
    only properties the user left open; the sync verifier checks that.

    Printed like written properties, inside `plan(...)` on the sync:

    ```mlir
    %1 = obs.sync warp plan(inplace strided<256>) %0 : !obs.arr<512 x i32>
    ```
  }];
  let parameters = (ins
      OptionalParameter<"::mlir::obs::SyncScopeAttr">:$scope,
      OptionalParameter<"::mlir::obs::PlacementAttr">:$placement,
      OptionalParameter<"::mlir::obs::WorkAssignmentAttrInterface">:$how,
      OptionalParameter<"::mlir::obs::StorageAttr">:$storage);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// Whether the plan chooses nothing.
    bool isEmpty() const {
      return !getScope() && !getPlacement() && !getHow() && !getStorage();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Networks: how scan, sort and reduce are built from combinators
//===----------------------------------------------------------------------===//

def Obs_ScanNetwork : I32EnumAttr<"ScanNetwork",
    "the parallel prefix network an obs.scan expands into", [
      I32EnumAttrCase<"Sklansky", 0, "sklansky">,
      I32EnumAttrCase<"KoggeStone", 1, "kogge_stone">,
      I32EnumAttrCase<"BrentKung", 2, "brent_kung">,
      I32EnumAttrCase<"Serial", 3, "serial">
    ]> {
  let cppNamespace = "::mlir::obs";
  let genSpecializedAttr = 0;
}

def Obs_ScanNetworkAttr : EnumAttr<Obs_Dialect, Obs_ScanNetwork,
                                   "scan_network"> {
  let summary = "a prefix network: `sklansky`, `kogge_stone`, `brent_kung` "
                "or `serial`";
}

def Obs_SortNetwork : I32EnumAttr<"SortNetwork",
    "the sorting network an obs.sort expands into", [
      I32EnumAttrCase<"Periodic", 0, "periodic">,
      I32EnumAttrCase<"OddEvenMerge", 1, "odd_even_merge">,
      I32EnumAttrCase<"Bitonic", 2, "bitonic">
    ]> {
  let cppNamespace = "::mlir::obs";
  let genSpecializedAttr = 0;
}

def Obs_SortNetworkAttr : EnumAttr<Obs_Dialect, Obs_SortNetwork,
                                   "sort_network"> {
  let summary = "a sorting network: `periodic`, `odd_even_merge` or `bitonic`";
}

def Obs_ReduceNetwork : I32EnumAttr<"ReduceNetwork",
    "the association order of an obs.reduce", [
      I32EnumAttrCase<"Tree", 0, "tree">,
      I32EnumAttrCase<"Serial", 1, "serial">
    ]> {
  let cppNamespace = "::mlir::obs";
  let genSpecializedAttr = 0;
}

def Obs_ReduceNetworkAttr : EnumAttr<Obs_Dialect, Obs_ReduceNetwork,
                                     "reduce_network"> {
  let summary = "a reduction order: `tree` (pairwise, level by level) or "
                "`serial` (each thread's run, then the warps')";
}

def Obs_ScatterCombine : I32EnumAttr<"ScatterCombine",
    "how an obs.scatter merges values written to one place", [
      I32EnumAttrCase<"Add", 0, "add">,
      I32EnumAttrCase<"Min", 1, "min">,
      I32EnumAttrCase<"Max", 2, "max">,
      I32EnumAttrCase<"Or", 3, "or">,
      I32EnumAttrCase<"And", 4, "and">
    ]> {
  let cppNamespace = "::mlir::obs";
  let genSpecializedAttr = 0;
}

def Obs_ScatterCombineAttr : EnumAttr<Obs_Dialect, Obs_ScatterCombine,
                                      "scatter_combine"> {
  let assemblyFormat = "$value";
  let summary = "`min` or `max` (signed on integers), `add`, `or` or `and` "
                "(integers only: a float sum's rounding would depend on the "
                "order of the collisions)";
}

def Obs_ScanKind : I32EnumAttr<"ScanKind",
    "whether a device scan's element i includes input i", [
      I32EnumAttrCase<"Inclusive", 0, "inclusive">,
      I32EnumAttrCase<"Exclusive", 1, "exclusive">
    ]> {
  let cppNamespace = "::mlir::obs";
  let genSpecializedAttr = 0;
}

def Obs_ScanKindAttr : EnumAttr<Obs_Dialect, Obs_ScanKind, "scan_kind"> {
  let assemblyFormat = "$value";
  let summary = "`inclusive` (out[i] = e ⊕ a[0] ⊕ ... ⊕ a[i]) or "
                "`exclusive` (out[i] = e ⊕ a[0] ⊕ ... ⊕ a[i-1])";
}

//===----------------------------------------------------------------------===//
// Halos: a launch argument's tile and its neighbours
//===----------------------------------------------------------------------===//

def Obs_HaloBoundary : I32EnumAttr<"HaloBoundary",
    "what a halo reads at places past an array's ends", [
      I32EnumAttrCase<"Clamp", 0, "clamp">,
      I32EnumAttrCase<"Zero", 1, "zero">,
      I32EnumAttrCase<"Wrap", 2, "wrap">
    ]> {
  let cppNamespace = "::mlir::obs";
}

def Obs_HaloAttr : Obs_Attr<"Halo", "halo"> {
  let summary = "a kernel argument that is its block's tile and `width` "
                "places on each side";
  let description = [{
    On an argument `!obs.arr<L x T>` of a launched kernel, `#obs.halo<k,
    boundary>` makes each block's array its tile of `L - 2k` places of the
    memref and `k` places on each side: element `j` of block `b`'s array is
    place `p = b (L - 2k) + j - k` of the memref, of length `n`. A place
    outside `[0, n)` reads, by `boundary`: `clamp` the nearest end (`x[0]`
    before, `x[n - 1]` after), `zero` the argument's `obs.absent` value,
    `wrap` place `p mod n`. The launch passes the memref whole, as for an
    `obs.global` argument (`--obs-expand-device` makes it one), so the proofs
    see every place each block reads, and no operand of the launch may
    write its allocation.

    ```mlir
    obs.kernel @mean3(%x: !obs.arr<258 x f32>
                          {obs.halo = #obs.halo<1, clamp>,
                           obs.absent = 0.0 : f32}) -> !obs.arr<256 x f32>
    ```
  }];
  let parameters = (ins "uint64_t":$width,
                        "::mlir::obs::HaloBoundary":$boundary);
  let extraClassDeclaration = [{
    /// The tile of an argument of `length` places with this halo: the
    /// places left between the two sides.
    uint64_t getTileLength(uint64_t length) const {
      return length - 2 * getWidth();
    }
  }];
  let assemblyFormat = "`<` $width `,` $boundary `>`";
}

#endif // OBS_DIALECT_OBS_OBSATTRIBUTES_TD
