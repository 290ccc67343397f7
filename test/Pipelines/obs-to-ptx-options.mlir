// obs-to-ptx's options are checked before anything runs: a chip NVPTX does
// not know (it warned and emitted PTX for `.target sm_1000`, which ptxas
// refuses), an empty one (the NVVM target's verifier crashed), one older
// than obs's kernels need, a toolkit that is not there (upstream's
// serializer reported it and the pipeline exited 0), and an unknown format
// each stop it with one line and a non-zero exit (hunt 23).
// RUN: not obs-opt %s --obs-to-ptx="chip=" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: obs-to-ptx: unknown chip '': expected an NVPTX architecture such as sm_80, sm_90 or sm_100
// RUN: not obs-opt %s --obs-to-ptx="chip= serialize=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not obs-opt %s --obs-to-ptx="chip=sm_1000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: obs-to-ptx: unknown chip 'sm_1000'
// UNKNOWN-NOT: not a recognized processor
// RUN: not obs-opt %s --obs-to-ptx="chip=sm_20" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: error: obs-to-ptx: chip 'sm_20' is older than obs's kernels need
// RUN: not obs-opt %s --obs-to-ptx="toolkit=%t.absent" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// TOOLKIT: error: obs-gpu-module-to-binary: the CUDA toolkit '{{.*}}.absent' is not a directory
// TOOLKIT-NOT: builtin.module
// RUN: not obs-opt %s --obs-to-ptx="format=elf" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: obs-gpu-module-to-binary: unknown format 'elf' (llvm, isa, bin or fatbin)
// A toolkit without libdevice, which @erf needs: upstream's serializer
// reports it and carries on, and the pass now fails on its error.
// RUN: rm -rf %t.kit && mkdir %t.kit
// RUN: not obs-opt %s --obs-to-ptx="toolkit=%t.kit" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIBDEVICE
// LIBDEVICE: error: LibDevice path: {{.*}}.kit/nvvm/libdevice/libdevice.10.bc does not exist or is not a file
// A known chip runs.
// RUN: obs-opt %s --obs-to-ptx="chip=sm_100" | FileCheck %s --check-prefix=KNOWN
// KNOWN: gpu.binary @obs_kernels

obs.kernel @rev(%a: !obs.arr<32 x i32>) -> !obs.arr<32 x i32> {
  %r = obs.rev %a : !obs.arr<32 x i32>
  %s = obs.sync %r : !obs.arr<32 x i32>
  obs.return %s : !obs.arr<32 x i32>
}

obs.kernel @erf(%a: !obs.arr<32 x f32>) -> !obs.arr<32 x f32> {
  %r = obs.map %a : !obs.arr<32 x f32> -> !obs.arr<32 x f32> {
  ^bb0(%x: f32):
    %e = math.erf %x : f32
    obs.yield %e : f32
  }
  obs.return %r : !obs.arr<32 x f32>
}
