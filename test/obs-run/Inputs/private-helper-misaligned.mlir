// A private helper that launches kernels, given views 4 bytes into byte
// buffers (argument-contract.test): its kernels' pointers claimed 16-byte
// alignment, and only public functions checked it.
obs.kernel @triple(%a: !obs.arr<256 x i32> {obs.absent = 0 : i32}) -> !obs.arr<256 x i32> attributes {threads = 64} {
  %r = obs.map %a : !obs.arr<256 x i32> -> !obs.arr<256 x i32> {
  ^bb0(%x: i32):
    %c = arith.constant 3 : i32
    %s = arith.muli %x, %c : i32
    obs.yield %s : i32
  }
  obs.return %r : !obs.arr<256 x i32>
}
func.func private @apply(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %g = arith.ceildivui %n, %c256 : index
  obs.launch @triple grid(%g) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}
func.func @shifted(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %n1 = arith.addi %n, %c1 : index
  %bytes = arith.muli %n1, %c4 : index
  %a = memref.alloc(%bytes) : memref<?xi8>
  %b = memref.alloc(%bytes) : memref<?xi8>
  %va = memref.view %a[%c4][%n] : memref<?xi8> to memref<?xi32>
  %vb = memref.view %b[%c4][%n] : memref<?xi8> to memref<?xi32>
  memref.copy %in, %va : memref<?xi32> to memref<?xi32>
  func.call @apply(%va, %vb) : (memref<?xi32>, memref<?xi32>) -> ()
  memref.copy %vb, %out : memref<?xi32> to memref<?xi32>
  memref.dealloc %a : memref<?xi8>
  memref.dealloc %b : memref<?xi8>
  return
}
