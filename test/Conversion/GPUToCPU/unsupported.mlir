// RUN: obs-opt %s --split-input-file --obs-gpu-to-cpu --verify-diagnostics

// Tests of lib/Conversion/GPUToCPU (the checks of CPUChecks.cpp:
// checkRunsOnCPU and checkLaunchRunsOnCPU): gpu IR that the CPU lowering
// cannot run is one located error. Each of these was once converted: the first three
// left uses of the erased gpu.module's values behind (found by valgrind on
// the libFuzzer corpus: writes into freed operations), and the rest ran as
// some other kernel or launch.

// An async launch's token has no meaning on the CPU, which runs each launch
// where it stands.
module attributes {gpu.container_module} {
  func.func @host() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op is async: the CPU lowering runs launches in program order and has no token to return}}
    %t1 = gpu.launch_func async @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %t2 = gpu.launch_func async [%t1] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @m {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// The block function is the kernel's one block.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'gpu.func' op has more than one block: the CPU lowering runs one block, split at its barriers}}
    gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      cf.br ^bb1
    ^bb1:
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'gpu.func' op has private attributions, which the CPU lowering does not allocate}}
    gpu.func @k() private(%p: memref<4xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      gpu.return
    }
  }
}

// -----

// Threads and blocks are counted along x only.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'gpu.func' op has a block of more than one dimension; the CPU lowering runs x threads only}}
    gpu.func @k() kernel attributes {known_block_size = array<i32: 4, 2, 1>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @host() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{'gpu.launch_func' op has a grid of more than one dimension; the CPU lowering loops over x blocks only}}
    gpu.launch_func @m::@k blocks in (%c1, %c2, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @m {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// A shuffle assumes the threads of a warp run in lockstep; on the CPU they
// run one after another.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%buf: memref<32xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %t = gpu.thread_id x
      %x = memref.load %buf[%t] : memref<32xi32>
      // expected-error @+1 {{'gpu.shuffle' op has no CPU lowering}}
      %y, %valid = gpu.shuffle xor %x, %c1, %c32 : i32
      memref.store %y, %buf[%t] : memref<32xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%buf: memref<4xindex>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %t = gpu.thread_id x
      // expected-error @+1 {{'gpu.grid_dim' op needs the kernel's known_grid_size to run on the CPU}}
      %g = gpu.grid_dim x
      memref.store %g, %buf[%t] : memref<4xindex>
      gpu.return
    }
  }
}

// -----

// The block function runs known_block_size threads, so a launch of another
// number would run as a launch of that number.
module attributes {gpu.container_module} {
  func.func @host() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{'gpu.launch_func' op needs a constant block size equal to its kernel's known_block_size (4, 1, 1) to run on the CPU, not (2, 1, 1)}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1)
    return
  }
  gpu.module @m {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// A block size that is not a constant cannot be checked.
module attributes {gpu.container_module} {
  func.func @host(%threads: index) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op needs a constant block size equal to its kernel's known_block_size (4, 1, 1) to run on the CPU, not (?, 1, 1)}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%threads, %c1, %c1)
    return
  }
  gpu.module @m {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// grid_dim x is answered from known_grid_size, and the blocks are counted
// from the launch: the two must agree.
module attributes {gpu.container_module} {
  func.func @host() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    // expected-error @+1 {{'gpu.launch_func' op needs a constant grid size equal to its kernel's known_grid_size (2, 1, 1) to run on the CPU, not (3, 1, 1)}}
    gpu.launch_func @m::@k blocks in (%c3, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @m {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1, 1>, known_grid_size = array<i32: 2, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// A launch in a nested module names that module's kernel, not the outer
// module's kernel of the same name, which is the only one converted.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
  }
  module @inner attributes {gpu.container_module} {
    func.func @host() {
      %c1 = arith.constant 1 : index
      // expected-error @+1 {{'gpu.launch_func' op launches a kernel this pass did not convert}}
      gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      return
    }
    gpu.module @m {
      gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
        gpu.return
      }
    }
  }
}

// -----

// Along y and z too: the block function runs one row of threads.
module attributes {gpu.container_module} {
  func.func @host() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{'gpu.launch_func' op needs a constant block size equal to its kernel's known_block_size (4, 1, 1) to run on the CPU, not (4, 2, 1)}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c2, %c1)
    return
  }
  gpu.module @m {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      gpu.return
    }
  }
}
