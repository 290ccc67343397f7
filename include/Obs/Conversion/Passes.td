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
    * the results are copied into the destinations.

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

#endif // OBS_CONVERSION_PASSES_TD
