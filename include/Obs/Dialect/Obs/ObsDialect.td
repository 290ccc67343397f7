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
  // A kernel launched in place (an output over an input) carries, for the
  // refinement passes, the pairs of its elements that share a place within
  // a block: read operand, read element, written operand, written element,
  // four numbers each (obs-collect-launch-overlaps sets it).
  let discardableAttrs = (ins
    "::mlir::DenseI64ArrayAttr":$launch_overlaps
  );
  let hasOperationAttrVerify = 1;
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 0;
}

class Obs_Op<string mnemonic, list<Trait> traits = []>
    : Op<Obs_Dialect, mnemonic, traits>;

#endif // OBS_DIALECT_OBS_OBSDIALECT_TD
