// Device ops in place, and one whose output overlaps its input
// (test/obs-run/device-in-place.test).

// The scan and the map of %a into %a, then copied out.
func.func @scan_in_place(%a: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_scan inclusive ins(%a : memref<?xi32>) outs(%a : memref<?xi32>) identity [0 : i32] {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  memref.copy %a, %out : memref<?xi32> to memref<?xi32>
  return
}
func.func @map_in_place(%a: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_map ins(%a : memref<?xi32>) outs(%a : memref<?xi32>) {
  ^bb0(%x: i32):
    %c = arith.constant 3 : i32
    %s = arith.muli %x, %c : i32
    obs.yield %s : i32
  }
  memref.copy %a, %out : memref<?xi32> to memref<?xi32>
  return
}

// The same map with no output of its own: obs-run prints the argument it
// works in place on (it printed nothing, and wrote no --output).
func.func @triple(%a: memref<?xi32>) {
  obs.device_map ins(%a : memref<?xi32>) outs(%a : memref<?xi32>) {
  ^bb0(%x: i32):
    %c = arith.constant 3 : i32
    %s = arith.muli %x, %c : i32
    obs.yield %s : i32
  }
  return
}

// The sum of %a into its own first element (a view of it), then copied
// out.
func.func @reduce_in_place(%a: memref<?xi32>, %out: memref<?xi32>) {
  %first = memref.subview %a[0] [1] [1] : memref<?xi32> to memref<1xi32, strided<[1]>>
  obs.device_reduce ins(%a : memref<?xi32>) outs(%first : memref<1xi32, strided<[1]>>) identity [0 : i32] {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  memref.copy %a, %out : memref<?xi32> to memref<?xi32>
  return
}

// A device scan whose output overlaps its input one element on: rejected.
func.func @shifted(%in: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  %n1 = arith.addi %n, %c4 : index
  %bytes = arith.muli %n1, %c4 : index
  %buffer = memref.alloc(%bytes) : memref<?xi8>
  %a = memref.view %buffer[%c0][%n] : memref<?xi8> to memref<?xi32>
  %b = memref.view %buffer[%c4][%n] : memref<?xi8> to memref<?xi32>
  obs.device_scan inclusive ins(%a : memref<?xi32>) outs(%b : memref<?xi32>) identity [0 : i32] {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  memref.dealloc %buffer : memref<?xi8>
  return
}
