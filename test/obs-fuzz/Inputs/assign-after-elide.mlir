// obs-fuzz --seed=23: failure: 'obs.sync' op warp scope is unsafe: thread 32 (warp 1) writes element 32 of the buffer of the op at -:3:9 before the barrier and thread 16 (warp 0) reads it after it (read after write); only a block barrier orders threads of different warps
// Input: --input=random:1034:-100:100
// Expected: obs-run fuzz-23-321-reduced.mlir --kernel=fuzz --target=ref --input=random:1034:-100:100
// Failing: obs-opt fuzz-23-321-reduced.mlir --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks,obs-flatten,canonicalize,obs-elide-warp-syncs,obs-assign-work{threads=128 strategy=blocked},obs-inplace,obs-verify-sync),obs-to-cpu{order=forward seed=575})'

obs.kernel @fuzz(%input: !obs.arr<256 x f32>) -> !obs.arr<256 x f32> attributes {threads = 128} {
  %v0 = obs.sync compact<128> %input : !obs.arr<256 x f32>
  %v1 = obs.two %v0 : !obs.arr<256 x f32> -> !obs.arr<256 x f32> {
  ^bb0(%p2: !obs.arr<128 x f32>):
    %v3 = obs.sync %p2 : !obs.arr<128 x f32>
    obs.yield %v3 : !obs.arr<128 x f32>
  }
  obs.return %v1 : !obs.arr<256 x f32>
}
