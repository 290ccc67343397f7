obs.kernel @fuzz(%input: !obs.arr<512 x f64>) -> !obs.arr<512 x f64> attributes {threads = 32} {
  %v0 = obs.two %input : !obs.arr<512 x f64> -> !obs.arr<512 x f64> {
  ^bb0(%p1: !obs.arr<256 x f64>):
    %v2 = obs.evens %p1 : !obs.arr<256 x f64> {
    ^bb0(%x3: f64, %x4: f64):
      %v5 = arith.maximumf %x3, %x4 : f64
      %c7 = arith.constant 0.0 : f64
      %v6 = arith.maximumf %x3, %c7 : f64
      obs.yield %v5, %v6 : f64, f64
    }
    %v8 = obs.two %v2 : !obs.arr<256 x f64> -> !obs.arr<256 x f64> {
    ^bb0(%p9: !obs.arr<128 x f64>):
      %v10 = obs.two %p9 : !obs.arr<128 x f64> -> !obs.arr<128 x f64> {
      ^bb0(%p11: !obs.arr<64 x f64>):
        %v12 = obs.sync %p11 : !obs.arr<64 x f64>
        %v13 = obs.rev %v12 : !obs.arr<64 x f64>
        obs.yield %v13 : !obs.arr<64 x f64>
      }
      %v14 = obs.evens %v10 : !obs.arr<128 x f64> {
      ^bb0(%x15: f64, %x16: f64):
        %b17 = arith.cmpf olt, %x16, %x15 : f64
        %v18 = arith.select %b17, %x16, %x15 : f64
        %v19 = arith.select %b17, %x15, %x16 : f64
        obs.yield %v18, %v19 : f64, f64
      }
      %v21, %v22 = obs.halve %v14 : !obs.arr<128 x f64>
      %v23 = obs.riffle %v21 : !obs.arr<64 x f64>
      %v24 = obs.evens %v23 : !obs.arr<64 x f64> {
      ^bb0(%x25: f64, %x26: f64):
        %b27 = arith.cmpf olt, %x26, %x25 : f64
        %v28 = arith.select %b27, %x26, %x25 : f64
        %v29 = arith.select %b27, %x25, %x26 : f64
        obs.yield %v28, %v29 : f64, f64
      }
      %r31 = obs.reduce %v24 : !obs.arr<64 x f64> -> f64 {
      ^bb0(%x32: f64, %x33: f64):
        %v34 = arith.addf %x32, %x33 : f64
        obs.yield %v34 : f64
      }
      %v30 = obs.map %v24 : !obs.arr<64 x f64> -> !obs.arr<64 x f64> {
      ^bb0(%x35: f64):
        %v36 = arith.addf %x35, %r31 : f64
        obs.yield %v36 : f64
      }
      %v37 = obs.map %v22 : !obs.arr<64 x f64> -> !obs.arr<64 x f64> {
      ^bb0(%x38: f64):
        %v39 = arith.negf %x38 : f64
        obs.yield %v39 : f64
      }
      %v20 = obs.conc %v30, %v37 : !obs.arr<64 x f64>, !obs.arr<64 x f64>
      obs.yield %v20 : !obs.arr<128 x f64>
    }
    obs.yield %v8 : !obs.arr<256 x f64>
  }
  %v40 = obs.generate : !obs.arr<512 x f64> {
  ^bb0(%i41: index):
    %c42 = arith.constant 13 : index
    %c43 = arith.constant 418 : index
    %c44 = arith.constant 512 : index
    %i45 = arith.muli %i41, %c42 : index
    %i46 = arith.addi %i45, %c43 : index
    %i47 = arith.remui %i46, %c44 : index
    %v48 = obs.index %v0[%i47] : !obs.arr<512 x f64>
    obs.yield %v48 : f64
  }
  %v50, %v51 = obs.halve %v40 : !obs.arr<512 x f64>
  %v52 = obs.sync %v51 : !obs.arr<256 x f64>
  %v49 = obs.conc %v50, %v52 : !obs.arr<256 x f64>, !obs.arr<256 x f64>
  %v53 = obs.generate : !obs.arr<512 x f64> {
  ^bb0(%i54: index):
    %c55 = arith.constant 15 : index
    %c56 = arith.constant 133 : index
    %c57 = arith.constant 512 : index
    %i58 = arith.muli %i54, %c55 : index
    %i59 = arith.addi %i58, %c56 : index
    %i60 = arith.remui %i59, %c57 : index
    %v61 = obs.index %v49[%i60] : !obs.arr<512 x f64>
    obs.yield %v61 : f64
  }
  %v62 = obs.one %v53 : !obs.arr<512 x f64> -> !obs.arr<512 x f64> {
  ^bb0(%p63: !obs.arr<256 x f64>):
    %v64 = obs.odds %p63 : !obs.arr<256 x f64> {
    ^bb0(%x65: f64, %x66: f64):
      %b67 = arith.cmpf olt, %x66, %x65 : f64
      %v68 = arith.select %b67, %x66, %x65 : f64
      %v69 = arith.select %b67, %x65, %x66 : f64
      obs.yield %v68, %v69 : f64, f64
    }
    %v70 = obs.ilv %v64 : !obs.arr<256 x f64> -> !obs.arr<256 x f64> {
    ^bb0(%p71: !obs.arr<128 x f64>):
      %v73 = obs.rev %p71 : !obs.arr<128 x f64>
      %v74 = obs.zip %p71, %v73 : !obs.arr<128 x f64>, !obs.arr<128 x f64>
      %v72 = obs.map %v74 : !obs.arr<128 x tuple<f64, f64>> -> !obs.arr<128 x f64> {
      ^bb0(%x75: f64, %x76: f64):
        %v77 = arith.maximumf %x75, %x76 : f64
        obs.yield %v77 : f64
      }
      %v79 = obs.rev %v72 : !obs.arr<128 x f64>
      %v80 = obs.zip %v72, %v79 : !obs.arr<128 x f64>, !obs.arr<128 x f64>
      %v78 = obs.map %v80 : !obs.arr<128 x tuple<f64, f64>> -> !obs.arr<128 x f64> {
      ^bb0(%x81: f64, %x82: f64):
        %v83 = arith.minimumf %x81, %x82 : f64
        obs.yield %v83 : f64
      }
      obs.yield %v78 : !obs.arr<128 x f64>
    }
    obs.yield %v70 : !obs.arr<256 x f64>
  }
  obs.return %v62 : !obs.arr<512 x f64>
}
obs.kernel @fuzz_copy(%input: !obs.arr<512 x f64>) -> !obs.arr<512 x f64> {
  obs.return %input : !obs.arr<512 x f64>
}
func.func @launch(%in: memref<512xf64>, %out: memref<512xf64>) {
  obs.launch @fuzz_copy grid(1) ins(%in : memref<512xf64>) outs(%out : memref<512xf64>)
  obs.launch @fuzz grid(1) ins(%out : memref<512xf64>) outs(%out : memref<512xf64>)
      layouts [affine_map<(b, i) -> (((b * 1 + 0) mod 1) * 512 + i)>, affine_map<(b, i) -> (((b * 5 + 0) mod 1) * 512 + i)>]
  return
}
