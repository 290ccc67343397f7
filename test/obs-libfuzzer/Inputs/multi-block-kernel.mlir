module attributes {gpu.container_module} {
  func.func @h() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @m {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      cf.br ^bb1
    ^bb1:
      gpu.return
    }
  }
}
