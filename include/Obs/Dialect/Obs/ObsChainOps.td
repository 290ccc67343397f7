//===- ObsChainOps.td - obs.carry, blocks that wait on earlier ones -------===//
//
// Included by ObsOps.td: the op that lets a block wait for what the blocks
// that started before it publish (docs/Rationale.md, "Blocks that wait on
// earlier blocks").
//
//===----------------------------------------------------------------------===//

#ifndef OBS_DIALECT_OBS_OBSCHAINOPS_TD
#define OBS_DIALECT_OBS_OBSCHAINOPS_TD

// Writes and reads the launch's chain, which no value stands for: two alike
// must not be merged nor one hoisted.
def Obs_CarryOp : Obs_Op<"carry", [
    AllTypesMatch<["value", "result"]>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ConditionallySpeculatable>,
    HasParent<"KernelOp">]> {
  let summary = "what the tiles before this block's combine to (decoupled look-back)";
  let description = [{
    Element by element, the combination, by `combine`, of the `value`s
    of every tile before this block's, in tile order: element `e` is
    `id ⊕ v_0[e] ⊕ ... ⊕ v_(t-1)[e]` in the block whose tile is `t`,
    where `id` is the combine's identity (0 for `add` and `or`, the least
    value for `max`, the greatest for `min`, all ones for `and`): the
    first tile, which has none before it, gets `id`, and `carry ⊕ x` is
    then right in every tile. `value` is an array of `K` integers of at
    most 32 bits (a tile's digit counts, say, where `K` is 256); the
    result has its type. `combine` is `add`, `min`, `max` (signed), `or`
    or `and`: each is associative, so the answer does not depend on the
    order in which the tiles' values are met.

    The blocks of a launch run in any order, so a block cannot wait for one
    with a lower `block_id`. A kernel with an `obs.chain` argument takes
    its tile as a ticket instead: the first block to start takes tile 0,
    the next tile 1, and so on (an atomic counter in the chain's word 0),
    so a block waits only for blocks that have started, and every use of
    the block's position (`obs.block_id`, `obs.extent`, the chunks of its
    arguments and results) is the ticket's. The carry is Merrill and
    Garland's decoupled look-back, element by element (CUB's onesweep
    looks back over a tile's 256 digit counts so): the thread that
    computes element `e` publishes it in the chain (word `1 + t * K + e`:
    a flag in its high 32 bits, the element's bits in its low ones), reads
    the words of element `e` of the tiles before it, waiting while one
    holds nothing yet, combining published values until it meets a tile's
    inclusive prefix, then publishes its own inclusive prefix; a block
    barrier hands the result to every thread. A state is one word,
    written and read by atomics at the GPU's scope, so a read meets a whole
    state and what it combines travels in it: no other memory is published
    (CUB's tile status of one word). Nothing else crosses blocks: only this
    op reads or writes the chain, and the launch proof keeps any other
    operand off its allocation.

    The chain is the launch's operand for `chain`, an `obs.chain`
    argument: `memref<N x i64>` with `N` at least `K` words per block of
    the grid plus one, or `memref<?xi64>` checked to be at run time.
    obs-expand-device clears it before every launch (a launch of `@obs_clear_chain`), so it
    need not be given zeroed. The `ref` target runs the tiles in order;
    the `cpu` target runs each block to its end in the block order asked
    for, and answers the look-back's reads with states a word held earlier
    (nothing yet, a value, an inclusive prefix), chosen by the run's seed,
    so that every read meets every state a GPU's could.

    ```mlir
    %before = obs.carry %total combine(add) chain(%chain)
        : !obs.arr<1 x i32>, !obs.arr<4097 x i64>
    // Each digit's count in the tiles before, over a grid of 16 blocks.
    %counts = obs.carry %digits combine(add) chain(%chain)
        : !obs.arr<256 x i32>, !obs.arr<4097 x i64>
    ```
  }];
  let arguments = (ins Obs_Arr:$value, Obs_Arr:$chain,
                       Obs_ScatterCombineAttr:$combine);
  let results = (outs Obs_Arr:$result);
  let assemblyFormat = [{
    $value custom<Combine>($combine) `chain` `(` $chain `)` attr-dict `:`
    qualified(type($value)) `,` qualified(type($chain))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::obs::ArrType getType() {
      return ::llvm::cast<::mlir::obs::ArrType>(getResult().getType());
    }
    /// `before ⊕ after` by the combine, on the value's integers.
    ::mlir::Value buildCombine(::mlir::OpBuilder &builder,
                               ::mlir::Location loc, ::mlir::Value before,
                               ::mlir::Value after);
    /// The combine's identity, of the value's integer type: what the
    /// first tile's carry is.
    ::mlir::Value buildIdentity(::mlir::OpBuilder &builder,
                                ::mlir::Location loc);
    /// The chain words a tile's states take: one per element of the
    /// value.
    uint64_t getWordsPerTile() { return getType().getLength(); }
    /// The chain word of element `element`'s state in tile `tile` (both
    /// indices): `1 + tile * K + element`, after the ticket counter.
    ::mlir::Value buildChainWord(::mlir::OpBuilder &builder,
                                 ::mlir::Location loc, ::mlir::Value tile,
                                 ::mlir::Value element);
  }];
}

#endif // OBS_DIALECT_OBS_OBSCHAINOPS_TD
