// Host code whose run-time checks could not hold it to its meaning, refused
// (test/obs-run/host-undefined.test).

func.func @raw_llvm_division(%in: memref<2xi64>, %out: memref<2xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %in[%c0] : memref<2xi64>
  %y = memref.load %in[%c1] : memref<2xi64>
  // expected-error @+1 {{'llvm.sdiv' op cannot be in host code, whose run-time checks know arith's, memref's and scf's ops: write it with those}}
  %q = llvm.sdiv %x, %y : i64
  memref.store %q, %out[%c0] : memref<2xi64>
  return
}

// -----

func.func @index_division(%in: memref<2xindex>, %out: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %in[%c0] : memref<2xindex>
  %y = memref.load %in[%c1] : memref<2xindex>
  // expected-error @+1 {{'index.divs' op cannot be in host code}}
  %q = index.divs %x, %y
  memref.store %q, %out[%c0] : memref<2xindex>
  return
}

// -----

// expected-error @+1 {{'func.func' op promises LLVM something in 'passthrough' that obs cannot check; host code keeps its meaning without}}
func.func @returns_after_all(%out: memref<4xi32>) attributes {passthrough = ["noreturn"]} {
  return
}

// -----

// expected-error @+1 {{'func.func' op promises LLVM 'llvm.noalias' of argument 0, which obs cannot check}}
func.func @no_alias(%a: memref<4xi32> {llvm.noalias}, %b: memref<4xi32>) {
  return
}

// -----

func.func @gigabyte_on_the_stack(%out: memref<4xi64>) {
  // expected-error @+1 {{'memref.alloca' op allocates more than 4 MiB on the stack}}
  %a = memref.alloca() : memref<134217728xi64>
  return
}

// -----

func.func @stack_in_a_loop(%in: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.load %in[%c0] : memref<2xindex>
  %size = memref.load %in[%c1] : memref<2xindex>
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'memref.alloca' op allocates on the stack in a loop, which takes more stack every iteration: allocate before the loop, or in a memref.alloca_scope}}
    %a = memref.alloca(%size) : memref<?xi64>
  }
  return
}
