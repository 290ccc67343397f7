// RUN: obs-opt %s --obs-lower-reference --verify-diagnostics
// RUN: obs-opt %s --obs-to-cpu --verify-diagnostics

// The functions obs's runtime provides (Obs/Support/RuntimeFunctions.h)
// are declared once, by the lowering that calls them; a symbol of the same
// name that is not such a function is an error at it, on the ref target
// and on the cpu target alike (where the kernel's own declaration moves to
// the host module).

// expected-error @+1 {{@obs_scatter_collision is a function obs's runtime provides, of type '(i64, i64, i64, i64) -> ()'}}
func.func private @obs_scatter_collision(i32)

obs.kernel @inverse(%p: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %out = obs.scatter %p at %p initial(-1 : i32) : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %out : !obs.arr<8 x i32>
}
