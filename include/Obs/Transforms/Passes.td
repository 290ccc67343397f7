//===- Passes.td - obs transformation passes ----------------*- tablegen -*-===//

#ifndef OBS_TRANSFORMS_PASSES_TD
#define OBS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ObsFlatten : Pass<"obs-flatten", "::mlir::obs::KernelOp"> {
  let summary = "Lift two, ilv and one with their sub-programs into programs "
                "over the whole array";
  let description = [{
    Obsidian's `two P` runs two instances of the program `P` side by side; on
    a GPU they run as one program whose stages span both halves, with one
    barrier per stage for both. This pass makes that explicit: every `two`,
    `ilv` and `one` whose sub-program contains a sync (at any depth) is
    replaced by a program over the whole array.

    * `two P`: each sync of `P` on `K` elements becomes one sync on `2K`
      elements, computing element `s*K + l` as element `l` of the sync's
      array in instance `s` (the segment index). The instance's view of an
      earlier stage is the segment `s` of that stage's merged result.
    * `ilv P` is `riffle (two P (unriffle a))`, then as `two`.
    * `one P` is `conc (halve a).low (P (halve a).high)`: `P` is inlined on
      the second half and its syncs keep their lengths.
    * A `repeat` with syncs inside `P` becomes a `repeat` over the whole
      array whose body is `two` of its body, flattened in turn.

    Nesting to any depth flattens from the inside out. Syncs keep their
    scope, placement and work assignment, now over the merged array. `two`,
    `ilv` and `one` without syncs are pure index functions and stay.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numLifted", "lifted", "Sub-program combinators lifted">,
    Statistic<"numMergedSyncs", "merged-syncs",
              "Syncs of sub-program instances merged into one">
  ];
}

#endif // OBS_TRANSFORMS_PASSES_TD
