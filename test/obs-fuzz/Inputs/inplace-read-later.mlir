// obs-fuzz --seed=2: mismatch: number 0 is -86 on cpu but 74 on ref
// Input: --input=random:150:-100:100
// Expected: obs-run fuzz-2-88-reduced.mlir --kernel=fuzz --target=ref --input=random:150:-100:100
// Failing: obs-opt fuzz-2-88-reduced.mlir --pass-pipeline='builtin.module(obs.kernel(obs-expand-networks,obs-flatten,canonicalize,obs-inplace,obs-assign-work{threads=1 strategy=strided},obs-verify-sync),obs-to-cpu{order=forward seed=527})'

obs.kernel @fuzz(%input: !obs.arr<2 x i8>) -> !obs.arr<2 x i8> {
  %r1 = obs.reduce %input network(tree) : !obs.arr<2 x i8> -> i8 {
  ^bb0(%x2: i8, %x3: i8):
    %v4 = arith.addi %x2, %x3 : i8
    obs.yield %v4 : i8
  }
  %v0 = obs.map %input : !obs.arr<2 x i8> -> !obs.arr<2 x i8> {
  ^bb0(%x5: i8):
    %v6 = arith.addi %x5, %r1 : i8
    obs.yield %v6 : i8
  }
  %v7 = obs.one %v0 : !obs.arr<2 x i8> -> !obs.arr<2 x i8> {
  ^bb0(%p8: !obs.arr<1 x i8>):
    %v9 = obs.sync %p8 : !obs.arr<1 x i8>
    obs.yield %v9 : !obs.arr<1 x i8>
  }
  obs.return %v7 : !obs.arr<2 x i8>
}
