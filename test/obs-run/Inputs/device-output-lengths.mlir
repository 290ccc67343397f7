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
