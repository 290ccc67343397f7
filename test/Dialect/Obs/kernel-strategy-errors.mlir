// RUN: obs-opt %s --verify-diagnostics

// A kernel's `strategy` names one of obs-assign-work's strategies.

obs.kernel @misspelt(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32>
    // expected-error @+2 {{expected ::mlir::obs::WorkStrategy to be one of: strided, blocked, compact, cost}}
    // expected-error @+1 {{failed to parse Obs_WorkStrategyAttr parameter 'value'}}
    attributes {strategy = #obs.strategy<fastest>} {
  obs.return %a : !obs.arr<4 x i32>
}
