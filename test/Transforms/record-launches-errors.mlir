// RUN: obs-opt %s --obs-record-launches --verify-diagnostics

// obs-record-launches declares @obs_record_launch, which obs-run provides;
// a symbol of that name that is not that function is an error at it.

// expected-error @+1 {{@obs_record_launch is a function obs's runtime provides, of type '(i64, i64, i64, i64, i64) -> ()'}}
func.func private @obs_record_launch(i64)

obs.kernel @copy(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  obs.return %a : !obs.arr<8 x i32>
}

func.func @run(%in: memref<16xi32>, %out: memref<16xi32>) {
  obs.launch @copy grid(2) ins(%in : memref<16xi32>) outs(%out : memref<16xi32>)
  return
}
