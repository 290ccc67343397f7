// Seed 004 (Lawlor, EPGPU): a fill kernel, `result = start + i`.
//
//   GPU_FILLKERNEL(float,
//   simple_floats,(float start),
//   {
//   result=start+i;
//   }
//   )
//   ...
//   arr=simple_floats(1000.23);      // n = 10
//
// prints 1000.23, 1001.23, ..., 1009.23. An obs kernel takes arrays, so
// `start` comes in as an array of one.

obs.kernel @simple_floats(%start: !obs.arr<1 x f32>) -> !obs.arr<10 x f32> {
  %c0 = arith.constant 0 : index
  %s = obs.index %start[%c0] : !obs.arr<1 x f32>
  %result = obs.generate : !obs.arr<10 x f32> {
  ^bb0(%i: index):
    %n = arith.index_cast %i : index to i32
    %x = arith.sitofp %n : i32 to f32
    %r = arith.addf %s, %x : f32
    obs.yield %r : f32
  }
  obs.return %result : !obs.arr<10 x f32>
}
