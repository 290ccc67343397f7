// obs-fuzz --seed=2026: failure: 'obs.sync' op has no place for its buffer in the shared-memory plan (obs.shared_offsets within the kernel's 160-byte arena): the plan is stale; run obs-plan-shared again
// Input: --input=random:62894:-100:100
// Expected: obs-run fuzz-2026-88.mlir --kernel=fuzz --target=ref --input=random:62894:-100:100
// Failing: obs-opt fuzz-2026-88.mlir --pass-pipeline='builtin.module(obs-collect-launch-overlaps,obs.kernel(obs-expand-networks,obs-flatten,canonicalize,obs-plan-shared,obs-elide-warp-syncs,obs-assign-work{threads=0 strategy=compact},obs-verify-sync),obs-to-cpu{order=forward seed=933 block-order=shuffle block-seed=445})'

obs.kernel @fuzz(%input: !obs.arr<32 x f32>) -> !obs.arr<32 x f32> attributes {threads = 512} {
  %v0 = obs.generate : !obs.arr<32 x f32> {
  ^bb0(%i1: index):
    %c2 = arith.constant 9 : index
    %c3 = arith.constant 16 : index
    %c4 = arith.constant 32 : index
    %i5 = arith.muli %i1, %c2 : index
    %i6 = arith.addi %i5, %c3 : index
    %i7 = arith.remui %i6, %c4 : index
    %v8 = obs.index %input[%i7] : !obs.arr<32 x f32>
    obs.yield %v8 : f32
  }
  %v10 = obs.rev %v0 : !obs.arr<32 x f32>
  %v11 = obs.zip %v0, %v10 : !obs.arr<32 x f32>, !obs.arr<32 x f32>
  %v9 = obs.map %v11 : !obs.arr<32 x tuple<f32, f32>> -> !obs.arr<32 x f32> {
  ^bb0(%x12: f32, %x13: f32):
    %v14 = arith.maximumf %x12, %x13 : f32
    obs.yield %v14 : f32
  }
  %v15 = obs.one %v9 : !obs.arr<32 x f32> -> !obs.arr<32 x f32> {
  ^bb0(%p16: !obs.arr<16 x f32>):
    %v17 = obs.generate : !obs.arr<16 x f32> {
    ^bb0(%i18: index):
      %c19 = arith.constant 13 : index
      %c20 = arith.constant 2 : index
      %c21 = arith.constant 16 : index
      %i22 = arith.muli %i18, %c19 : index
      %i23 = arith.addi %i22, %c20 : index
      %i24 = arith.remui %i23, %c21 : index
      %v25 = obs.index %p16[%i24] : !obs.arr<16 x f32>
      obs.yield %v25 : f32
    }
    %v26 = obs.scan %v17 : !obs.arr<16 x f32> {
    ^bb0(%x27: f32, %x28: f32):
      %v29 = arith.minimumf %x27, %x28 : f32
      obs.yield %v29 : f32
    }
    %r31 = obs.reduce %v26 network(tree) : !obs.arr<16 x f32> -> f32 {
    ^bb0(%x32: f32, %x33: f32):
      %v34 = arith.addf %x32, %x33 : f32
      obs.yield %v34 : f32
    }
    %v30 = obs.map %v26 : !obs.arr<16 x f32> -> !obs.arr<16 x f32> {
    ^bb0(%x35: f32):
      %v36 = arith.addf %x35, %r31 : f32
      obs.yield %v36 : f32
    }
    obs.yield %v30 : !obs.arr<16 x f32>
  }
  %v38 = obs.generate : !obs.arr<32 x i32> {
  ^bb0(%i39: index):
    %c40 = arith.constant 13 : index
    %c41 = arith.constant 17 : index
    %c42 = arith.constant 32 : index
    %i43 = arith.muli %i39, %c40 : index
    %i44 = arith.addi %i43, %c41 : index
    %i45 = arith.remui %i44, %c42 : index
    %i46 = arith.index_cast %i45 : index to i32
    obs.yield %i46 : i32
  }
  %v37 = obs.scatter %v15 at %v38 initial(0.0 : f32) : !obs.arr<32 x f32>, !obs.arr<32 x i32> -> !obs.arr<32 x f32>
  %v47 = obs.odds %v37 : !obs.arr<32 x f32> {
  ^bb0(%x48: f32, %x49: f32):
    %b50 = arith.cmpf olt, %x49, %x48 : f32
    %v51 = arith.select %b50, %x49, %x48 : f32
    %v52 = arith.select %b50, %x48, %x49 : f32
    obs.yield %v51, %v52 : f32, f32
  }
  %v54 = obs.rev %v47 : !obs.arr<32 x f32>
  %v55 = obs.zip %v47, %v54 : !obs.arr<32 x f32>, !obs.arr<32 x f32>
  %v53 = obs.map %v55 : !obs.arr<32 x tuple<f32, f32>> -> !obs.arr<32 x f32> {
  ^bb0(%x56: f32, %x57: f32):
    %v58 = arith.maximumf %x56, %x57 : f32
    obs.yield %v58 : f32
  }
  obs.return %v53 : !obs.arr<32 x f32>
}
