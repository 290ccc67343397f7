//===- ObsHostOps.td - obs operations of host code ---------*- tablegen -*-===//
//
// The ops that run in host functions over memrefs: obs.launch, which runs a
// kernel over a grid of blocks, and the device-level ops on whole arrays of
// any length, which --obs-expand-device lowers to launch plans. ObsOps.td
// includes this file; the kernel-level ops are there.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_DIALECT_OBS_OBSHOSTOPS_TD
#define OBS_DIALECT_OBS_OBSHOSTOPS_TD

include "Obs/Dialect/Obs/ObsDialect.td"
include "Obs/Dialect/Obs/ObsAttributes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Beyond one block
//===----------------------------------------------------------------------===//

def Obs_LaunchOp : Obs_Op<"launch", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "runs a kernel over a grid of blocks, on memrefs";
  let description = [{
    Runs the kernel `@kernel` in `grid` blocks (at most 2^31 - 1, CUDA's
    limit on a grid's x dimension), from a host function. Each
    array argument of the kernel is passed as the memrefs that store it
    (one per scalar of its element, see docs/Rationale.md), for the whole
    grid: block `b` sees the `b`-th contiguous chunk of each, so an argument
    `!obs.arr<512 x i32>` launched over 64 blocks is a `memref<32768xi32>`.
    `ins` are the kernel's arguments, `outs` its results. Launches run one
    after the other: a later launch sees what an earlier one wrote.

    ```mlir
    func.func @scan(%in: memref<1048576xi32>, %out: memref<1048576xi32>) {
      obs.launch @sklansky9 grid(2048) ins(%in : memref<1048576xi32>)
                                       outs(%out : memref<1048576xi32>)
      return
    }
    ```

    **Sizes known at run time.** The grid may be an `index` value and the
    memrefs' outermost dimension dynamic (`memref<?xi32>`): one compiled
    kernel then serves every size. Block `b` still sees the `b`-th chunk of
    each memref, but a chunk may be partial: the places past the end of a
    memref are *absent*. The block reads nothing past the end and writes
    nothing past the end; an absent element of an argument reads as the
    value its kernel argument's `obs.absent` attribute gives (every argument
    of a kernel launched this way has one), and a result's absent elements
    are computed and dropped.

    **Global arguments.** An argument marked `obs.global` is the memref
    whole in every block, not a chunk: `memref<L x T>` for an argument
    `!obs.arr<L x T>` (`memref<?xT>` at run-time sizes, where the argument's
    length `2147483647` is only a bound and its places past the memref's
    end are absent). A block may read it at any place, computed from data
    (a merge reads where a binary search finds), so no operand of the
    launch may write its allocation; other operands may read it. Inside the kernel, `obs.extent` says how many
    elements of an argument are present in the block, and `obs.block_id`
    which block it is. A grid of 0 (or less) runs no block.

    **Halos.** An argument marked `obs.halo = #obs.halo<k, boundary>` is
    its block's tile and `k` places on each side: of type `!obs.arr<C + 2k
    x T>`, `T` a scalar or a tuple (a halo runs along one dimension: an
    array of rows has none), its memref holds the blocks' tiles of `C`
    (`memref<(G C) x T>`
    over `G` blocks, any length at run-time sizes), and element `j` of
    block `b`'s array is place `b C + j - k`. A place outside the memref
    reads as `boundary` says: `clamp`, the nearest end; `zero`, the
    argument's `obs.absent` value (zero without one); `wrap`, the place
    modulo the length. The memref is then read by every block, as a global
    argument's is (`--obs-expand-device` makes it one), so no operand of the
    launch may write it. A halo argument has no `obs.extent`.

    ```mlir
    func.func @double(%in: memref<?xi32>, %out: memref<?xi32>) {
      %c0 = arith.constant 0 : index
      %c255 = arith.constant 255 : index
      %c256 = arith.constant 256 : index
      %n = memref.dim %in, %c0 : memref<?xi32>
      %padded = arith.addi %n, %c255 : index
      %blocks = arith.divui %padded, %c256 : index
      obs.launch @double grid(%blocks) ins(%in : memref<?xi32>)
                                        outs(%out : memref<?xi32>)
      return
    }
    ```

    `layouts` places the blocks' arrays elsewhere (static sizes only): one
    affine map `(b, i) -> (index)` per memref, ins then outs, giving where
    element `i` of block `b`'s array lives along the memref's outermost
    dimension; the memrefs of one array share a map. A memref may then have
    any length. Bitonic merges across blocks pair elements a stride apart:

    ```mlir
    obs.launch @compare_split grid(2048)
        ins(%a, %a : memref<1048576xi32>, memref<1048576xi32>)
        outs(%b, %b : memref<1048576xi32>, memref<1048576xi32>)
        layouts [affine_map<(b, i) -> (((b * 256 + i) floordiv 1024) * 2048 + (b * 256 + i) mod 1024)>,
                 affine_map<(b, i) -> (((b * 256 + i) floordiv 1024) * 2048 + (b * 256 + i) mod 1024 + 1024)>,
                 ...]
    ```

    **Tiles of 2-D memrefs.** `grid(R, C)` runs `R x C` blocks over
    2-D memrefs (static sizes): each array of the kernel is a tile
    `!obs.arr<TR x !obs.arr<TC x T>>`, passed as `memref<(R TR) x (C TC) x
    T>`, and block `(r, c)` sees the tile of rows `[r TR, (r + 1) TR)` and
    columns `[c TC, (c + 1) TC)`. Inside the kernel, `obs.block_id` is
    `r C + c`. Here `layouts` are maps `(r, c) -> (tile row, tile column)`,
    one per memref, saying which tile of the memref block `(r, c)` reads or
    writes; a memref may then hold any whole number of tiles. A transpose
    writes block `(r, c)`'s tile to tile `(c, r)`:

    ```mlir
    obs.launch @transpose_tile grid(32, 32)
        ins(%in : memref<1024x1024xi32>) outs(%out : memref<1024x1024xi32>)
        layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c, r)>]
    ```

    `--obs-expand-device` lowers such a launch to a grid of `R C` blocks
    with layouts over row views of the memrefs (`expand_shape`, then
    `collapse_shape`), which every proof and target then handles as any
    other launch; every lowering refuses a tiled launch it was not given
    expanded. A tiled launch takes no `obs.global` argument, halo or global
    scatter.

    Blocks run concurrently and in any order, so every launch, with or
    without layouts, is proved by `--obs-verify-launches` (every lowering
    pipeline runs it), place by place: every place is inside its memref; no
    place is written twice; no block writes a place another block reads;
    and where a block reads a place it also writes (an output that is a
    view of an input), every thread's read is ordered before the write by
    the kernel's barriers. Memrefs are followed through views (subview,
    expand_shape, collapse_shape, cast, reinterpret_cast, transpose, view)
    to their allocation, so two views of one allocation are compared place
    by place; a memref that cannot be followed is rejected. With sizes known
    only at run time, two memrefs of one allocation are compared as views:
    the same view gives each block the same places; subviews whose elements
    are proved apart symbolically (`[0, k)` and `[k, 2k)` of one buffer, by
    ValueBoundsConstraintSet over the subviews' offsets and sizes) never
    meet; any other pair of views of an allocation the launch writes is
    rejected. Such a launch may pass row-major memrefs at an offset known
    only at run time (`memref<?xT, strided<[1], offset: ?>>`). A host
    function's memref arguments are taken to be distinct allocations (a call
    inside the module that passes one allocation twice, in views not proved
    apart, is rejected).
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel,
                       Optional<Index>:$dynamic_grid,
                       OptionalAttr<ConfinedAttr<I64Attr,
                                    [IntPositive, IntMaxValue<2147483647>]>>:$grid,
                       OptionalAttr<ConfinedAttr<I64Attr,
                                    [IntPositive, IntMaxValue<2147483647>]>>:$grid_columns,
                       Variadic<AnyNon0RankedMemRef>:$inputs,
                       Variadic<AnyNon0RankedMemRef>:$outputs,
                       OptionalAttr<AffineMapArrayAttr>:$layouts);
  let assemblyFormat = [{
    $kernel `grid` `(` custom<Grid>($dynamic_grid, $grid, $grid_columns) `)`
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    (`outs` `(` $outputs^ `:` type($outputs) `)`)?
    (`layouts` $layouts^)?
    attr-dict
  }];
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$kernel, "int64_t":$grid,
                   "::mlir::ValueRange":$inputs, "::mlir::ValueRange":$outputs)>,
    OpBuilder<(ins "::llvm::StringRef":$kernel, "::mlir::Value":$grid,
                   "::mlir::ValueRange":$inputs, "::mlir::ValueRange":$outputs)>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The most places the proof of a launch at static sizes compares one
    /// by one (its grid times its operands' elements, per allocation; a
    /// tiled launch's blocks whose tiles its verifier places one by one),
    /// at about 24 bytes of memory each: a launch of 2^30 elements
    /// exhausted the compiler's memory (an adversarial run).
    static constexpr uint64_t kMostProvedPlaces = uint64_t(1) << 25;
    /// Whether its grid has two dimensions, `grid(rows, columns)`: blocks
    /// that tile 2-D memrefs, which --obs-expand-device lowers to a grid of
    /// one dimension with layouts (expandTiledLaunches).
    bool isTiled() { return static_cast<bool>(getGridColumnsAttr()); }
    /// The grid when it is a constant of the op, none when it is a value.
    /// A tiled grid's rows of blocks.
    std::optional<int64_t> getStaticGridSize() {
      if (::mlir::IntegerAttr grid = getGridAttr())
        return grid.getInt();
      return std::nullopt;
    }
    /// Whether its sizes are known only at run time: a grid given as a
    /// value, or a memref of dynamic length. Its blocks may be partial.
    bool hasDynamicSizes();
    /// The grid as an index value at `builder`'s insertion point.
    ::mlir::Value buildGridSize(::mlir::OpBuilder &builder);
    /// Where element `i` of block `b`'s array lives in each memref (ins,
    /// then outs): the `layouts` as written, or the contiguous chunks
    /// `(b, i) -> (b * N + i)`.
    ::llvm::SmallVector<::mlir::AffineMap> getLayoutsOrChunks(
        ::mlir::obs::KernelOp kernel);
    /// The symbol use's check of the operands against the kernel's arrays
    /// (verifySymbolUses, which then runs the dialect's launch check).
    ::mlir::LogicalResult verifyOperandsAgainstKernel(
        ::mlir::SymbolTableCollection &symbolTable);
  }];
}

//===----------------------------------------------------------------------===//
// The device level: whole arrays of any length, in host code
//===----------------------------------------------------------------------===//

// An array of any length at the device level: one memref of scalars per
// scalar of its element (a tuple is several memrefs), each of rank 1.
def Obs_DeviceMemRef : MemRefRankOf<[AnyType], [1]>;
// What a device op reads and what it writes.
def Obs_DeviceInputs : Arg<Variadic<Obs_DeviceMemRef>, "the arrays read",
                           [MemRead]>;
def Obs_DeviceOutputs : Arg<Variadic<Obs_DeviceMemRef>, "the arrays written",
                            [MemWrite]>;

class Obs_DeviceOp<string mnemonic, list<Trait> traits = []>
    : Obs_Op<mnemonic, !listconcat(traits,
        [AttrSizedOperandSegments, IsolatedFromAbove])> {
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  code deviceOpDeclarations = [{
    /// The element's scalars, one per input memref.
    ::llvm::SmallVector<::mlir::Type> getElementTypes() {
      ::llvm::SmallVector<::mlir::Type> types;
      for (::mlir::Value input : getInputs())
        types.push_back(
            ::llvm::cast<::mlir::MemRefType>(input.getType()).getElementType());
      return types;
    }
  }];
  let extraClassDeclaration = deviceOpDeclarations;
}

def Obs_DeviceMapOp : Obs_DeviceOp<"device_map"> {
  let summary = "applies a function to every element of arrays of any length";
  let description = [{
    `outs[j][i] = f(ins[0][i], ins[1][i], ..., s[0], s[1], ...)[j]` for
    every `i` below `n`, the length of the first input, at run time, where
    `s[k]` is the one element of `scalars[k]`. The region takes one scalar
    of each input, then one of each `scalars` memref, and yields one of
    each output; it is applied to present elements only (a division by an
    element cannot trap on a place that is not there). The other `ins` and
    `outs` should hold `n` elements too: one that is shorter is read as
    zeros past its end and written only up to its end; an output that is
    longer keeps its places from `n` on as they were. `scalars` are
    broadcast: every element reads the same value, such as a reduction's
    result, which lives on the device.
    `--obs-expand-device` turns it into a launch of one kernel over tiles of
    the arrays, which reads each `scalars` memref whole in every block (an
    `obs.global` argument).

    ```mlir
    obs.device_map ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
    ^bb0(%v: f32):
      %w = arith.mulf %v, %v : f32
      obs.yield %w : f32
    }
    // Every element less the array's maximum, %max a memref<1xf32> that
    // an obs.device_reduce wrote.
    obs.device_map ins(%x : memref<?xf32>) scalars(%max : memref<1xf32>)
        outs(%y : memref<?xf32>) {
    ^bb0(%v: f32, %m: f32):
      %w = arith.subf %v, %m : f32
      obs.yield %w : f32
    }
    ```
  }];
  let arguments = (ins Obs_DeviceInputs:$inputs,
                       Arg<Variadic<MemRefRankOf<[AnyType], [1]>>,
                           "the one-element arrays every element reads",
                           [MemRead]>:$scalars,
                       Obs_DeviceOutputs:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `ins` `(` $inputs `:` type($inputs) `)`
    (`scalars` `(` $scalars^ `:` type($scalars) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)` $body attr-dict
  }];
  let extraClassDeclaration = deviceOpDeclarations # [{
    /// The types of the `scalars` memrefs' elements.
    ::llvm::SmallVector<::mlir::Type> getScalarTypes() {
      ::llvm::SmallVector<::mlir::Type> types;
      for (::mlir::Value scalar : getScalars())
        types.push_back(
            ::llvm::cast<::mlir::MemRefType>(scalar.getType()).getElementType());
      return types;
    }
  }];
}

