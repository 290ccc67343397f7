// A program's own kernel named @obs_clear_chain, which writes ones, and
// launches it: obs-expand-device's clearing kernel is judged by what it
// does, not by its name, so the chain of @k3 is cleared by a kernel of
// its own (a run that cleared it with ones took tickets from 1 and spun
// forever). test/obs-run/carry.test runs it.
obs.kernel @obs_clear_chain() -> !obs.arr<256 x i64> attributes {threads = 256} {
  %z = obs.generate : !obs.arr<256 x i64> {
  ^bb0(%i: index):
    %c = arith.constant 1 : i64
    obs.yield %c : i64
  }
  obs.return %z : !obs.arr<256 x i64>
}
obs.kernel @k3(%a: !obs.arr<1 x i32> {obs.absent = 0 : i32}, %chain: !obs.arr<3 x i64> {obs.chain})
    -> !obs.arr<1 x i32> attributes {threads = 1} {
  %before = obs.carry %a combine(add) chain(%chain) : !obs.arr<1 x i32>, !obs.arr<3 x i64>
  obs.return %before : !obs.arr<1 x i32>
}
func.func @run(%in: memref<?xi32>, %out: memref<?xi32>, %ones: memref<256xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  obs.launch @obs_clear_chain grid(1) outs(%ones : memref<256xi64>)
  %n = memref.dim %in, %c0 : memref<?xi32>
  %w = arith.addi %n, %c1 : index
  %chain = memref.alloc(%w) : memref<?xi64>
  obs.launch @k3 grid(%n) ins(%in, %chain : memref<?xi32>, memref<?xi64>) outs(%out : memref<?xi32>)
  memref.dealloc %chain : memref<?xi64>
  return
}

// A program's own launch of zeros over only the first 256 words of a
// chain, right before a launch that carries: the words past them still
// hold the first launch's states, so obs clears the chain whole anyway
// (taking that launch for its clear made the second run's tiles past 256
// read the first run's prefixes).
obs.kernel @zeros() -> !obs.arr<256 x i64> attributes {threads = 256} {
  %z = obs.generate : !obs.arr<256 x i64> {
  ^bb0(%i: index):
    %c = arith.constant 0 : i64
    obs.yield %c : i64
  }
  obs.return %z : !obs.arr<256 x i64>
}
func.func @twice(%first: memref<?xi32>, %second: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %first, %c0 : memref<?xi32>
  %w = arith.addi %n, %c1 : index
  %chain = memref.alloc(%w) : memref<?xi64>
  obs.launch @k3 grid(%n) ins(%first, %chain : memref<?xi32>, memref<?xi64>) outs(%out : memref<?xi32>)
  obs.launch @zeros grid(1) outs(%chain : memref<?xi64>)
  obs.launch @k3 grid(%n) ins(%second, %chain : memref<?xi32>, memref<?xi64>) outs(%out : memref<?xi32>)
  memref.dealloc %chain : memref<?xi64>
  return
}
