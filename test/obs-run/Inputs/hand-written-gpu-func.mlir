// A hand-written gpu.func and its launch: the cpu target runs it (out =
// [7]); ref, which lowers obs ops, has no kernels of its own to run.
module attributes {gpu.container_module} {
  func.func @one(%out: memref<1xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<1xi32>)
    return
  }
  gpu.module @m {
    gpu.func @write(%out: memref<1xi32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = arith.constant 7 : i32
      memref.store %v, %out[%c0] : memref<1xi32>
      gpu.return
    }
  }
}
