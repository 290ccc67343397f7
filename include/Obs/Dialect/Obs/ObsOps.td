//===- ObsOps.td - obs operations ---------------------------*- tablegen -*-===//

#ifndef OBS_DIALECT_OBS_OBSOPS_TD
#define OBS_DIALECT_OBS_OBSOPS_TD

include "Obs/Dialect/Obs/ObsDialect.td"
include "Obs/Dialect/Obs/ObsTypes.td"
include "Obs/Dialect/Obs/ObsAttributes.td"
include "Obs/Dialect/Obs/ObsInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Ops that only rearrange or combine the elements of their operands.
class Obs_ArrayOp<string mnemonic, list<Trait> traits = []>
    : Obs_Op<mnemonic, !listconcat(traits,
        [Pure, DeclareOpInterfaceMethods<Obs_PullArrayOpInterface>])>;

// Ops with a single-block region: the region is evaluated per element
// (element regions) or over whole arrays (program regions).
class Obs_RegionOp<string mnemonic, list<Trait> traits = []>
    : Obs_Op<mnemonic, !listconcat(traits,
        [RecursiveMemoryEffects, RecursivelySpeculatable,
         DeclareOpInterfaceMethods<Obs_PullArrayOpInterface>])> {
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Programs: kernel, return, sync
//===----------------------------------------------------------------------===//

def Obs_KernelOp : Obs_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove, AutomaticAllocationScope]> {
  let summary = "a block-level GPU program between arrays (Obsidian's `a :-> b`)";
  let description = [{
    A kernel is one thread block's program: pure array computations
    interspersed with `obs.sync`. Its arguments are read from global memory
    by the first stage that uses them; its results are written to global
    memory by the last stage. Arguments and results are `!obs.arr` values.

    `threads` fixes the number of threads of the block. Without it the kernel
    runs one thread per element of its largest synced or returned array.

    `strategy` fixes how obs-assign-work deals out the syncs that have no
    work assignment (`#obs.strategy<strided>`, `blocked`, `compact` or
    `cost`), whatever the pass's own option says: a kernel whose best
    strategy is known, such as the radix sort's scatter, is not simulated
    three times to find it again. The proofs check the result like any
    other.

    A kernel is public unless marked `private`: the GPU targets then compile
    it only for the launches that use it, and make no host function that runs
    it alone on one block (the kernels of `--obs-expand-device` are so).

    Example (seed 002's `increv`):

    ```mlir
    obs.kernel @increv(%a: !obs.arr<10 x i32>) -> !obs.arr<10 x i32> {
      %c1 = arith.constant 1 : i32
      %0 = obs.map %a : !obs.arr<10 x i32> -> !obs.arr<10 x i32> {
      ^bb0(%x: i32):
        %y = arith.addi %x, %c1 : i32
        obs.yield %y : i32
      }
      %1 = obs.sync %0 : !obs.arr<10 x i32>
      %2 = obs.rev %1 : !obs.arr<10 x i32>
      obs.return %2 : !obs.arr<10 x i32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$threads,
                       OptionalAttr<Obs_WorkStrategyAttr>:$strategy);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    /// The most threads a block may have.
    static constexpr uint64_t kMaxThreads = 1024;
    /// The most static shared memory a block may use, in bytes (48 KiB on
    /// every CUDA GPU; more needs dynamic shared memory and an opt-in).
    static constexpr uint64_t kMaxSharedBytes = 48 * 1024;
    /// The most bytes of parameters a kernel may take: PTX ISA 7.8's 4,352
    /// (0x1100; 32,764 needs ISA 8.1, CUDA 12.1 and sm_70).
    static constexpr uint64_t kMaxParameterBytes = 4352;
    /// The threads of a warp, which `warp` syncs order among themselves.
    static constexpr unsigned kWarpSize = 32;

    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    bool isDeclaration() { return false; }

    /// The block size this kernel runs with: `threads` when set, otherwise
    /// one thread per element of the largest synced or returned array.
    uint64_t getBlockThreads();

    /// Fails, with one line naming the kernel and its bytes, when `bytes`
    /// of shared memory are more than the `limit` a block may use: the
    /// check every path that plans or lowers a kernel makes.
    ::mlir::LogicalResult checkSharedMemory(uint64_t bytes, uint64_t limit);

    /// The `global` obs.scatter the kernel returns as its result `index`,
    /// or null: such a result is its launch's whole output memref.
    ::mlir::obs::ScatterOp getGlobalScatter(unsigned index);
  }];
}

def Obs_ReturnOp : Obs_Op<"return", [
    Pure, HasParent<"KernelOp">, ReturnLike, Terminator]> {
  let summary = "returns a kernel's result arrays";
  let description = [{
    Ends a kernel. The returned arrays are written to global memory.

    ```mlir
    obs.return %0 : !obs.arr<8 x i32>
    ```
  }];
  let arguments = (ins Variadic<Obs_Arr>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` qualified(type($results)))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let hasVerifier = 1;
}

def Obs_YieldOp : Obs_Op<"yield", [
    Pure, ReturnLike, Terminator,
    ParentOneOf<["GenerateOp", "MapOp", "EvensOp", "OddsOp", "FanOp", "TwoOp",
                 "IlvOp", "OneOp", "RepeatOp", "ReduceOp", "ScanOp", "SortOp",
                 "DeviceMapOp", "DeviceReduceOp", "DeviceScanOp", "DeviceSortOp"]>]> {
  let summary = "yields the values of a region";
  let description = [{
    Ends an element region (the flattened scalars of an element, or a nested
    array) or a program region (an array).

    ```mlir
    obs.yield %lo, %hi : i32, i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` qualified(type($values)))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
}

def Obs_SyncOp : Obs_Op<"sync", [
    Pure, SameOperandsAndResultType,
    DeclareOpInterfaceMethods<Obs_PullArrayOpInterface>,
    ParentOneOf<["KernelOp", "TwoOp", "IlvOp", "OneOp", "RepeatOp"]>]> {
  let summary = "stores an array in shared memory: a stage boundary";
  let description = [{
    `obs.sync` materialises its operand in shared memory and returns a pull
    array that reads that buffer (Obsidian's `sync`; `f ->>- g` is `f`, a
    sync, then `g`). It is the identity on values. Three properties say how it
    runs:

    * **how**, the work assignment: `strided<T>` (thread `e mod T` computes
      element `e` in round `e div T`, Obsidian's `pairNth T`), `blocked<k>`
      (thread `t` computes elements `t*k .. t*k+k-1`) or `compact<T>` (T
      threads share out only the elements the stage writes). Without one, the
      kernel's threads sweep the array (one thread per element when there are
      enough).
    * **scope**: `block` (a barrier for the whole block) or `warp` (a barrier
      for the threads of one warp: Obsidian's `syncWarp`).
    * **placement**: `fresh` (a new buffer) or `inplace` (the result
      overwrites the buffer the stage reads: Obsidian's `syncIP`).
    * **storage**: `shared` (a shared-memory buffer, and a barrier),
      `registers`: each thread keeps the elements it computed as values, and
      every element is read only by the thread that computed it, later in
      the kernel; or `shuffle`: each thread keeps its elements so, and a
      read of an element another lane of the same warp computed takes it
      from that lane by `shfl.sync`, which every lane of the warp runs
      together (a lane reading its own element in the round the stage
      computed it takes it from its registers). Such a stage has no buffer
      and no barrier, so a sync in registers or shuffles has neither scope
      nor placement. Its elements are scalars or tuples (of integers and
      floats of at most 64 bits, for shuffles), its work assignment
      `strided` or `blocked` (or the default sweep) of at most 16 rounds,
      and a repeat body does not yield it.

    A property the user leaves out is open: the refinement passes may choose
    it (`obs-assign-work`, `obs-elide-warp-syncs`, `obs-inplace`,
    `obs-promote-registers`), and until one does, a sync is `block`,
    `fresh` and `shared`, with the kernel's threads sweeping the array. What the passes choose is the sync's `plan`
    (`#obs.plan`, printed as `plan(...)`), kept apart from what was written:
    a written property is never replaced, only kept or, when unsafe,
    rejected. Either way `--obs-verify-sync` proves the choice safe.

    ```mlir
    %1 = obs.sync %0 : !obs.arr<512 x i32>
    %2 = obs.sync warp inplace strided<256> %1 : !obs.arr<512 x i32>
    %3 = obs.sync block plan(inplace strided<256>) %2 : !obs.arr<512 x i32>
    %4 = obs.sync registers blocked<2> %3 : !obs.arr<512 x i32>
    ```
  }];
  let arguments = (ins Obs_Arr:$input,
      OptionalAttr<Obs_SyncScopeAttr>:$scope,
      OptionalAttr<Obs_PlacementAttr>:$placement,
      OptionalAttr<AnyAttrOf<[Obs_StridedAttr, Obs_BlockedAttr,
                                       Obs_CompactAttr]>>:$how,
      OptionalAttr<Obs_StorageAttr>:$storage,
      OptionalAttr<Obs_SyncPlanAttr>:$plan);
  let results = (outs Obs_Arr:$result);
  let assemblyFormat = [{
    custom<SyncProperties>($scope, $placement, $how, $storage, $plan, $input)
    attr-dict `:` qualified(type($input))
  }];
  let builders = [OpBuilder<(ins "::mlir::Value":$input), [{
    build($_builder, $_state, input.getType(), input,
          ::mlir::obs::SyncScopeAttr(), ::mlir::obs::PlacementAttr(),
          ::mlir::Attribute(), ::mlir::obs::StorageAttr(),
          ::mlir::obs::SyncPlanAttr());
  }]>];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The work assignment as written, else as planned, or null for the
    /// kernel's default sweep.
    ::mlir::obs::WorkAssignmentAttrInterface getWorkAssignment() {
      if (auto written = ::llvm::dyn_cast_if_present<
              ::mlir::obs::WorkAssignmentAttrInterface>(getHowAttr()))
        return written;
      if (::mlir::obs::SyncPlanAttr plan = getPlanAttr())
        return plan.getHow();
      return {};
    }
    ::mlir::obs::ArrType getType() {
      return ::llvm::cast<::mlir::obs::ArrType>(getResult().getType());
    }
    /// Whether the sync's array is what its repeat body yields (the
    /// repeat stores it in the buffer its next iteration reads).
    bool isYieldedByRepeat();
    /// Whether the sync only hands its array to the kernel's results: its
    /// stage writes global memory and ends in no barrier, so its scope and
    /// placement mean nothing.
    bool isOutputOnly() {
      return !getResult().use_empty() &&
             ::llvm::all_of(getResult().getUsers(), [](::mlir::Operation *user) {
               return ::llvm::isa<::mlir::obs::ReturnOp>(user);
             });
    }
    /// The barrier scope: as written, else as planned, else block.
    ::mlir::obs::SyncScope getScopeOrDefault() {
      if (::mlir::obs::SyncScopeAttr scope = getEffectiveScopeAttr())
        return scope.getValue();
      return ::mlir::obs::SyncScope::Block;
    }
    /// The placement: as written, else as planned, else fresh.
    ::mlir::obs::Placement getPlacementOrDefault() {
      if (::mlir::obs::PlacementAttr placement = getEffectivePlacementAttr())
        return placement.getValue();
      return ::mlir::obs::Placement::Fresh;
    }
    /// The scope as written or planned, null while it is open.
    ::mlir::obs::SyncScopeAttr getEffectiveScopeAttr() {
      if (::mlir::obs::SyncScopeAttr written = getScopeAttr())
        return written;
      return getPlanAttr() ? getPlanAttr().getScope() : nullptr;
    }
    /// The placement as written or planned, null while it is open.
    ::mlir::obs::PlacementAttr getEffectivePlacementAttr() {
      if (::mlir::obs::PlacementAttr written = getPlacementAttr())
        return written;
      return getPlanAttr() ? getPlanAttr().getPlacement() : nullptr;
    }
    /// The storage as written or planned, null while it is open.
    ::mlir::obs::StorageAttr getEffectiveStorageAttr() {
      if (::mlir::obs::StorageAttr written = getStorageAttr())
        return written;
      return getPlanAttr() ? getPlanAttr().getStorage() : nullptr;
    }
    /// The storage: as written, else as planned, else shared.
    ::mlir::obs::Storage getStorageOrDefault() {
      if (::mlir::obs::StorageAttr storage = getEffectiveStorageAttr())
        return storage.getValue();
      return ::mlir::obs::Storage::Shared;
    }
    /// Whether each thread keeps the elements it computed as values
    /// (`registers` or `shuffle`, written or planned): the stage has no
    /// buffer and no barrier. Otherwise the array is in shared memory.
    bool isKeptByThreads() {
      return getStorageOrDefault() != ::mlir::obs::Storage::Shared;
    }

    /// The plan's choices, one property at a time; null clears it. A pass
    /// chooses only a property the user left open (the verifier checks).
    void setPlannedScope(::mlir::obs::SyncScopeAttr scope);
    void setPlannedPlacement(::mlir::obs::PlacementAttr placement);
    void setPlannedHow(::mlir::obs::WorkAssignmentAttrInterface how);
    void setPlannedStorage(::mlir::obs::StorageAttr storage);
    /// The most rounds of a stage in registers: its rounds are unrolled,
    /// each thread's elements one value each. 16, CUB's items per thread
    /// for a block scan of 4,096 on 256 threads. (obs-promote-registers
    /// tries fewer where no work assignment is written: a budget of its
    /// search, not a limit of the storage.)
    static constexpr uint64_t kMostRegisterRounds = 16;
    /// The rounds each thread computes of the sync's array: under its work
    /// assignment, or the kernel's default sweep over `blockThreads`.
    uint64_t getRoundsPerThread(uint64_t blockThreads);
    /// Why the sync's array cannot be kept in registers, whoever chooses
    /// it: its element type, work assignment, rounds or use (a sentence
    /// fragment), or nothing when it can, as far as the sync alone tells.
    /// The simulation proves the rest: that each element is read only by
    /// its own thread.
    std::optional<std::string> whyNotRegisters(uint64_t blockThreads);
    /// Why the sync's array cannot be exchanged by shuffles: as for
    /// registers, or a scalar shfl.sync does not carry (wider than 64
    /// bits, or neither an integer nor a float). The simulation proves
    /// the rest: that each element is read within its owner's warp, by
    /// shuffles every lane of the warp runs together.
    std::optional<std::string> whyNotShuffle(uint64_t blockThreads);
    /// The threads a block needs for the work assignment as written (0
    /// without one): `strided<T>` and `compact<T>` name all T threads, even
    /// over fewer elements.
    uint64_t getThreadsNeeded();
  }];
}

//===----------------------------------------------------------------------===//
// Index functions
//===----------------------------------------------------------------------===//

def Obs_GenerateOp : Obs_RegionOp<"generate"> {
  let summary = "an array given by its index function (Obsidian's `mkArr`)";
  let description = [{
    `out[i] = f(i)`. The region takes the index and yields the element (its
    flattened scalars, or a nested array). It may `obs.index` other arrays,
    like EPGPU's fill kernels (`result = start + i`).

    ```mlir
    %0 = obs.generate : !obs.arr<8 x i32> {
    ^bb0(%i: index):
      %x = arith.index_cast %i : index to i32
      obs.yield %x : i32
    }
    ```
  }];
  let results = (outs Obs_Arr:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict `:` qualified(type($result)) $body";
}

def Obs_MapOp : Obs_RegionOp<"map"> {
  let summary = "applies a function to every element (Obsidian's `fmap`, `fun`)";
  let description = [{
    `out[i] = f(a[i], b[i], ...)`: the operands have one length, and the
    region takes the flattened elements of all of them in order and yields the
    flattened result element. With several operands it is `zipWith`.

    ```mlir
    %1 = obs.map %0 : !obs.arr<4 x tuple<i32, i32>> -> !obs.arr<4 x tuple<i32, i32>> {
    ^bb0(%x: i32, %y: i32):
      %s = arith.addi %x, %y : i32
      obs.yield %x, %s : i32, i32
    }
    ```
  }];
  let arguments = (ins Variadic<Obs_Arr>:$inputs);
  let results = (outs Obs_Arr:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs attr-dict `:` qualified(type($inputs)) `->` qualified(type($result)) $body
  }];
  let hasCanonicalizer = 1;
}

def Obs_IndexOp : Obs_Op<"index", [
    Pure, InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<Obs_PullArrayOpInterface>,
    DeclareOpInterfaceMethods<Obs_PullScalarOpInterface>]> {
  let summary = "element i of an array (Obsidian's `!`)";
  let description = [{
    Reads one element: its flattened scalars for a scalar or tuple element,
    or an `!obs.arr` for a nested one.

    An index outside the array is an error, never a read of other memory.
    One that the threads compute from their ids (or a constant) is rejected
    by the proof (`--obs-verify-sync`, on every target), naming the thread,
    the index and the length. One that depends on data stops the `ref` and
    `cpu` targets as they run, naming the block, the index and the length;
    on the `cuda` target it is not checked, and reads element 0. Like every
    read of a pull array, it happens only where its value is used.

    ```mlir
    %x = obs.index %a[%i] : !obs.arr<8 x i32>
    %p0, %p1 = obs.index %pairs[%i] : !obs.arr<4 x tuple<i32, i32>>
    %row = obs.index %grid[%i] : !obs.arr<4 x !obs.arr<4 x f32>>
    ```
  }];
  let arguments = (ins Obs_Arr:$array, Index:$index);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$array `[` $index `]` attr-dict `:` qualified(type($array))";
  let extraClassDeclaration = [{
    ::mlir::obs::ArrType getArrayType() {
      return ::llvm::cast<::mlir::obs::ArrType>(getArray().getType());
    }
  }];
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Permutations and shapes
//===----------------------------------------------------------------------===//

class Obs_PermutationOp<string mnemonic> : Obs_ArrayOp<mnemonic,
    [SameOperandsAndResultType]> {
  let arguments = (ins Obs_Arr:$input);
  let results = (outs Obs_Arr:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
}

def Obs_RevOp : Obs_PermutationOp<"rev"> {
  let summary = "reverses an array";
  let description = [{
    `out[i] = a[N-1-i]`.

    ```mlir
    %1 = obs.rev %0 : !obs.arr<8 x i32>
    ```
  }];
  let hasFolder = 1;
}

def Obs_RiffleOp : Obs_PermutationOp<"riffle"> {
  let summary = "shuffles the two halves perfectly";
  let description = [{
    `out[2i] = a[i]`, `out[2i+1] = a[N/2+i]`: riffle `[0..7]` is
    `[0,4,1,5,2,6,3,7]`. Seed 001 defines it as `halve ->- shuffle`. The
    length must be even.

    ```mlir
    %1 = obs.riffle %0 : !obs.arr<8 x i32>
    ```
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Obs_UnriffleOp : Obs_PermutationOp<"unriffle"> {
  let summary = "the inverse of riffle: even-indexed elements, then odd-indexed";
  let description = [{
    `out[i] = a[2i]`, `out[N/2+i] = a[2i+1]`. The length must be even.

    ```mlir
    %1 = obs.unriffle %0 : !obs.arr<8 x i32>
    ```
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Obs_HalveOp : Obs_ArrayOp<"halve",
    [InferTypeOpAdaptor]> {
  let summary = "splits an array into its two halves";
  let description = [{
    `a1[i] = a[i]`, `a2[i] = a[N/2+i]`. The length must be even.

    ```mlir
    %lo, %hi = obs.halve %0 : !obs.arr<8 x i32>
    ```
  }];
  let arguments = (ins Obs_Arr:$input);
  let results = (outs Obs_Arr:$low, Obs_Arr:$high);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
  let hasCanonicalizer = 1;
}

def Obs_ConcOp : Obs_ArrayOp<"conc",
    [InferTypeOpAdaptor]> {
  let summary = "concatenates two arrays";
  let description = [{
    `out[i] = i < len a ? a[i] : b[i - len a]`. Both have one element type.

    ```mlir
    %2 = obs.conc %0, %1 : !obs.arr<4 x i32>, !obs.arr<4 x i32>
    ```
  }];
  let arguments = (ins Obs_Arr:$first, Obs_Arr:$second);
  let results = (outs Obs_Arr:$result);
  let assemblyFormat = [{
    $first `,` $second attr-dict `:` qualified(type($first)) `,` qualified(type($second))
  }];
  let hasFolder = 1;
}

def Obs_PairOp : Obs_ArrayOp<"pair",
    [InferTypeOpAdaptor]> {
  let summary = "pairs neighbours: (a[0], a[1]), (a[2], a[3]), ...";
  let description = [{
    `out[i] = (a[2i], a[2i+1])`, of length N/2. The length must be even and
    the element may not be an array (a tuple holds no arrays).

    ```mlir
    %1 = obs.pair %0 : !obs.arr<8 x i32>
    ```
  }];
  let arguments = (ins Obs_Arr:$input);
  let results = (outs Obs_Arr:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
  let hasFolder = 1;
}

def Obs_UnpairOp : Obs_ArrayOp<"unpair",
    [InferTypeOpAdaptor]> {
  let summary = "flattens an array of pairs (the inverse of pair)";
  let description = [{
    `out[2i] = p[i].0`, `out[2i+1] = p[i].1`. The element must be a tuple of
    two equal types.

    ```mlir
    %1 = obs.unpair %0 : !obs.arr<4 x tuple<i32, i32>>
    ```
  }];
  let arguments = (ins Obs_Arr:$input);
  let results = (outs Obs_Arr:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Obs_ZipOp : Obs_ArrayOp<"zip",
    [InferTypeOpAdaptor]> {
  let summary = "pairs two arrays elementwise (Obsidian's `zipp`)";
  let description = [{
    `out[i] = (a[i], b[i])`. The arrays have one length and hold no arrays.

    ```mlir
    %2 = obs.zip %0, %1 : !obs.arr<8 x i32>, !obs.arr<8 x f32>
    ```
  }];
  let arguments = (ins Obs_Arr:$first, Obs_Arr:$second);
  let results = (outs Obs_Arr:$result);
  let assemblyFormat = [{
    $first `,` $second attr-dict `:` qualified(type($first)) `,` qualified(type($second))
  }];
  let hasCanonicalizer = 1;
}

def Obs_UnzipOp : Obs_ArrayOp<"unzip",
    [InferTypeOpAdaptor]> {
  let summary = "splits an array of pairs into two arrays";
  let description = [{
    `a[i] = p[i].0`, `b[i] = p[i].1`. The element must be a tuple of two.

    ```mlir
    %a, %b = obs.unzip %0 : !obs.arr<8 x tuple<i32, f32>>
    ```
  }];
  let arguments = (ins Obs_Arr:$input);
  let results = (outs Obs_Arr:$first, Obs_Arr:$second);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Element-wise combinators
//===----------------------------------------------------------------------===//

class Obs_NeighbourOp<string mnemonic> : Obs_RegionOp<mnemonic,
    [SameOperandsAndResultType]> {
  let arguments = (ins Obs_Arr:$input);
  let results = (outs Obs_Arr:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) $body";
}

def Obs_EvensOp : Obs_NeighbourOp<"evens"> {
  let summary = "applies a 2-to-2 function to the pairs (a[2i], a[2i+1])";
  let description = [{
    Seed 001's `evens f = pair ->- fun f ->- unpair`. The region takes two
    flattened elements and yields two. The length must be even.

    ```mlir
    %1 = obs.evens %0 : !obs.arr<8 x i32> {
    ^bb0(%x: i32, %y: i32):
      %lo = arith.minsi %x, %y : i32
      %hi = arith.maxsi %x, %y : i32
      obs.yield %lo, %hi : i32, i32
    }
    ```
  }];
}

def Obs_OddsOp : Obs_NeighbourOp<"odds"> {
  let summary = "applies a 2-to-2 function to the pairs (a[2i+1], a[2i+2])";
  let description = [{
    Like `evens` shifted by one: `a[0]` and `a[N-1]` pass through unchanged.
    The length must be even.

    ```mlir
    %1 = obs.odds %0 : !obs.arr<8 x i32> {
    ^bb0(%x: i32, %y: i32):
      %lo = arith.minsi %x, %y : i32
      %hi = arith.maxsi %x, %y : i32
      obs.yield %lo, %hi : i32, i32
    }
    ```
  }];
}

def Obs_FanOp : Obs_NeighbourOp<"fan"> {
  let summary = "combines the last element of the first half into the second half";
  let description = [{
    Sklansky's fan: `out[i] = i < N/2 ? a[i] : f(a[N/2-1], a[i])`. The region
    takes two flattened elements and yields one. The length must be even.

    ```mlir
    %1 = obs.fan %0 : !obs.arr<8 x i32> {
    ^bb0(%x: i32, %y: i32):
      %s = arith.addi %x, %y : i32
      obs.yield %s : i32
    }
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Program combinators: their regions are programs, and may hold syncs
//===----------------------------------------------------------------------===//

class Obs_SubProgramOp<string mnemonic> : Obs_RegionOp<mnemonic> {
  let arguments = (ins Obs_Arr:$input);
  let results = (outs Obs_Arr:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result)) $body
  }];
}

def Obs_TwoOp : Obs_SubProgramOp<"two"> {
  let summary = "runs a program on both halves";
  let description = [{
    `two P = halve ->- (P, P) ->- conc`. The region is a program from a half
    to an array of any length M; the result has length 2M. P may sync: the
    syncs of the two instances run as one (`--obs-flatten`).

    ```mlir
    %1 = obs.two %0 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
    ^bb0(%half: !obs.arr<4 x i32>):
      %r = obs.rev %half : !obs.arr<4 x i32>
      obs.yield %r : !obs.arr<4 x i32>
    }
    ```
  }];
  let hasFolder = 1;
}

def Obs_IlvOp : Obs_SubProgramOp<"ilv"> {
  let summary = "runs a program on the even- and the odd-indexed elements";
  let description = [{
    `ilv P = unriffle ->- two P ->- riffle`. The region is a program from
    N/2 elements to M; the result has length 2M.

    ```mlir
    %1 = obs.ilv %0 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
    ^bb0(%part: !obs.arr<4 x i32>):
      %r = obs.rev %part : !obs.arr<4 x i32>
      obs.yield %r : !obs.arr<4 x i32>
    }
    ```
  }];
  let hasFolder = 1;
}

def Obs_OneOp : Obs_SubProgramOp<"one"> {
  let summary = "runs a program on the second half only";
  let description = [{
    `one P = halve ->- (id, P) ->- conc`: `one rev` on `[1..8]` is
    `[1,2,3,4,8,7,6,5]`. P keeps the element type.

    ```mlir
    %1 = obs.one %0 : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
    ^bb0(%half: !obs.arr<4 x i32>):
      %r = obs.rev %half : !obs.arr<4 x i32>
      obs.yield %r : !obs.arr<4 x i32>
    }
    ```
  }];
  let hasFolder = 1;
}

def Obs_RepeatOp : Obs_RegionOp<"repeat", [SameOperandsAndResultType]> {
  let summary = "applies a program k times (Obsidian's `repE`)";
  let description = [{
    `repeat k P = P ->- P ->- ... (k times)`; `repeat 0 P` is the identity.
    The region is a program from the array to an array of the same type. It
    is lowered as a loop, not unrolled.

    ```mlir
    %1 = obs.repeat 4 %0 : !obs.arr<16 x i32> {
    ^bb0(%x: !obs.arr<16 x i32>):
      %r = obs.riffle %x : !obs.arr<16 x i32>
      %s = obs.sync %r : !obs.arr<16 x i32>
      obs.yield %s : !obs.arr<16 x i32>
    }
    ```
  }];
  let arguments = (ins Obs_Arr:$input,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$count);
  let results = (outs Obs_Arr:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$count $input attr-dict `:` qualified(type($input)) $body";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Folds
//===----------------------------------------------------------------------===//

def Obs_ReduceOp : Obs_Op<"reduce", [
    RecursiveMemoryEffects, RecursivelySpeculatable,
    DeclareOpInterfaceMethods<Obs_PullScalarOpInterface>]> {
  let summary = "folds an array into one element";
  let description = [{
    Inside element code, `f(...f(f(a[0], a[1]), a[2])..., a[N-1])`,
    sequentially, by the element's thread. With `network(tree)`, pairwise
    level by level as seed 004's tree summation does it: each level combines
    elements `2i` and `2i+1`, an odd last element passes up unchanged, until
    one is left. With `network(serial)`, as CUB's block reduction does it:
    the block's T threads each fold a run of `ceil(N / T)` consecutive
    elements in sequence (Obsidian's `seqReduce`, kept in registers), the
    runs' totals are folded within each warp (lane `l` takes in lane
    `l + d` for `d` = 1, 2, 4, ...), and the warps' totals likewise.

    The network fixes the association order, so it is part of the meaning:
    a floating-point sum differs between them, and the reference target
    computes each exactly as written. `--obs-expand-networks` turns a network
    at program level into stages with syncs. A reduce without a network
    at program level (a kernel's body, or a sub-program's with runs of one
    element) is `serial` where its combine passes the associativity check
    on sample elements, and the sequential fold otherwise.

    The region takes the accumulator and the next element (flattened) and
    yields the new accumulator; the results are the flattened element. The
    array must not be empty and its elements are scalars or tuples.

    ```mlir
    %sum = obs.reduce %0 network(tree) : !obs.arr<8 x i32> -> i32 {
    ^bb0(%acc: i32, %x: i32):
      %s = arith.addi %acc, %x : i32
      obs.yield %s : i32
    }
    ```
  }];
  let arguments = (ins Obs_Arr:$input,
                       OptionalAttr<Obs_ReduceNetworkAttr>:$network);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $input custom<Network>($network) attr-dict `:` qualified(type($input))
    `->` qualified(type($results)) $body
  }];
  let hasRegionVerifier = 1;
}

def Obs_ScanOp : Obs_RegionOp<"scan", [SameOperandsAndResultType]> {
  let summary = "the inclusive prefix combination of an array";
  let description = [{
    `out[i] = a[0] ⊕ a[1] ⊕ ... ⊕ a[i]`, for an associative `⊕` given by
    the region, which takes two flattened elements (the earlier one first)
    and yields one. `⊕` need not be commutative: seed 003's recurrence
    `x[i] = a[i] * x[i-1] + b[i]` is a scan over affine maps.

    The `network` says how `--obs-expand-networks` builds it from
    combinators at program level: `sklansky` (seed 002's
    `two (sklansky (n-1)) ->- fan ->- sync`), `kogge_stone`, `brent_kung`,
    or `serial`, the composition of CUB's block scan: the block's T threads
    each scan a run of `ceil(N / T)` consecutive elements in sequence
    (Obsidian's `seqScan`, written `blocked` and kept in registers), the
    runs' totals are scanned within each warp (Kogge-Stone), the warps'
    totals likewise, and each element then takes in the totals before its
    run: two block barriers, and no loop. Each is defined for every length
    (Sklansky's by stages where the length is not a power of two). Each
    reassociates `⊕`, and the network's association order is part of the
    meaning: a floating-point scan rounds as its network associates, on
    every target (the reference target follows each network's order).

    A scan without a network at program level is `serial` (in a kernel's
    body for its `threads`, else as many as it has elements, at most 1024;
    in a sub-program with runs of one element) where its combine passes
    the associativity check on sample elements, the runs are at most 64
    elements, the array takes at most half a block's shared memory and the
    run stages hold at most 2^19 elements together.
    Otherwise, or inside element code, each element is folded sequentially
    by its thread.

    ```mlir
    %1 = obs.scan %0 network(sklansky) : !obs.arr<8 x i32> {
    ^bb0(%x: i32, %y: i32):
      %s = arith.addi %x, %y : i32
      obs.yield %s : i32
    }
    ```
  }];
  let arguments = (ins Obs_Arr:$input,
                       OptionalAttr<Obs_ScanNetworkAttr>:$network);
  let results = (outs Obs_Arr:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $input custom<Network>($network) attr-dict `:` qualified(type($input))
    $body
  }];
}

def Obs_SortOp : Obs_RegionOp<"sort", [SameOperandsAndResultType]> {
  let summary = "sorts an array by a strict weak order";
  let description = [{
    The elements of the input in ascending order of the region's `less`,
    which takes two flattened elements and yields an `i1`: whether the first
    must come before the second. Elements that neither precedes are
    equivalent, and their order in the result is unspecified (the reference
    target keeps the input order; networks need not), so a total order
    makes the result unique.

    The `network` says how `--obs-expand-networks` builds it from
    compare-and-swap stages at program level: `periodic` (seed 001's
    `tau ->>- merger`, repeated), `odd_even_merge` (seed 000's `sortOE`) or
    `bitonic`. Networks need a power-of-two length. Without a network, or
    inside element code, each element is found by ranking, in its thread.

    ```mlir
    %1 = obs.sort %0 network(bitonic) : !obs.arr<8 x i32> {
    ^bb0(%x: i32, %y: i32):
      %less = arith.cmpi slt, %x, %y : i32
      obs.yield %less : i1
    }
    ```
  }];
  let arguments = (ins Obs_Arr:$input,
                       OptionalAttr<Obs_SortNetworkAttr>:$network);
  let results = (outs Obs_Arr:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $input custom<Network>($network) attr-dict `:` qualified(type($input))
    $body
  }];
}

//===----------------------------------------------------------------------===//
// Push arrays
//===----------------------------------------------------------------------===//

// Pure but when `global`: a global scatter writes the launch's output
// memref, which no value stands for, so two alike must not be merged (CSE)
// nor one hoisted (it is not speculatable).
def Obs_ScatterOp : Obs_Op<"scatter", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ConditionallySpeculatable>,
    HasParent<"KernelOp">]> {
  let summary = "writes values at computed places (a push array)";
  let description = [{
    An array of `L` elements in which value `values[i]` is written at place
    `places[i]`, for every `i`; a place nobody writes holds `initial`. The
    places are signed integers, and a place outside `[0, L)` writes
    nothing: a value with nowhere to go (an absent element, a key
    another block counts) is dropped by giving it place -1.

    Without `combine`, each place is written at most once: a permutation or
    a partial one (counting sort's scatter, the reconstruction of runs from
    their bounds). Where the places are known from the thread ids alone, the
    proof checks that statically; where they depend on data, the `ref` and
    `cpu` targets check it at run time and stop with an error naming the
    block and the place. On `cuda` a place written twice holds one of the
    values.

    With `combine`, the values written to one place are merged with it, in
    any order, starting from `initial`: `min`, `max` (signed on integers)
    on integers and floats, `add`, `or`, `and` on integers. A histogram is
    a scatter of ones with `combine(add)`. Every combine gives one answer
    in every order; a float `add` would not (its rounding depends on which
    collision comes first), so it is an error. A combine is an atomic
    update of whole bytes, so `i1` elements take none (scatter `i8`).

    The elements are scalars. A scatter is a stage of its own, like
    `obs.sync`: every thread of the block writes `initial` over the result
    (in shared memory), a block barrier, the threads' writes (plain stores,
    or atomic read-modify-writes for a combine), a block barrier; the result
    reads that buffer. It sits at kernel level.

    ```mlir
    %counts = obs.scatter %ones at %digits combine(add) initial(0 : i32)
        : !obs.arr<1024 x i32>, !obs.arr<1024 x i32> -> !obs.arr<256 x i32>
    ```

    **Into global memory.** With `global` in place of `initial`, the result
    is the launch's output memref itself, which every block of the launch
    sees whole (not a chunk per block): the values are written, or merged,
    into what it holds, and a place nobody writes keeps its value. Blocks
    run in any order, so collisions across blocks follow the same rules as
    within one: merged by the combine (atomics in global memory, in any
    order), or, without one, checked at run time on `ref` and `cpu` across
    the whole launch. Such a scatter is returned by its kernel and has no
    other use. A launch passes its memref as `memref<L x T>`, or, with sizes
    known at run time, `memref<?xT>`, where a place at or past the memref's
    run-time length writes nothing either (so `L` is a bound: 2147483647
    lets the memref have any length). The launch proof rejects any other
    operand of the launch over the same allocation. A histogram's merge of
    per-block counts into one global histogram:

    ```mlir
    %total = obs.scatter %counts at %bins combine(add) global
        : !obs.arr<256 x i32>, !obs.arr<256 x i32> -> !obs.arr<256 x i32>
    obs.return %total : !obs.arr<256 x i32>
    ```
  }];
  let arguments = (ins Obs_Arr:$values, Obs_Arr:$places,
                       OptionalAttr<Obs_ScatterCombineAttr>:$combine,
                       OptionalAttr<TypedAttrInterface>:$initial,
                       UnitAttr:$global);
  let results = (outs Obs_Arr:$result);
  let assemblyFormat = [{
    $values `at` $places custom<Combine>($combine)
    (`initial` `(` $initial^ `)`)? (`global` $global^)? attr-dict `:`
    qualified(type($values)) `,` qualified(type($places)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::obs::ArrType getType() {
      return ::llvm::cast<::mlir::obs::ArrType>(getResult().getType());
    }
    /// The atomic read-modify-write that merges a value into a place (the
    /// combine must be set); arith::getReductionOp builds its plain form.
    ::mlir::arith::AtomicRMWKind getAtomicKind();
    /// The index of the place `place` (an element of the places) and
    /// whether it is inside the result.
    ::std::pair<::mlir::Value, ::mlir::Value>
    buildPlace(::mlir::OpBuilder &builder, ::mlir::Location loc,
               ::mlir::Value place);
    /// The same for a global scatter into a memref whose outermost length
    /// `length` (an index) is known only at run time: a place at or past
    /// it is outside too.
    ::std::pair<::mlir::Value, ::mlir::Value>
    buildPlace(::mlir::OpBuilder &builder, ::mlir::Location loc,
               ::mlir::Value place, ::mlir::Value length);
  }];
}

include "Obs/Dialect/Obs/ObsChainOps.td"

//===----------------------------------------------------------------------===//
// Where a block is
//===----------------------------------------------------------------------===//

def Obs_BlockIdOp : Obs_Op<"block_id", [Pure]> {
  let summary = "the index of the block in its launch";
  let description = [{
    The block's position in the grid of the `obs.launch` that runs it: 0 to
    grid - 1 (0 when a kernel runs on its own). Programs that compute from
    their position use it (a fractal's coordinates, per-block offsets); the
    places a block reads and writes are its chunks whatever it computes.
    The proofs take it to be any value.

    ```mlir
    %b = obs.block_id
    ```
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Obs_ExtentOp : Obs_Op<"extent", [Pure]> {
  let summary = "how many elements of an argument are present in the block";
  let description = [{
    The number of elements of the kernel argument `array` that the block's
    chunk holds: its length, except in the last blocks of a launch whose
    sizes are known only at run time, where the chunk may end early (0 past
    the end). An `obs.global` argument's extent is its memref's length, the
    same in every block. Elements at or past it are absent and read as the argument's
    `obs.absent` value. A reduce that must skip them, or a count that must
    not see them, asks for it. The proofs take it to be any value.

    ```mlir
    %present = obs.extent %in : !obs.arr<256 x i32>
    ```
  }];
  let arguments = (ins Obs_Arr:$array);
  let results = (outs Index:$result);
  let assemblyFormat = "$array attr-dict `:` qualified(type($array))";
  let hasVerifier = 1;
}

include "Obs/Dialect/Obs/ObsHostOps.td"

#endif // OBS_DIALECT_OBS_OBSOPS_TD
