//===- ObsInterfaces.td - pull arrays and work assignment ---*- tablegen -*-===//

#ifndef OBS_DIALECT_OBS_OBSINTERFACES_TD
#define OBS_DIALECT_OBS_OBSINTERFACES_TD

include "mlir/IR/OpBase.td"

def Obs_PullArrayOpInterface : OpInterface<"PullArrayOpInterface"> {
  let cppNamespace = "::mlir::obs";
  let description = [{
    An op whose array results are pull arrays: each knows how to emit the IR
    that computes one of its elements from elements of its operands. This is
    Obsidian's `Arr (IndexE -> a) Int`: the index function, as IR.

    Elements are addressed at the leaves: a leaf of an array nested `d` deep is
    named by `d` indices, outermost first. `emitElement` receives the index at
    this array's level and the indices below it (`innerPath`, empty for an
    array of scalars or tuples) and returns the leaf's flattened scalars. It
    obtains operand elements, region results and scalar values only through
    the `ElementEmitter`, which decides where they come from: a materialised
    buffer, a region argument bound to an element, or recursively another
    op's index function. The reference target and the kernel lowering differ
    only in the sources they give the emitter.
  }];
  let methods = [
    InterfaceMethod<[{
        Emits, at the emitter's insertion point, the flattened scalars of the
        leaf of result `resultNumber` at `[index] ++ innerPath`.
      }],
      "::llvm::SmallVector<::mlir::Value>", "emitElement",
      (ins "::mlir::obs::ElementEmitter &":$emitter,
           "unsigned":$resultNumber, "::mlir::Value":$index,
           "::mlir::ValueRange":$innerPath)>
  ];
}

def Obs_PullScalarOpInterface : OpInterface<"PullScalarOpInterface"> {
  let cppNamespace = "::mlir::obs";
  let description = [{
    An op whose scalar results are read out of pull arrays (`obs.index` of a
    scalar or tuple element, `obs.reduce`). The emitter asks it for all of its
    results at once.
  }];
  let methods = [
    InterfaceMethod<[{
        Emits, at the emitter's insertion point, the values of all results.
      }],
      "::llvm::SmallVector<::mlir::Value>", "emitScalars",
      (ins "::mlir::obs::ElementEmitter &":$emitter)>
  ];
}

def Obs_WorkAssignmentAttrInterface
    : AttrInterface<"WorkAssignmentAttrInterface"> {
  let cppNamespace = "::mlir::obs";
  let description = [{
    Which thread computes which element of a synced array of length N
    (Obsidian's `How`). Thread `t` computes in round `r` at most one element;
    the assignment is a bijection between the elements and a subset of the
    (thread, round) pairs.
  }];
  let methods = [
    InterfaceMethod<"Threads needed to cover an array of `length` elements.",
      "uint64_t", "getThreadCount", (ins "uint64_t":$length)>,
    InterfaceMethod<"Rounds a thread runs for an array of `length` elements.",
      "uint64_t", "getRoundCount", (ins "uint64_t":$length)>,
    InterfaceMethod<[{
        The element thread `thread` computes in round `round`, or nothing
        when that thread is idle in that round.
      }],
      "std::optional<uint64_t>", "getElement",
      (ins "uint64_t":$thread, "uint64_t":$round, "uint64_t":$length)>,
    InterfaceMethod<"The thread that computes `element`.",
      "uint64_t", "getThread", (ins "uint64_t":$element)>,
    InterfaceMethod<[{
        Emits the thread that computes `element` (an index value), as
        getThread says. Not folded: the op's first operand is the element.
      }],
      "::mlir::Value", "buildThread",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::Value":$element)>,
    InterfaceMethod<[{
        Emits the round in which its thread computes `element` (an index
        value). Not folded: the op's first operand is the element.
      }],
      "::mlir::Value", "buildRound",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::Value":$element)>,
    InterfaceMethod<[{
        Emits the round in which `thread` computes `element`, for a caller
        that has checked (or has the simulation check) that `thread` is its
        thread; any value where it is not. Relative to the thread, it folds
        where buildRound's does not: a thread's own element of a known
        round, less a constant (blocked<k>: `element - k * thread`, where
        `element mod k` folds only for k a power of two). buildRound by
        default.
      }],
      "::mlir::Value", "buildRoundInThread",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::Value":$element, "::mlir::Value":$thread),
      /*methodBody=*/[{}],
      /*defaultImplementation=*/[{
        return $_attr.buildRound(builder, loc, element);
      }]>,
    InterfaceMethod<[{
        Emits the element index that thread `thread` computes in round
        `round` (both index values, which fold when constant); the caller
        guards it against `length`.
      }],
      "::mlir::Value", "buildElementIndex",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::Value":$thread, "::mlir::Value":$round)>
  ];
}

#endif // OBS_DIALECT_OBS_OBSINTERFACES_TD
