// obs-fuzz --seed=23: mismatch: number 0 is 14 on cpu but 0 on ref
// Input: --input=random:920:-100:100
// Expected: obs-run fuzz-23-207-reduced.mlir --kernel=fuzz --target=ref --input=random:920:-100:100
// Failing: obs-opt fuzz-23-207-reduced.mlir --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks,obs-flatten,canonicalize,obs-plan-shared,obs-assign-work{threads=32 strategy=blocked},obs-elide-warp-syncs,obs-inplace,obs-verify-sync),obs-to-cpu{order=forward seed=330})'

obs.kernel @fuzz(%input: !obs.arr<64 x i8>) -> !obs.arr<64 x i8> {
  %v0 = obs.scan %input network(sklansky) : !obs.arr<64 x i8> {
  ^bb0(%x1: i8, %x2: i8):
    %v3 = arith.xori %x1, %x2 : i8
    obs.yield %v3 : i8
  }
  %v4 = obs.one %v0 : !obs.arr<64 x i8> -> !obs.arr<64 x i8> {
  ^bb0(%p5: !obs.arr<32 x i8>):
    %v6 = obs.sync %p5 : !obs.arr<32 x i8>
    obs.yield %v6 : !obs.arr<32 x i8>
  }
  obs.return %v4 : !obs.arr<64 x i8>
}
