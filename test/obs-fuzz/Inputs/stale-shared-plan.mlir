// obs-fuzz --seed=2026: failure: 'obs.sync' op has no place for its buffer in the shared-memory plan (obs.shared_offsets within the kernel's 160-byte arena): the plan is stale; run obs-plan-shared again
// Input: --input=random:62894:-100:100
// Expected: obs-run fuzz-2026-88-reduced.mlir --kernel=fuzz --target=ref --input=random:62894:-100:100
// Failing: the pipeline in test/obs-fuzz/regressions.test (STALE)

obs.kernel @fuzz(%input: !obs.arr<32 x f32>) -> !obs.arr<32 x f32> {
  %v0 = obs.one %input : !obs.arr<32 x f32> -> !obs.arr<32 x f32> {
  ^bb0(%p1: !obs.arr<16 x f32>):
    %v2 = obs.scan %p1 : !obs.arr<16 x f32> {
    ^bb0(%x3: f32, %x4: f32):
      %v5 = arith.minimumf %x3, %x4 : f32
      obs.yield %v5 : f32
    }
    %r7 = obs.reduce %v2 network(tree) : !obs.arr<16 x f32> -> f32 {
    ^bb0(%x8: f32, %x9: f32):
      %v10 = arith.addf %x8, %x9 : f32
      obs.yield %v10 : f32
    }
    %v6 = obs.map %v2 : !obs.arr<16 x f32> -> !obs.arr<16 x f32> {
    ^bb0(%x11: f32):
      %v12 = arith.addf %x11, %r7 : f32
      obs.yield %v12 : f32
    }
    obs.yield %v6 : !obs.arr<16 x f32>
  }
  obs.return %v0 : !obs.arr<32 x f32>
}