def Obs_DeviceReduceOp : Obs_DeviceOp<"device_reduce"> {
  let summary = "folds an array of any length with an associative combine";
  let description = [{
    `outs[..][0] = a[0] ⊕ a[1] ⊕ ... ⊕ a[n-1]`, for `n`, the length of
    the first input at run time (0 gives `e`; a later input is read up to
    `n`, and one that is shorter reads as `e`'s scalars past its end), an
    associative `⊕` given by the
    region (the accumulated element's scalars, then the next element's),
    and its identity `e`, one typed constant per scalar of the element.
    The plans combine `e` on the right only (absent elements of a partial
    tile), so `x ⊕ e = x` must hold for every `x`: obs-expand-device tries
    it on samples that include the type's extremes, -0.0 and `e` itself
    (a float sum's identity is -0.0), and `e ⊕ x = x` on ordinary
    samples, and refuses an identity that fails either. A minimum of
    (key, value) pairs whose ties keep the left pair may take (largest
    key, 0): it is no identity of (largest key, v) on the left, which no
    plan asks of it. The combination may be reassociated (a
    floating-point sum may round differently from a sequential one) but not
    reordered: `⊕` need not be commutative. `--obs-expand-device` lowers it
    to a launch plan that reads each element once.

    ```mlir
    obs.device_reduce ins(%in : memref<?xi32>) outs(%sum : memref<1xi32>)
        identity [0 : i32] {
    ^bb0(%acc: i32, %x: i32):
      %s = arith.addi %acc, %x : i32
      obs.yield %s : i32
    }
    ```
  }];
  let arguments = (ins Obs_DeviceInputs:$inputs,
                       Obs_DeviceOutputs:$outputs,
                       TypedArrayAttrBase<AnyAttr,
                                          "one typed constant per scalar">:$identity);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)`
    `identity` $identity $body attr-dict
  }];
}

def Obs_DeviceScanOp : Obs_DeviceOp<"device_scan"> {
  let summary = "the prefix combination of an array of any length";
  let description = [{
    `inclusive`: `out[i] = a[0] ⊕ ... ⊕ a[i]`; `exclusive`: `out[0] = e`
    and `out[i] = a[0] ⊕ ... ⊕ a[i-1]`, for every `i` below `n`, the
    length of the first input at run time (later inputs are read as
    `obs.device_reduce`'s; an output's places from `n` on are
    left as they were), an associative `⊕` given by the region (the
    earlier element's scalars, then the later one's) and its identity `e`
    (checked as `obs.device_reduce`'s: `x ⊕ e = x` everywhere, the
    first tile taking no carry, so that the answer does not depend on
    the tiles). `⊕` need not be commutative (a recurrence
    is a scan over affine maps). `--obs-expand-device` lowers it to
    reduce-then-scan: block totals, a scan of the totals (itself a device
    scan), and a scan of each block's elements from its total's prefix.

    ```mlir
    obs.device_scan inclusive ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
        identity [0 : i32] {
    ^bb0(%x: i32, %y: i32):
      %s = arith.addi %x, %y : i32
      obs.yield %s : i32
    }
    ```
  }];
  let arguments = (ins Obs_ScanKindAttr:$kind,
                       Obs_DeviceInputs:$inputs,
                       Obs_DeviceOutputs:$outputs,
                       TypedArrayAttrBase<AnyAttr,
                                          "one typed constant per scalar">:$identity);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)`
    `identity` $identity $body attr-dict
  }];
}

