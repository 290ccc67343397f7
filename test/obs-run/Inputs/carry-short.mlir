// A chain one word short of its grid plus one, its length known only at
// run time: obs-check-launches' premise stops the run before the launch,
// where the last tile's look-back would write past the chain.
// test/obs-run/carry.test runs it.
obs.kernel @k(%a: !obs.arr<1 x i32> {obs.absent = 0 : i32},
              %chain: !obs.arr<2 x i64> {obs.chain})
    -> !obs.arr<1 x i32> attributes {threads = 1} {
  %before = obs.carry %a combine(add) chain(%chain)
      : !obs.arr<1 x i32>, !obs.arr<2 x i64>
  obs.return %before : !obs.arr<1 x i32>
}

func.func @short(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %chain = memref.alloc(%n) : memref<?xi64>
  obs.launch @k grid(%n) ins(%in, %chain : memref<?xi32>, memref<?xi64>) outs(%out : memref<?xi32>)
  memref.dealloc %chain : memref<?xi64>
  return
}
