module attributes {gpu.container_module} {
  func.func @h() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @m {
    gpu.func @k() private(%p: memref<4xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      gpu.return
    }
  }
}
