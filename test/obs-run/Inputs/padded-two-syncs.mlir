// Two live shared arrays of 176 rows of 32 i32 (22,528 bytes each), both
// read by columns at the end: each padding obs-plan-shared tries counts
// against the block's 48 KiB with the paddings it has chosen.
obs.kernel @k(%t: !obs.arr<176 x !obs.arr<32 x i32>>)
    -> !obs.arr<32 x !obs.arr<176 x i32>> attributes {threads = 32} {
  %a = obs.sync %t : !obs.arr<176 x !obs.arr<32 x i32>>
  %g = obs.generate : !obs.arr<176 x !obs.arr<32 x i32>> {
  ^bb0(%i: index):
    %row = obs.generate : !obs.arr<32 x i32> {
    ^bb0(%j: index):
      %n = arith.constant 175 : index
      %ri = arith.subi %n, %i : index
      %r = obs.index %a[%ri] : !obs.arr<176 x !obs.arr<32 x i32>>
      %v = obs.index %r[%j] : !obs.arr<32 x i32>
      %c1 = arith.constant 1 : i32
      %w = arith.addi %v, %c1 : i32
      obs.yield %w : i32
    }
    obs.yield %row : !obs.arr<32 x i32>
  }
  %b = obs.sync %g : !obs.arr<176 x !obs.arr<32 x i32>>
  %h = obs.generate : !obs.arr<32 x !obs.arr<176 x i32>> {
  ^bb0(%i: index):
    %row = obs.generate : !obs.arr<176 x i32> {
    ^bb0(%j: index):
      %ra = obs.index %a[%j] : !obs.arr<176 x !obs.arr<32 x i32>>
      %va = obs.index %ra[%i] : !obs.arr<32 x i32>
      %rb = obs.index %b[%j] : !obs.arr<176 x !obs.arr<32 x i32>>
      %vb = obs.index %rb[%i] : !obs.arr<32 x i32>
      %w = arith.addi %va, %vb : i32
      obs.yield %w : i32
    }
    obs.yield %row : !obs.arr<176 x i32>
  }
  obs.return %h : !obs.arr<32 x !obs.arr<176 x i32>>
}
