// RUN: obs-opt %s --split-input-file --verify-diagnostics

// A kernel's `strategy` names one of obs-assign-work's strategies.

obs.kernel @misspelt(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32>
    // expected-error @+2 {{expected ::mlir::obs::WorkStrategy to be one of: strided, blocked, compact, cost}}
    // expected-error @+1 {{failed to parse Obs_WorkStrategyAttr parameter 'value'}}
    attributes {strategy = #obs.strategy<fastest>} {
  obs.return %a : !obs.arr<4 x i32>
}

// -----

// `threads` and `strategy` of the wrong kind are errors, not dropped (an
// obs.kernel's inherent attributes become properties, where one of the
// wrong kind vanished: `threads = 1.5` ran on a thread per element).
// expected-error @+1 {{'threads' must be a positive integer (an i64), not 1.500000e+00 : f64}}
obs.kernel @fractional_threads(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = 1.5} {
  obs.return %a : !obs.arr<64 x i32>
}

// -----

// expected-error @+1 {{'threads' must be a positive integer (an i64), not "many"}}
obs.kernel @named_threads(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {threads = "many"} {
  obs.return %a : !obs.arr<64 x i32>
}

// -----

// expected-error @+1 {{'strategy' must be a #obs.strategy<strided|blocked|compact|cost>, not 5 : i64}}
obs.kernel @numbered_strategy(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> attributes {strategy = 5} {
  obs.return %a : !obs.arr<64 x i32>
}
