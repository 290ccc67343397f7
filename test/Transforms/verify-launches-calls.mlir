// RUN: obs-opt %s --obs-verify-launches -split-input-file -verify-diagnostics

// The launch proof follows allocations through calls: a function that
// launches kernels takes its memref arguments, and the globals it reaches
// (itself or through its calls), to be distinct allocations. A call that
// passes it a global it reaches is rejected, and so is a call the proof
// cannot follow that passes memrefs in a module whose functions launch.

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

memref.global "private" @g : memref<8xi32> = uninitialized

// Reads its argument, writes @g: as two memories, a copy that the blocks
// run in any order.
func.func private @into_g(%in: memref<8xi32>) {
  %g = memref.get_global @g : memref<8xi32>
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%g : memref<8xi32>)
  return
}

func.func @passes_g() {
  // expected-note @+1 {{the allocation}}
  %g = memref.get_global @g : memref<8xi32>
  // expected-error @+1 {{'func.call' op passes @g as argument 0 to a function that launches kernels and reaches @g itself: its memref arguments and the globals it uses are proved as distinct allocations}}
  func.call @into_g(%g) : (memref<8xi32>) -> ()
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

memref.global "private" @g : memref<8xi32> = uninitialized

func.func private @into_g(%in: memref<8xi32>) {
  %g = memref.get_global @g : memref<8xi32>
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%g : memref<8xi32>)
  return
}

// Through a function between them, and a view of @g: the function in
// between reaches @g through its call.
func.func private @between(%in: memref<8xi32>) {
  func.call @into_g(%in) : (memref<8xi32>) -> ()
  return
}

func.func @through_a_call() {
  // expected-note @+1 {{the allocation}}
  %g = memref.get_global @g : memref<8xi32>
  %v = memref.cast %g : memref<8xi32> to memref<8xi32>
  // expected-error @+1 {{'func.call' op passes @g as argument 0 to a function that launches kernels and reaches @g itself}}
  func.call @between(%v) : (memref<8xi32>) -> ()
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

memref.global "private" @g : memref<8xi32> = uninitialized

func.func private @into_g(%in: memref<8xi32>) {
  %g = memref.get_global @g : memref<8xi32>
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%g : memref<8xi32>)
  return
}

// An indirect call of a func.constant is followed like a direct one.
func.func @indirect() {
  // expected-note @+1 {{the allocation}}
  %g = memref.get_global @g : memref<8xi32>
  %f = func.constant @into_g : (memref<8xi32>) -> ()
  // expected-error @+1 {{'func.call_indirect' op passes @g as argument 0 to a function that launches kernels and reaches @g itself}}
  func.call_indirect %f(%g) : (memref<8xi32>) -> ()
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

func.func private @launches(%a: memref<8xi32>, %b: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%a : memref<8xi32>) outs(%b : memref<8xi32>)
  return
}

// A function the proof cannot tell may be @launches, given one allocation
// twice: rejected, not left unchecked.
func.func @unknown(%f: (memref<8xi32>, memref<8xi32>) -> (), %a: memref<8xi32>) {
  // expected-error @+1 {{'func.call_indirect' op passes memrefs to a function the launch proof cannot tell, in a module whose functions launch kernels: the proof follows only calls by symbol (or of a func.constant), so that it sees every allocation a launch is given}}
  func.call_indirect %f(%a, %a) : (memref<8xi32>, memref<8xi32>) -> ()
  return
}

// -----

// Safe and kept: a fresh allocation passed, and a constant global that the
// callee only reads.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

memref.global "private" @g : memref<8xi32> = uninitialized
memref.global "private" constant @table : memref<8xi32> = dense<[1, 2, 3, 4, 5, 6, 7, 8]>

func.func private @into_g(%in: memref<8xi32>) {
  %g = memref.get_global @g : memref<8xi32>
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%g : memref<8xi32>)
  %t = memref.get_global @table : memref<8xi32>
  %out = memref.alloc() : memref<8xi32>
  obs.launch @copy grid(2) ins(%t : memref<8xi32>) outs(%out : memref<8xi32>)
  memref.dealloc %out : memref<8xi32>
  return
}

func.func @kept(%in: memref<8xi32>) {
  %a = memref.alloc() : memref<8xi32>
  memref.copy %in, %a : memref<8xi32> to memref<8xi32>
  func.call @into_g(%a) : (memref<8xi32>) -> ()
  %t = memref.get_global @table : memref<8xi32>
  func.call @into_g(%t) : (memref<8xi32>) -> ()
  memref.dealloc %a : memref<8xi32>
  return
}

// -----

// A constant global given to a helper whose launch writes its argument,
// through a second helper: the launch wrote read-only memory (ref
// crashed, cpu lost the writes). Found by an adversarial run; the direct
// launch was rejected already.
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

memref.global "private" constant @table : memref<8xi32> = dense<[1, 2, 3, 4, 5, 6, 7, 8]>

func.func private @apply(%in: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @copy grid(2) ins(%in : memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

func.func private @forward(%in: memref<8xi32>, %out: memref<8xi32>) {
  func.call @apply(%in, %out) : (memref<8xi32>, memref<8xi32>) -> ()
  return
}

func.func @write_table(%in: memref<8xi32>) {
  // expected-note @+1 {{the allocation}}
  %t = memref.get_global @table : memref<8xi32>
  // expected-error @+1 {{'func.call' op passes a constant global as argument 1 to a function whose launches write it, and a constant global is read-only}}
  func.call @forward(%in, %t) : (memref<8xi32>, memref<8xi32>) -> ()
  return
}
