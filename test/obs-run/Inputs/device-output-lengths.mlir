// Device ops whose output is longer or shorter than their input
// (device-output-lengths.test): each output starts as a copy of the first
// argument, so what the op leaves alone shows.
func.func @scan_past(%prefill: memref<?xi32>, %in: memref<?xi32>, %out: memref<?xi32>) {
  memref.copy %prefill, %out : memref<?xi32> to memref<?xi32>
  obs.device_scan inclusive ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) identity [0 : i32] {
  ^bb0(%a: i32, %b: i32):
    %r = arith.addi %a, %b : i32
    obs.yield %r : i32
  }
  return
}
func.func @map_past(%prefill: memref<?xi32>, %in: memref<?xi32>, %out: memref<?xi32>) {
  memref.copy %prefill, %out : memref<?xi32> to memref<?xi32>
  obs.device_map ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%a: i32):
    %c = arith.constant 5 : i32
    %r = arith.addi %a, %c : i32
    obs.yield %r : i32
  }
  return
}
// Two inputs, the second longer than the first: a fold reads both up to
// the first's length n.
func.func @reduce_later_longer(%first: memref<?xi32>, %second: memref<?xi32>,
                               %s: memref<1xi32>, %t: memref<1xi32>) {
  obs.device_reduce ins(%first, %second : memref<?xi32>, memref<?xi32>)
      outs(%s, %t : memref<1xi32>, memref<1xi32>) identity [0 : i32, 0 : i32] {
  ^bb0(%a: i32, %b: i32, %c: i32, %d: i32):
    %p = arith.addi %a, %c : i32
    %q = arith.addi %b, %d : i32
    obs.yield %p, %q : i32, i32
  }
  return
}
// The same as a scan, the second input (a copy of it) scanned in place;
// the copy then summed, so that both its scanned and its untouched places
// count.
func.func @scan_later_longer(%first: memref<?xi32>, %second: memref<?xi32>,
                             %out: memref<?xi32>, %total: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %length = memref.dim %second, %c0 : memref<?xi32>
  %copy = memref.alloc(%length) : memref<?xi32>
  memref.copy %second, %copy : memref<?xi32> to memref<?xi32>
  obs.device_scan inclusive ins(%first, %copy : memref<?xi32>, memref<?xi32>)
      outs(%out, %copy : memref<?xi32>, memref<?xi32>) identity [0 : i32, 0 : i32] {
  ^bb0(%a: i32, %b: i32, %c: i32, %d: i32):
    %p = arith.addi %a, %c : i32
    %q = arith.addi %b, %d : i32
    obs.yield %p, %q : i32, i32
  }
  obs.device_reduce ins(%copy : memref<?xi32>) outs(%total : memref<1xi32>)
      identity [0 : i32] {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    obs.yield %s : i32
  }
  memref.dealloc %copy : memref<?xi32>
  return
}
// A map in place on its second input, longer than the first: the places
// from n on keep their numbers; the output copies the input after.
func.func @map_in_place_later_longer(%b: memref<?xi32>, %a: memref<?xi32>,
                                     %out: memref<?xi32>) {
  obs.device_map ins(%a, %b : memref<?xi32>, memref<?xi32>) outs(%b : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  memref.copy %b, %out : memref<?xi32> to memref<?xi32>
  return
}