def Obs_DeviceSortOp : Obs_DeviceOp<"device_sort"> {
  let summary = "sorts an array of any length, stably";
  let description = [{
    `outs` holds the elements of `ins` in ascending order of the region's
    `less` (two elements, each as its scalars, to an `i1`: whether the
    first must come before the second), for `n`, the length of the inputs
    at run time. The sort is stable: equivalent elements keep their input
    order, so a tuple element sorts key-value pairs by their key (the
    values ride along). `ins` and `outs` may be the same memrefs. Every
    one holds `n` elements: static lengths that differ are an error of the
    verifier, and run-time ones are checked before the sort's first
    launch (the program stops with one line naming the memref). `n` is
    at most 2^31 - 1 (2147483647), checked the same way: the plans count
    and place elements in 32 bits.

    `--obs-expand-device` lowers it to an LSD radix sort where `less`
    orders the first scalar by its value: `arith.cmpi slt`, `ult` (or `sgt`,
    `ugt` for descending order) on integers, `arith.cmpf olt` or `ult` (or
    `ogt`, `ugt`) on floats, whose bits it orders as IEEE 754's total order
    does, except that -0.0 and 0.0 are equal (as `olt` says; they keep their
    input order), with NaNs of either sign at either end. Each pass of 8 bits
    counts a tile's digits, scans the counts across tiles, and scatters each
    tile's elements stably to their places. Any other `less` (a strict
    weak order: two keys, a descending second key, an absolute value) gets
    a merge sort: each tile sorted stably by merges of runs in shared
    memory, then merge passes that double the sorted runs, each block
    merging its share of two runs found by a binary search along the merge
    path.

    ```mlir
    obs.device_sort ins(%keys, %values : memref<?xi32>, memref<?xf32>)
                    outs(%keys, %values : memref<?xi32>, memref<?xf32>) {
    ^bb0(%k1: i32, %v1: f32, %k2: i32, %v2: f32):
      %less = arith.cmpi slt, %k1, %k2 : i32
      obs.yield %less : i1
    }
    ```
  }];
  let arguments = (ins Obs_DeviceInputs:$inputs,
                       Obs_DeviceOutputs:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` $body attr-dict
  }];
  let extraClassDeclaration = deviceOpDeclarations # [{
    /// The most elements a sort takes: its plans count and place elements
    /// in 32 bits.
    static constexpr int64_t kMostElements = 2147483647;
  }];
}


#endif // OBS_DIALECT_OBS_OBSHOSTOPS_TD
