// Seed 003's grid models: a time step is a stencil over a 2-D grid. Here
// heat diffusion on a 256 x 256 grid, written on nested arrays
// (!obs.arr<256 x !obs.arr<256 x f32>>): each interior cell moves towards
// the mean of its four neighbours,
//
//   u'[i][j] = u[i][j] + k * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1]
//                             - 4 u[i][j]),          k = 0.2,
//
// and the boundary keeps its values. A step is one stage over global memory,
// dealt out by cell (thread t of 256 computes column t of each row, so a
// warp reads and writes consecutive cells); @diffusion runs 8 steps as
// launches that alternate between two grids.
//
//   obs-run diffusion.mlir --entry=diffusion --target=cpu --input=GRID.txt

obs.kernel @diffusion_step(%u: !obs.arr<256 x !obs.arr<256 x f32>>)
    -> !obs.arr<256 x !obs.arr<256 x f32>> attributes {threads = 256} {
  %next = obs.generate : !obs.arr<256 x !obs.arr<256 x f32>> {
  ^bb0(%i: index):
    %row = obs.generate : !obs.arr<256 x f32> {
    ^bb0(%j: index):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c255 = arith.constant 255 : index
      %here = obs.index %u[%i] : !obs.arr<256 x !obs.arr<256 x f32>>
      %centre = obs.index %here[%j] : !obs.arr<256 x f32>
      %i_inside = arith.cmpi ult, %i, %c255 : index
      %i_positive = arith.cmpi ugt, %i, %c0 : index
      %j_inside = arith.cmpi ult, %j, %c255 : index
      %j_positive = arith.cmpi ugt, %j, %c0 : index
      %rows = arith.andi %i_inside, %i_positive : i1
      %columns = arith.andi %j_inside, %j_positive : i1
      %interior = arith.andi %rows, %columns : i1
      %value = scf.if %interior -> (f32) {
        %up_index = arith.subi %i, %c1 : index
        %down_index = arith.addi %i, %c1 : index
        %left_index = arith.subi %j, %c1 : index
        %right_index = arith.addi %j, %c1 : index
        %up_row = obs.index %u[%up_index] : !obs.arr<256 x !obs.arr<256 x f32>>
        %down_row = obs.index %u[%down_index] : !obs.arr<256 x !obs.arr<256 x f32>>
        %up = obs.index %up_row[%j] : !obs.arr<256 x f32>
        %down = obs.index %down_row[%j] : !obs.arr<256 x f32>
        %left = obs.index %here[%left_index] : !obs.arr<256 x f32>
        %right = obs.index %here[%right_index] : !obs.arr<256 x f32>
        %vertical = arith.addf %up, %down : f32
        %horizontal = arith.addf %left, %right : f32
        %neighbours = arith.addf %vertical, %horizontal : f32
        %four = arith.constant 4.0 : f32
        %k = arith.constant 0.2 : f32
        %scaled = arith.mulf %four, %centre : f32
        %laplacian = arith.subf %neighbours, %scaled : f32
        %flow = arith.mulf %k, %laplacian : f32
        %updated = arith.addf %centre, %flow : f32
        scf.yield %updated : f32
      } else {
        scf.yield %centre : f32
      }
      obs.yield %value : f32
    }
    obs.yield %row : !obs.arr<256 x f32>
  }
  obs.return %next : !obs.arr<256 x !obs.arr<256 x f32>>
}

func.func @diffusion(%initial: memref<256x256xf32>, %u: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %other = memref.alloc() : memref<256x256xf32>
  memref.copy %initial, %u : memref<256x256xf32> to memref<256x256xf32>
  scf.for %step = %c0 to %c4 step %c1 {
    obs.launch @diffusion_step grid(1) ins(%u : memref<256x256xf32>)
        outs(%other : memref<256x256xf32>)
    obs.launch @diffusion_step grid(1) ins(%other : memref<256x256xf32>)
        outs(%u : memref<256x256xf32>)
  }
  memref.dealloc %other : memref<256x256xf32>
  return
}
