// Device ops over elements so wide that 256 of them do not fit a block's
// shared memory (test/obs-run/device-wide-elements.test).

// A merge sort (`less` compares the second scalar) of 12 i64 scalars,
// 96 bytes an element.
func.func @sort_wide(%i0: memref<?xi64>, %i1: memref<?xi64>, %i2: memref<?xi64>, %i3: memref<?xi64>, %i4: memref<?xi64>, %i5: memref<?xi64>, %i6: memref<?xi64>, %i7: memref<?xi64>, %i8: memref<?xi64>, %i9: memref<?xi64>, %i10: memref<?xi64>, %i11: memref<?xi64>, %o0: memref<?xi64>, %o1: memref<?xi64>, %o2: memref<?xi64>, %o3: memref<?xi64>, %o4: memref<?xi64>, %o5: memref<?xi64>, %o6: memref<?xi64>, %o7: memref<?xi64>, %o8: memref<?xi64>, %o9: memref<?xi64>, %o10: memref<?xi64>, %o11: memref<?xi64>) {
  obs.device_sort ins(%i0, %i1, %i2, %i3, %i4, %i5, %i6, %i7, %i8, %i9, %i10, %i11 : memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>) outs(%o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10, %o11 : memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>) {
  ^bb0(%a0: i64, %a1: i64, %a2: i64, %a3: i64, %a4: i64, %a5: i64, %a6: i64, %a7: i64, %a8: i64, %a9: i64, %a10: i64, %a11: i64, %b0: i64, %b1: i64, %b2: i64, %b3: i64, %b4: i64, %b5: i64, %b6: i64, %b7: i64, %b8: i64, %b9: i64, %b10: i64, %b11: i64):
    %less = arith.cmpi slt, %a1, %b1 : i64
    obs.yield %less : i1
  }
  return
}

// An inclusive scan (sums) of 25 i64 scalars, 200 bytes an element.
func.func @scan_wide(%i0: memref<?xi64>, %i1: memref<?xi64>, %i2: memref<?xi64>, %i3: memref<?xi64>, %i4: memref<?xi64>, %i5: memref<?xi64>, %i6: memref<?xi64>, %i7: memref<?xi64>, %i8: memref<?xi64>, %i9: memref<?xi64>, %i10: memref<?xi64>, %i11: memref<?xi64>, %i12: memref<?xi64>, %i13: memref<?xi64>, %i14: memref<?xi64>, %i15: memref<?xi64>, %i16: memref<?xi64>, %i17: memref<?xi64>, %i18: memref<?xi64>, %i19: memref<?xi64>, %i20: memref<?xi64>, %i21: memref<?xi64>, %i22: memref<?xi64>, %i23: memref<?xi64>, %i24: memref<?xi64>, %o0: memref<?xi64>, %o1: memref<?xi64>, %o2: memref<?xi64>, %o3: memref<?xi64>, %o4: memref<?xi64>, %o5: memref<?xi64>, %o6: memref<?xi64>, %o7: memref<?xi64>, %o8: memref<?xi64>, %o9: memref<?xi64>, %o10: memref<?xi64>, %o11: memref<?xi64>, %o12: memref<?xi64>, %o13: memref<?xi64>, %o14: memref<?xi64>, %o15: memref<?xi64>, %o16: memref<?xi64>, %o17: memref<?xi64>, %o18: memref<?xi64>, %o19: memref<?xi64>, %o20: memref<?xi64>, %o21: memref<?xi64>, %o22: memref<?xi64>, %o23: memref<?xi64>, %o24: memref<?xi64>) {
  obs.device_scan inclusive ins(%i0, %i1, %i2, %i3, %i4, %i5, %i6, %i7, %i8, %i9, %i10, %i11, %i12, %i13, %i14, %i15, %i16, %i17, %i18, %i19, %i20, %i21, %i22, %i23, %i24 : memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>) outs(%o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10, %o11, %o12, %o13, %o14, %o15, %o16, %o17, %o18, %o19, %o20, %o21, %o22, %o23, %o24 : memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>) identity [0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64] {
  ^bb0(%a0: i64, %a1: i64, %a2: i64, %a3: i64, %a4: i64, %a5: i64, %a6: i64, %a7: i64, %a8: i64, %a9: i64, %a10: i64, %a11: i64, %a12: i64, %a13: i64, %a14: i64, %a15: i64, %a16: i64, %a17: i64, %a18: i64, %a19: i64, %a20: i64, %a21: i64, %a22: i64, %a23: i64, %a24: i64, %b0: i64, %b1: i64, %b2: i64, %b3: i64, %b4: i64, %b5: i64, %b6: i64, %b7: i64, %b8: i64, %b9: i64, %b10: i64, %b11: i64, %b12: i64, %b13: i64, %b14: i64, %b15: i64, %b16: i64, %b17: i64, %b18: i64, %b19: i64, %b20: i64, %b21: i64, %b22: i64, %b23: i64, %b24: i64):
    %s0 = arith.addi %a0, %b0 : i64
    %s1 = arith.addi %a1, %b1 : i64
    %s2 = arith.addi %a2, %b2 : i64
    %s3 = arith.addi %a3, %b3 : i64
    %s4 = arith.addi %a4, %b4 : i64
    %s5 = arith.addi %a5, %b5 : i64
    %s6 = arith.addi %a6, %b6 : i64
    %s7 = arith.addi %a7, %b7 : i64
    %s8 = arith.addi %a8, %b8 : i64
    %s9 = arith.addi %a9, %b9 : i64
    %s10 = arith.addi %a10, %b10 : i64
    %s11 = arith.addi %a11, %b11 : i64
    %s12 = arith.addi %a12, %b12 : i64
    %s13 = arith.addi %a13, %b13 : i64
    %s14 = arith.addi %a14, %b14 : i64
    %s15 = arith.addi %a15, %b15 : i64
    %s16 = arith.addi %a16, %b16 : i64
    %s17 = arith.addi %a17, %b17 : i64
    %s18 = arith.addi %a18, %b18 : i64
    %s19 = arith.addi %a19, %b19 : i64
    %s20 = arith.addi %a20, %b20 : i64
    %s21 = arith.addi %a21, %b21 : i64
    %s22 = arith.addi %a22, %b22 : i64
    %s23 = arith.addi %a23, %b23 : i64
    %s24 = arith.addi %a24, %b24 : i64
    obs.yield %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7, %s8, %s9, %s10, %s11, %s12, %s13, %s14, %s15, %s16, %s17, %s18, %s19, %s20, %s21, %s22, %s23, %s24 : i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64
  }
  return
}
