// RUN: obs-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'index' is not an array element type}}
obs.kernel @bad_element(%a: !obs.arr<4 x index>) -> !obs.arr<4 x index> {
  obs.return %a : !obs.arr<4 x index>
}

// -----

// expected-error @+1 {{'tuple<>' is not an array element type}}
obs.kernel @empty_tuple(%a: !obs.arr<4 x tuple<>>) {
  obs.return
}

// -----

// expected-error @+1 {{'tuple<i32, !obs.arr<2 x i32>>' is not an array element type}}
obs.kernel @tuple_of_arrays(%a: !obs.arr<4 x tuple<i32, !obs.arr<2 x i32>>>) {
  obs.return
}

// -----

// expected-error @+1 {{array of 1099511627776 x 1 elements is larger than the limit of 4294967295 elements}}
obs.kernel @huge(%a: !obs.arr<1099511627776 x i32>) {
  obs.return
}

// -----

// expected-error @+1 {{array of 65536 x 65536 elements is larger than the limit}}
obs.kernel @huge_nested(%a: !obs.arr<65536 x !obs.arr<65536 x i8>>) {
  obs.return
}

// -----

obs.kernel @conc_too_large(%a: !obs.arr<4294967295 x i8>) {
  // expected-error @+1 {{result of 8589934590 x 1 elements is larger than the limit}}
  %0 = obs.conc %a, %a : !obs.arr<4294967295 x i8>, !obs.arr<4294967295 x i8>
  obs.return
}

// -----

obs.kernel @strided_zero(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{strided<0> needs between 1 and 1024 threads}}
  %0 = obs.sync strided<0> %a : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @strided_too_many(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{strided<2048> needs between 1 and 1024 threads}}
  %0 = obs.sync strided<2048> %a : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @blocked_zero(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{blocked<0> gives threads no elements}}
  %0 = obs.sync blocked<0> %a : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

// blocked<-1> is read as 2^64 - 1: its places would leave 64 bits.
obs.kernel @blocked_beyond_arrays(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{blocked<18446744073709551615> gives each thread more elements than an array may hold (at most 4294967295)}}
  %0 = obs.sync blocked<-1> %a : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @scope_twice(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{the sync's scope is given twice}}
  %0 = obs.sync warp block %a : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @placement_twice(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{the sync's placement is given twice}}
  %0 = obs.sync inplace fresh %a : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @how_twice(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{the sync's work assignment is given twice}}
  %0 = obs.sync strided<2> blocked<2> %a : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @strided_does_not_cover(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32>
    attributes {threads = 256} {
  // expected-error @+1 {{work assignment #obs.strided<512> needs 512 threads to cover 512 elements, but the kernel has 256}}
  %0 = obs.sync strided<512> %a : !obs.arr<512 x i32>
  obs.return %0 : !obs.arr<512 x i32>
}

// -----

obs.kernel @blocked_does_not_cover(%a: !obs.arr<512 x i32>) -> !obs.arr<512 x i32>
    attributes {threads = 128} {
  // expected-error @+1 {{work assignment #obs.blocked<2> needs 256 threads to cover 512 elements, but the kernel has 128}}
  %0 = obs.sync blocked<2> %a : !obs.arr<512 x i32>
  obs.return %0 : !obs.arr<512 x i32>
}

// -----

obs.kernel @sync_in_element_region(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  %0 = obs.map %a : !obs.arr<2 x !obs.arr<4 x i32>> -> !obs.arr<2 x !obs.arr<4 x i32>> {
  ^bb0(%row: !obs.arr<4 x i32>):
    // expected-error @+1 {{'obs.sync' op expects parent op to be one of 'obs.kernel, obs.two, obs.ilv, obs.one, obs.repeat'}}
    %s = obs.sync %row : !obs.arr<4 x i32>
    obs.yield %s : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<2 x !obs.arr<4 x i32>>
}

// -----

obs.kernel @sync_in_two_in_map(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  %0 = obs.map %a : !obs.arr<2 x !obs.arr<4 x i32>> -> !obs.arr<2 x !obs.arr<4 x i32>> {
  ^bb0(%row: !obs.arr<4 x i32>):
    %t = obs.two %row : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
    ^bb0(%h: !obs.arr<2 x i32>):
      // expected-error @+1 {{may only appear in a kernel or in the sub-program of two, ilv, one or repeat inside one, not inside 'obs.map'}}
      %s = obs.sync %h : !obs.arr<2 x i32>
      obs.yield %s : !obs.arr<2 x i32>
    }
    obs.yield %t : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<2 x !obs.arr<4 x i32>>
}

// -----

// expected-error @+1 {{argument 0 must be an !obs.arr, but is 'i32'}}
obs.kernel @scalar_argument(%a: i32) {
  obs.return
}

// -----

// expected-error @+1 {{result 0 must be an !obs.arr, but is 'i32'}}
obs.kernel @scalar_result(%a: !obs.arr<4 x i32>) -> i32 {
  %c = arith.constant 0 : i32
  obs.return %c : i32
}

// -----

// expected-error @+1 {{asks for 2048 threads, more than a block's 1024}}
obs.kernel @too_many_threads(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32>
    attributes {threads = 2048} {
  obs.return %a : !obs.arr<4 x i32>
}

// -----

// expected-error @+1 {{attribute 'threads' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
obs.kernel @zero_threads(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32>
    attributes {threads = 0} {
  obs.return %a : !obs.arr<4 x i32>
}

// -----

obs.kernel @wrong_return(%a: !obs.arr<4 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{returns (!obs.arr<4 x i32>) but the kernel's results are (!obs.arr<8 x i32>)}}
  obs.return %a : !obs.arr<4 x i32>
}

// -----

obs.kernel @foreign_op_makes_array(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %c = arith.constant true
  // expected-error @+1 {{'arith.select' op cannot take or produce !obs.arr values: only obs ops compute with arrays}}
  %0 = arith.select %c, %a, %a : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @foreign_region_holds_obs(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %0 = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'scf.while' op cannot hold obs ops in its regions (only scf.if and scf.for may)}}
    %r = scf.while (%j = %c0) : (index) -> index {
      %x = obs.index %a[%j] : !obs.arr<4 x i32>
      %z = arith.constant 0 : i32
      %cond = arith.cmpi ne, %x, %z : i32
      scf.condition(%cond) %j : index
    } do {
    ^bb0(%j: index):
      %n = arith.addi %j, %c1 : index
      scf.yield %n : index
    }
    %y = obs.index %a[%r] : !obs.arr<4 x i32>
    obs.yield %y : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @generate_arg(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{'obs.generate' op region must take (index) (the index, to the element), but takes (i32)}}
  %0 = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: i32):
    obs.yield %i : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @generate_yield(%a: !obs.arr<4 x tuple<i32, f32>>) -> !obs.arr<4 x tuple<i32, f32>> {
  %0 = obs.generate : !obs.arr<4 x tuple<i32, f32>> {
  ^bb0(%i: index):
    %x = arith.index_cast %i : index to i32
    // expected-error @+1 {{'obs.yield' op must yield (i32, f32) (the index, to the element), but yields (i32)}}
    obs.yield %x : i32
  }
  obs.return %0 : !obs.arr<4 x tuple<i32, f32>>
}

// -----

obs.kernel @map_nothing() -> !obs.arr<4 x i32> {
  // expected-error @+1 {{needs at least one array (obs.generate makes arrays from nothing)}}
  %0 = "obs.map"() ({
  ^bb0:
    %c = arith.constant 0 : i32
    obs.yield %c : i32
  }) : () -> !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @map_lengths(%a: !obs.arr<4 x i32>, %b: !obs.arr<8 x i32>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{maps arrays of one length to an array of that length, but has '!obs.arr<8 x i32>' and result '!obs.arr<4 x i32>'}}
  %0 = obs.map %a, %b : !obs.arr<4 x i32>, !obs.arr<8 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    obs.yield %x : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @map_args(%a: !obs.arr<4 x tuple<i32, i32>>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{region must take (i32, i32) (the elements of the inputs, to the element of the result), but takes (tuple<i32, i32>)}}
  %0 = obs.map %a : !obs.arr<4 x tuple<i32, i32>> -> !obs.arr<4 x i32> {
  ^bb0(%p: tuple<i32, i32>):
    %c = arith.constant 0 : i32
    obs.yield %c : i32
  }
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @map_yield(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x f32> {
  %0 = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x f32> {
  ^bb0(%x: i32):
    // expected-error @+1 {{must yield (f32) (the elements of the inputs, to the element of the result), but yields (i32)}}
    obs.yield %x : i32
  }
  obs.return %0 : !obs.arr<4 x f32>
}

// -----

obs.kernel @region_without_yield(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %0 = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    // expected-error @+1 {{'obs.return' op expects parent op 'obs.kernel'}}
    obs.return %a : !obs.arr<4 x i32>
  }
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @riffle_odd(%a: !obs.arr<7 x i32>) -> !obs.arr<7 x i32> {
  // expected-error @+1 {{'obs.riffle' op needs an array of even length to interleave its halves, but '!obs.arr<7 x i32>' has 7 elements}}
  %0 = obs.riffle %a : !obs.arr<7 x i32>
  obs.return %0 : !obs.arr<7 x i32>
}

// -----

obs.kernel @unriffle_odd(%a: !obs.arr<3 x i32>) -> !obs.arr<3 x i32> {
  // expected-error @+1 {{'obs.unriffle' op needs an array of even length to separate even and odd elements, but '!obs.arr<3 x i32>' has 3 elements}}
  %0 = obs.unriffle %a : !obs.arr<3 x i32>
  obs.return %0 : !obs.arr<3 x i32>
}

// -----

obs.kernel @halve_odd(%a: !obs.arr<5 x i32>) {
  // expected-error @+1 {{'obs.halve' op needs an array of even length to split it in halves, but '!obs.arr<5 x i32>' has 5 elements}}
  %0, %1 = obs.halve %a : !obs.arr<5 x i32>
  obs.return
}

// -----

obs.kernel @halve_odd_generic(%a: !obs.arr<5 x i32>) {
  // expected-error @+2 {{'obs.halve' op needs an array of even length to split it in halves, but '!obs.arr<5 x i32>' has 5 elements}}
  // expected-error @+1 {{'obs.halve' op failed to infer returned types}}
  %0:2 = "obs.halve"(%a) : (!obs.arr<5 x i32>) -> (!obs.arr<2 x i32>, !obs.arr<3 x i32>)
  obs.return
}

// -----

obs.kernel @halve_wrong_results(%a: !obs.arr<4 x i32>) {
  // expected-error @+2 {{'obs.halve' op failed to infer returned types}}
  // expected-error @+1 {{'obs.halve' op inferred type(s) '!obs.arr<2 x i32>', '!obs.arr<2 x i32>' are incompatible with return type(s) of operation '!obs.arr<1 x i32>', '!obs.arr<3 x i32>'}}
  %0:2 = "obs.halve"(%a) : (!obs.arr<4 x i32>) -> (!obs.arr<1 x i32>, !obs.arr<3 x i32>)
  obs.return
}

// -----

obs.kernel @pair_odd(%a: !obs.arr<3 x i32>) {
  // expected-error @+1 {{'obs.pair' op needs an array of even length to pair every element, but '!obs.arr<3 x i32>' has 3 elements}}
  %0 = obs.pair %a : !obs.arr<3 x i32>
  obs.return
}

// -----

obs.kernel @pair_nested(%a: !obs.arr<2 x !obs.arr<2 x i32>>) {
  // expected-error @+1 {{'obs.pair' op cannot pair nested arrays: a tuple holds no arrays, but '!obs.arr<2 x !obs.arr<2 x i32>>' holds arrays}}
  %0 = obs.pair %a : !obs.arr<2 x !obs.arr<2 x i32>>
  obs.return
}

// -----

obs.kernel @unpair_not_pairs(%a: !obs.arr<4 x i32>) {
  // expected-error @+1 {{'obs.unpair' op needs an array of pairs of one type, tuple<T, T>, but has '!obs.arr<4 x i32>'}}
  %0 = obs.unpair %a : !obs.arr<4 x i32>
  obs.return
}

// -----

obs.kernel @unpair_mixed(%a: !obs.arr<4 x tuple<i32, f32>>) {
  // expected-error @+1 {{'obs.unpair' op needs an array of pairs of one type, tuple<T, T>, but has '!obs.arr<4 x tuple<i32, f32>>'}}
  %0 = obs.unpair %a : !obs.arr<4 x tuple<i32, f32>>
  obs.return
}

// -----

obs.kernel @zip_lengths(%a: !obs.arr<4 x i32>, %b: !obs.arr<2 x i32>) {
  // expected-error @+1 {{'obs.zip' op zips arrays of one length, but has '!obs.arr<4 x i32>' and '!obs.arr<2 x i32>'}}
  %0 = obs.zip %a, %b : !obs.arr<4 x i32>, !obs.arr<2 x i32>
  obs.return
}

// -----

obs.kernel @zip_nested(%a: !obs.arr<2 x !obs.arr<2 x i32>>, %b: !obs.arr<2 x i32>) {
  // expected-error @+1 {{'obs.zip' op cannot zip nested arrays: a tuple holds no arrays}}
  %0 = obs.zip %a, %b : !obs.arr<2 x !obs.arr<2 x i32>>, !obs.arr<2 x i32>
  obs.return
}

// -----

obs.kernel @unzip_triple(%a: !obs.arr<4 x tuple<i32, i32, i32>>) {
  // expected-error @+1 {{'obs.unzip' op needs an array of pairs, tuple<A, B>, but has '!obs.arr<4 x tuple<i32, i32, i32>>'}}
  %0, %1 = obs.unzip %a : !obs.arr<4 x tuple<i32, i32, i32>>
  obs.return
}

// -----

obs.kernel @conc_elements(%a: !obs.arr<4 x i32>, %b: !obs.arr<4 x f32>) {
  // expected-error @+1 {{'obs.conc' op concatenates arrays of one element type, but has '!obs.arr<4 x i32>' and '!obs.arr<4 x f32>'}}
  %0 = obs.conc %a, %b : !obs.arr<4 x i32>, !obs.arr<4 x f32>
  obs.return
}

// -----

obs.kernel @rev_type(%a: !obs.arr<4 x i32>) {
  // expected-error @+1 {{'obs.rev' op requires the same type for all operands and results}}
  %0 = "obs.rev"(%a) : (!obs.arr<4 x i32>) -> !obs.arr<4 x f32>
  obs.return
}

// -----

obs.kernel @evens_odd(%a: !obs.arr<5 x i32>) {
  // expected-error @+1 {{'obs.evens' op needs an array of even length to pair every element, but '!obs.arr<5 x i32>' has 5 elements}}
  %0 = obs.evens %a : !obs.arr<5 x i32> {
  ^bb0(%x: i32, %y: i32):
    obs.yield %x, %y : i32, i32
  }
  obs.return
}

// -----

obs.kernel @evens_one_output(%a: !obs.arr<4 x i32>) {
  %0 = obs.evens %a : !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    // expected-error @+1 {{'obs.yield' op must yield (i32, i32) (two elements, to two elements), but yields (i32)}}
    obs.yield %x : i32
  }
  obs.return
}

// -----

obs.kernel @odds_odd(%a: !obs.arr<5 x i32>) {
  // expected-error @+1 {{'obs.odds' op needs an array of even length to pass the first and last elements through}}
  %0 = obs.odds %a : !obs.arr<5 x i32> {
  ^bb0(%x: i32, %y: i32):
    obs.yield %x, %y : i32, i32
  }
  obs.return
}

// -----

obs.kernel @odds_tuple_args(%a: !obs.arr<4 x tuple<i32, i32>>) {
  // expected-error @+1 {{'obs.odds' op region must take (i32, i32, i32, i32) (two elements, to two elements), but takes (i32, i32)}}
  %0 = obs.odds %a : !obs.arr<4 x tuple<i32, i32>> {
  ^bb0(%x: i32, %y: i32):
    obs.yield %x, %y, %x, %y : i32, i32, i32, i32
  }
  obs.return
}

// -----

obs.kernel @fan_odd(%a: !obs.arr<3 x i32>) {
  // expected-error @+1 {{'obs.fan' op needs an array of even length to split it into halves, but '!obs.arr<3 x i32>' has 3 elements}}
  %0 = obs.fan %a : !obs.arr<3 x i32> {
  ^bb0(%x: i32, %y: i32):
    obs.yield %x : i32
  }
  obs.return
}

// -----

obs.kernel @fan_two_outputs(%a: !obs.arr<4 x i32>) {
  %0 = obs.fan %a : !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    // expected-error @+1 {{must yield (i32) (the last element of the first half and an element of the second, to one element), but yields (i32, i32)}}
    obs.yield %x, %y : i32, i32
  }
  obs.return
}

// -----

obs.kernel @two_odd(%a: !obs.arr<5 x i32>) {
  // expected-error @+1 {{'obs.two' op needs an array of even length to split it into halves, but '!obs.arr<5 x i32>' has 5 elements}}
  %0 = obs.two %a : !obs.arr<5 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%h: !obs.arr<2 x i32>):
    obs.yield %h : !obs.arr<2 x i32>
  }
  obs.return
}

// -----

obs.kernel @two_arg(%a: !obs.arr<8 x i32>) {
  // expected-error @+1 {{'obs.two' op region must take (!obs.arr<4 x i32>) (half of the input, as an array), but takes (!obs.arr<8 x i32>)}}
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<16 x i32> {
  ^bb0(%h: !obs.arr<8 x i32>):
    obs.yield %h : !obs.arr<8 x i32>
  }
  obs.return
}

// -----

obs.kernel @two_yields_scalar(%a: !obs.arr<8 x i32>) {
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %c = arith.constant 0 : i32
    // expected-error @+1 {{'obs.yield' op must yield one array (the sub-program's result), but yields (i32)}}
    obs.yield %c : i32
  }
  obs.return
}

// -----

obs.kernel @two_result(%a: !obs.arr<8 x i32>) {
  // expected-error @+1 {{'obs.two' op result must be '!obs.arr<4 x i32>', two of what the region yields, but is '!obs.arr<8 x i32>'}}
  %0 = obs.two %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<4 x i32>):
    %p = obs.pair %h : !obs.arr<4 x i32>
    %s = obs.map %p : !obs.arr<2 x tuple<i32, i32>> -> !obs.arr<2 x i32> {
    ^bb0(%x: i32, %y: i32):
      obs.yield %x : i32
    }
    obs.yield %s : !obs.arr<2 x i32>
  }
  obs.return
}

// -----

obs.kernel @ilv_odd(%a: !obs.arr<3 x i32>) {
  // expected-error @+1 {{'obs.ilv' op needs an array of even length to split it into even- and odd-indexed elements}}
  %0 = obs.ilv %a : !obs.arr<3 x i32> -> !obs.arr<2 x i32> {
  ^bb0(%h: !obs.arr<1 x i32>):
    obs.yield %h : !obs.arr<1 x i32>
  }
  obs.return
}

// -----

obs.kernel @one_changes_element(%a: !obs.arr<4 x i32>) {
  // expected-error @+1 {{'obs.one' op region must keep the element type 'i32', but yields '!obs.arr<2 x f32>'}}
  %0 = obs.one %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%h: !obs.arr<2 x i32>):
    %f = obs.map %h : !obs.arr<2 x i32> -> !obs.arr<2 x f32> {
    ^bb0(%x: i32):
      %y = arith.sitofp %x : i32 to f32
      obs.yield %y : f32
    }
    obs.yield %f : !obs.arr<2 x f32>
  }
  obs.return
}

// -----

obs.kernel @one_result(%a: !obs.arr<4 x i32>) {
  // expected-error @+1 {{'obs.one' op result must be '!obs.arr<4 x i32>', the first half followed by what the region yields, but is '!obs.arr<8 x i32>'}}
  %0 = obs.one %a : !obs.arr<4 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%h: !obs.arr<2 x i32>):
    obs.yield %h : !obs.arr<2 x i32>
  }
  obs.return
}

// -----

obs.kernel @repeat_changes_type(%a: !obs.arr<4 x i32>) {
  // expected-error @+1 {{'obs.repeat' op region must yield what it takes, '!obs.arr<4 x i32>', but yields '!obs.arr<2 x i32>'}}
  %0 = obs.repeat 2 %a : !obs.arr<4 x i32> {
  ^bb0(%x: !obs.arr<4 x i32>):
    %lo, %hi = obs.halve %x : !obs.arr<4 x i32>
    obs.yield %lo : !obs.arr<2 x i32>
  }
  obs.return
}

// -----

obs.kernel @repeat_negative(%a: !obs.arr<4 x i32>) {
  // expected-error @+1 {{attribute 'count' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = obs.repeat -1 %a : !obs.arr<4 x i32> {
  ^bb0(%x: !obs.arr<4 x i32>):
    obs.yield %x : !obs.arr<4 x i32>
  }
  obs.return
}

// -----

obs.kernel @reduce_empty(%a: !obs.arr<0 x i32>) {
  // expected-error @+1 {{'obs.reduce' op cannot reduce an empty array: it has no first element to start from}}
  %0 = obs.reduce %a : !obs.arr<0 x i32> -> i32 {
  ^bb0(%acc: i32, %x: i32):
    obs.yield %acc : i32
  }
  obs.return
}

// -----

obs.kernel @reduce_nested(%a: !obs.arr<2 x !obs.arr<2 x i32>>) {
  // expected-error @+1 {{'obs.reduce' op reduces arrays of scalars or tuples, not '!obs.arr<2 x !obs.arr<2 x i32>>'}}
  %0 = obs.reduce %a : !obs.arr<2 x !obs.arr<2 x i32>> -> !obs.arr<2 x i32> {
  ^bb0(%acc: !obs.arr<2 x i32>, %x: !obs.arr<2 x i32>):
    obs.yield %acc : !obs.arr<2 x i32>
  }
  obs.return
}

// -----

obs.kernel @reduce_results(%a: !obs.arr<4 x tuple<i32, f32>>) {
  // expected-error @+1 {{'obs.reduce' op results must be the flattened element (i32, f32), but are (i32)}}
  %0 = obs.reduce %a : !obs.arr<4 x tuple<i32, f32>> -> i32 {
  ^bb0(%acc: i32, %accf: f32, %x: i32, %xf: f32):
    obs.yield %acc, %accf : i32, f32
  }
  obs.return
}

// -----

obs.kernel @reduce_region(%a: !obs.arr<4 x i32>) {
  // expected-error @+1 {{'obs.reduce' op region must take (i32, i32) (the accumulator and the next element, to the new accumulator), but takes (i32)}}
  %0 = obs.reduce %a : !obs.arr<4 x i32> -> i32 {
  ^bb0(%x: i32):
    obs.yield %x : i32
  }
  obs.return
}

// -----

obs.kernel @index_not_array(%a: !obs.arr<4 x i32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+2 {{'obs.index' op failed to infer returned types}}
  // expected-error @+1 {{'obs.index' op inferred type(s) 'i32' are incompatible with return type(s) of operation 'f32'}}
  %0 = "obs.index"(%a, %c0) : (!obs.arr<4 x i32>, index) -> f32
  obs.return
}

// -----

obs.kernel @sort_network_length(%a: !obs.arr<12 x i32>) {
  // expected-error @+1 {{network bitonic needs a power-of-two length}}
  %0 = obs.sort %a network(bitonic) : !obs.arr<12 x i32> {
  ^bb0(%x: i32, %y: i32):
    %l = arith.cmpi slt, %x, %y : i32
    obs.yield %l : i1
  }
  obs.return
}

// -----

obs.kernel @sort_not_a_predicate(%a: !obs.arr<4 x i32>) {
  %0 = obs.sort %a : !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    %m = arith.minsi %x, %y : i32
    // expected-error @+1 {{must yield (i1) (two elements, to whether the first must come before the second), but yields (i32)}}
    obs.yield %m : i32
  }
  obs.return
}

// -----

obs.kernel @scan_signature(%a: !obs.arr<4 x tuple<i32, i32>>) {
  // expected-error @+1 {{region must take (i32, i32, i32, i32) (an earlier and a later element, to their combination), but takes (i32, i32)}}
  %0 = obs.scan %a : !obs.arr<4 x tuple<i32, i32>> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  obs.return
}

// -----

obs.kernel @scan_nested(%a: !obs.arr<4 x !obs.arr<2 x i32>>) {
  // expected-error @+1 {{scans arrays of scalars or tuples, not '!obs.arr<4 x !obs.arr<2 x i32>>'}}
  %0 = obs.scan %a : !obs.arr<4 x !obs.arr<2 x i32>> {
  ^bb0(%x: !obs.arr<2 x i32>, %y: !obs.arr<2 x i32>):
    obs.yield %y : !obs.arr<2 x i32>
  }
  obs.return
}

// -----

obs.kernel @unknown_network(%a: !obs.arr<4 x i32>) {
  // expected-error @+1 {{unknown network 'quick': expected one of periodic, odd_even_merge, bitonic}}
  %0 = obs.sort %a network(quick) : !obs.arr<4 x i32> {
  ^bb0(%x: i32, %y: i32):
    %l = arith.cmpi slt, %x, %y : i32
    obs.yield %l : i1
  }
  obs.return
}

// -----

// A grid is at most 2^31 - 1 blocks, CUDA's limit along x (the lowering
// records it in known_grid_size, an i32).
obs.kernel @one_element(%a: !obs.arr<1 x i32>) -> !obs.arr<1 x i32> {
  obs.return %a : !obs.arr<1 x i32>
}
func.func @grid_too_large(%in: memref<2147483648xi32>, %out: memref<2147483648xi32>) {
  // expected-error @+1 {{attribute 'grid' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive whose maximum value is 2147483647}}
  obs.launch @one_element grid(2147483648) ins(%in : memref<2147483648xi32>) outs(%out : memref<2147483648xi32>)
  return
}

// -----

obs.kernel @plan_replaces_written(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.sync' op plans its scope, which is written: a pass may choose only the properties the user left open}}
  %0 = obs.sync warp plan(block) %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

obs.kernel @plan_replaces_written_placement(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.sync' op plans its placement, which is written: a pass may choose only the properties the user left open}}
  %0 = obs.sync fresh plan(inplace) %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

obs.kernel @plan_replaces_written_how(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.sync' op plans its work assignment, which is written: a pass may choose only the properties the user left open}}
  %0 = obs.sync strided<8> plan(blocked<1>) %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

obs.kernel @empty_plan(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{a sync's plan chooses at least one property}}
  %0 = obs.sync plan() %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

obs.kernel @plan_given_twice(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{the sync's scope is given twice}}
  %0 = obs.sync plan(warp block) %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

obs.kernel @planned_threads(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> attributes {threads = 2} {
  // expected-error @+1 {{'obs.sync' op work assignment #obs.strided<4> needs 4 threads to cover 8 elements, but the kernel has 2}}
  %0 = obs.sync plan(strided<4>) %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// A kernel's code is pure: an effect that is no yielded value would be
// dropped on every target, and invisible to the proof.
obs.kernel @prints(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    // expected-error @+1 {{'gpu.printf' op has memory effects, but a kernel's code is pure: its elements are computed from the values they yield alone}}
    gpu.printf "%d\n", %x : i32
    obs.yield %x : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// -----

obs.kernel @scratch(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.alloca' op has memory effects, but a kernel's code is pure: its elements are computed from the values they yield alone}}
    %buffer = memref.alloca() : memref<2xi32>
    memref.store %x, %buffer[%c0] : memref<2xi32>
    %y = memref.load %buffer[%c0] : memref<2xi32>
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// -----

memref.global "private" @counts : memref<4xi32> = dense<0>

obs.kernel @global_store(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    %c0 = arith.constant 0 : index
    %g = memref.get_global @counts : memref<4xi32>
    // expected-error @+1 {{'memref.store' op has memory effects, but a kernel's code is pure: its elements are computed from the values they yield alone}}
    memref.store %x, %g[%c0] : memref<4xi32>
    obs.yield %x : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// -----

// The plan's attributes are the dialect's, and checked (ObsDialect.td,
// discardableAttrs): an offset is into the arena the kernel's
// obs.shared_bytes sizes, 16-byte aligned.
obs.kernel @offsets_without_arena(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{'obs.shared_offsets' needs the kernel's 'obs.shared_bytes': an offset is into the arena the plan sizes}}
  %0 = obs.sync %a {obs.shared_offsets = array<i64: 0>} : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @unaligned_offset(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32>
    attributes {obs.shared_bytes = 64 : i64} {
  // expected-error @+1 {{'obs.shared_offsets' holds offset 8, which is not a multiple of 16 within the 64-byte arena}}
  %0 = obs.sync %a {obs.shared_offsets = array<i64: 8>} : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @offset_past_arena(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32>
    attributes {obs.shared_bytes = 64 : i64} {
  // expected-error @+1 {{'obs.shared_offsets' holds offset 64, which is not a multiple of 16 within the 64-byte arena}}
  %0 = obs.sync %a {obs.shared_offsets = array<i64: 64>} : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

// expected-error @+1 {{'obs.shared_bytes' belongs on an obs.kernel, as its arena's bytes (a non-negative i64)}}
obs.kernel @negative_arena(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32>
    attributes {obs.shared_bytes = -16 : i64} {
  obs.return %a : !obs.arr<4 x i32>
}

// -----

func.func @offsets_on_a_function() attributes {obs.shared_bytes = 16 : i64} {
  return
}
// expected-error @-3 {{'obs.shared_bytes' belongs on an obs.kernel, as its arena's bytes (a non-negative i64)}}

// -----

func.func @barrier_index() {
  // expected-error @+1 {{'obs.sync_index' is the position of a sync in program order (an i64, -1 for none)}}
  gpu.barrier {obs.sync_index = -2 : i64}
  return
}

// -----

func.func @in_place_unit() {
  // expected-error @+1 {{'obs.in_place' is a unit attribute}}
  gpu.barrier {obs.in_place = 1 : i64}
  return
}

// -----

// A name in obs's namespace must be one of the dialect's attributes: a
// misspelled plan attribute is an error, not ignored.
// expected-error @+1 {{'obs.shared_ofsets' is not an attribute of the obs dialect}}
obs.kernel @misspelled(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32>
    attributes {obs.shared_ofsets = array<i64: 0>} {
  obs.return %a : !obs.arr<4 x i32>
}

// -----

// expected-note @+1 {{the kernel}}
obs.kernel @copy(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}
func.func @dynamic_without_absent(%in: memref<?xi32>, %out: memref<?xi32>, %g: index) {
  // expected-error @+1 {{has sizes known only at run time (its grid is a value), so its last blocks may be partial, but argument 0 of @copy does not say what its absent elements read as: give it an 'obs.absent' value}}
  obs.launch @copy grid(%g) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}

// -----

// A static grid with one memref of run-time size (a global scatter's
// bound): the message names it, where it blamed only a static argument.
// expected-note @+1 {{the kernel}}
obs.kernel @scatter_bound(%v: !obs.arr<8 x i32>, %p: !obs.arr<8 x i64>) -> !obs.arr<2147483647 x i32> attributes {threads = 8} {
  %s = obs.scatter %v at %p global : !obs.arr<8 x i32>, !obs.arr<8 x i64> -> !obs.arr<2147483647 x i32>
  obs.return %s : !obs.arr<2147483647 x i32>
}
func.func @static_grid_dynamic_bound(%v: memref<8xi32>, %p: memref<8xi64>, %o: memref<?xi32>) {
  // expected-error @+1 {{has sizes known only at run time (outs 0 has a size known only at run time), so its last blocks may be partial, but argument 0 of @scatter_bound does not say what its absent elements read as}}
  obs.launch @scatter_bound grid(1) ins(%v, %p : memref<8xi32>, memref<8xi64>) outs(%o : memref<?xi32>)
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}
func.func @static_grid_dynamic_memref_without_absent(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.launch @copy grid(2) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
  return
}
func.func @inner_dynamic(%in: memref<?x?xi32>, %out: memref<?xi32>, %g: index) {
  // expected-error @+1 {{ins 0 has type 'memref<?x?xi32>': only the outermost dimension of a launch's memref may be dynamic (it holds the blocks' chunks)}}
  obs.launch @copy grid(%g) ins(%in : memref<?x?xi32>) outs(%out : memref<?xi32>)
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}
func.func @dynamic_layouts(%in: memref<?xi32>, %out: memref<?xi32>) {
  // expected-error @+1 {{has layouts and sizes known only at run time: layouts place blocks in memrefs of static sizes}}
  obs.launch @copy grid(2) ins(%in : memref<?xi32>) outs(%out : memref<?xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @copy(%a: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}
func.func @dynamic_wrong_element(%in: memref<?xi64>, %out: memref<?xi32>, %g: index) {
  // expected-error @+1 {{passes ins (memref<?xi64>), but @copy needs (memref<?xi32>) (the outermost dimensions may have any length)}}
  obs.launch @copy grid(%g) ins(%in : memref<?xi64>) outs(%out : memref<?xi32>)
  return
}

// -----

// expected-error @+1 {{argument 0's 'obs.absent' must give one constant per scalar of its element, of types i32, as a typed constant, not 0 : i64}}
obs.kernel @absent_wrong_type(%a: !obs.arr<4 x i32> {obs.absent = 0 : i64}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// -----

// expected-error @+1 {{argument 0's 'obs.absent' must give one typed constant per scalar of its element, of types i32, f32, as an array of typed constants, not [0 : i32]}}
obs.kernel @absent_too_few(%a: !obs.arr<4 x tuple<i32, f32>> {obs.absent = [0 : i32]}) -> !obs.arr<4 x tuple<i32, f32>> {
  obs.return %a : !obs.arr<4 x tuple<i32, f32>>
}

// -----

// expected-error @+1 {{'obs.shared_bytes' is not an argument attribute of the obs dialect}}
obs.kernel @unknown_argument_attribute(%a: !obs.arr<4 x i32> {obs.shared_bytes = 0 : i64}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// -----

// expected-error @+1 {{'obs.absent' belongs on an argument of an obs.kernel}}
func.func @absent_on_a_function(%a: memref<4xi32> {obs.absent = 0 : i32}) {
  return
}

// -----

// expected-error @+1 {{'obs.global' belongs on an argument of an obs.kernel}}
func.func @global_on_a_function(%a: memref<4xi32> {obs.global}) {
  return
}

// -----

// expected-error @+1 {{argument 0's 'obs.global' is a unit attribute, not 1 : i64}}
obs.kernel @global_with_a_value(%a: !obs.arr<4 x i32> {obs.global = 1}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// -----

// An obs.global argument is the memref whole in every block: no grid
// factor, and no layout.
obs.kernel @gather(%table: !obs.arr<16 x i32> {obs.global}, %at: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %at : !obs.arr<4 x i32>
}
func.func @global_whole(%table: memref<16xi32>, %at: memref<8xi32>, %out: memref<8xi32>) {
  obs.launch @gather grid(2) ins(%table, %at : memref<16xi32>, memref<8xi32>) outs(%out : memref<8xi32>)
  return
}
func.func @global_chunked(%table: memref<32xi32>, %at: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{passes ins (memref<32xi32>, memref<8xi32>), but @gather over 2 blocks needs (memref<16xi32>, memref<8xi32>)}}
  obs.launch @gather grid(2) ins(%table, %at : memref<32xi32>, memref<8xi32>) outs(%out : memref<8xi32>)
  return
}

// -----

// expected-note @+1 {{the kernel}}
obs.kernel @gather(%table: !obs.arr<16 x i32> {obs.global}, %at: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  obs.return %at : !obs.arr<4 x i32>
}
func.func @global_laid_out(%table: memref<16xi32>, %at: memref<8xi32>, %out: memref<8xi32>) {
  // expected-error @+1 {{has layouts, but ins 0 holds an 'obs.global' argument, which every block sees whole: launch it without layouts}}
  obs.launch @gather grid(2) ins(%table, %at : memref<16xi32>, memref<8xi32>) outs(%out : memref<8xi32>)
      layouts [affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

obs.kernel @extent_of_a_result(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %0 = obs.sync %a : !obs.arr<4 x i32>
  // expected-error @+1 {{'obs.extent' op needs an argument of its kernel: only the arrays a launch passes in have a present part}}
  %e = obs.extent %0 : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

func.func @block_id_outside() -> index {
  // expected-error @+1 {{'obs.block_id' op belongs in an obs.kernel}}
  %b = obs.block_id
  return %b : index
}

// -----

func.func @grid_both(%in: memref<?xi32>, %g: index) {
  // expected-error @+1 {{needs its grid as a constant or as an index value: it has both}}
  "obs.launch"(%g, %in) {kernel = @k, grid = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 0>} : (index, memref<?xi32>) -> ()
  return
}

// -----

func.func @grid_neither(%in: memref<?xi32>) {
  // expected-error @+1 {{needs its grid as a constant or as an index value: it has neither}}
  "obs.launch"(%in) {kernel = @k, operandSegmentSizes = array<i32: 0, 1, 0>} : (memref<?xi32>) -> ()
  return
}

// -----

// The device-level ops.

func.func @device_no_inputs(%out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_map' op needs at least one memref in `ins`}}
  "obs.device_map"(%out) <{operandSegmentSizes = array<i32: 0, 0, 1>}> ({
  ^bb0():
    %c = arith.constant 0 : i32
    obs.yield %c : i32
  }) : (memref<?xi32>) -> ()
  return
}

// -----

func.func @device_index_elements(%in: memref<?xindex>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_map' op ins 0 has type 'memref<?xindex>': a device array is memrefs of i1, i8, i16, i32, i64, f16, f32 or f64 with no layout, in the default memory space, one per scalar of its element}}
  obs.device_map ins(%in : memref<?xindex>) outs(%out : memref<?xi32>) {
  ^bb0(%x: index):
    %c = arith.constant 0 : i32
    obs.yield %c : i32
  }
  return
}

// -----

// A memref of another memory space: obs places a launch's and a device
// op's memrefs on the device itself. ref ran these while cpu and cuda failed
// inside their lowerings (views that dropped the space).

obs.kernel @inc_in_space(%t: !obs.arr<4 x i32> {obs.absent = 0 : i32}) -> !obs.arr<4 x i32> attributes {threads = 4} {
  obs.return %t : !obs.arr<4 x i32>
}
func.func @launch_in_space(%x: memref<?xi32, 1>, %o: memref<?xi32>, %g: index) {
  // expected-error @+1 {{'obs.launch' op ins 0 has type 'memref<?xi32, 1>': a launch's memrefs are in the default memory space}}
  obs.launch @inc_in_space grid(%g) ins(%x : memref<?xi32, 1>) outs(%o : memref<?xi32>)
  return
}

// -----

obs.kernel private @tile_in_space(%t: !obs.arr<2 x !obs.arr<3 x i32>>) -> !obs.arr<2 x !obs.arr<3 x i32>> attributes {threads = 3} {
  obs.return %t : !obs.arr<2 x !obs.arr<3 x i32>>
}
func.func @tiled_launch_in_space(%in: memref<4x9xi32>, %out: memref<4x9xi32, 1>) {
  // expected-error @+1 {{'obs.launch' op outs 0 has type 'memref<4x9xi32, 1>': a launch's memrefs are in the default memory space}}
  obs.launch @tile_in_space grid(2, 3) ins(%in : memref<4x9xi32>) outs(%out : memref<4x9xi32, 1>)
  return
}

// -----

func.func @device_reduce_in_space(%in: memref<?xi32>, %out: memref<1xi32, 1>) {
  // expected-error @+1 {{'obs.device_reduce' op outs 0 has type 'memref<1xi32, 1>': a device array is memrefs of i1, i8, i16, i32, i64, f16, f32 or f64 with no layout, in the default memory space}}
  obs.device_reduce ins(%in : memref<?xi32>) outs(%out : memref<1xi32, 1>) identity [0 : i32] {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  return
}

// -----

func.func @device_map_scalar_in_space(%in: memref<?xi32>, %s: memref<1xi32, 1>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_map' op scalars 0 has type 'memref<1xi32, 1>': a broadcast scalar is a memref<1xT> with no layout, in the default memory space}}
  obs.device_map ins(%in : memref<?xi32>) scalars(%s : memref<1xi32, 1>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    obs.yield %x : i32
  }
  return
}

// -----

func.func @device_map_scalar_written(%in: memref<?xi32>, %s: memref<1xi32>) {
  // expected-error @+1 {{'obs.device_map' op scalars 0 is also outs 0: every element reads a broadcast scalar, so no output may write it}}
  obs.device_map ins(%in : memref<?xi32>) scalars(%s : memref<1xi32>) outs(%s : memref<1xi32>) {
  ^bb0(%x: i32, %y: i32):
    obs.yield %x : i32
  }
  return
}

// -----

func.func @device_map_scalar_length(%in: memref<?xi32>, %s: memref<2xi32>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_map' op scalars 0 has type 'memref<2xi32>': a broadcast scalar is a memref<1xT> with no layout, in the default memory space, T one of i1, i8, i16, i32, i64, f16, f32 or f64}}
  obs.device_map ins(%in : memref<?xi32>) scalars(%s : memref<2xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    obs.yield %x : i32
  }
  return
}

// -----

func.func @device_map_scalar_index(%in: memref<?xi32>, %s: memref<1xindex>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_map' op scalars 0 has type 'memref<1xindex>'}}
  obs.device_map ins(%in : memref<?xi32>) scalars(%s : memref<1xindex>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: index):
    obs.yield %x : i32
  }
  return
}

// -----

func.func @device_map_scalar_signature(%in: memref<?xi32>, %s: memref<1xf32>, %out: memref<?xi32>) {
  // expected-error @+1 {{'obs.device_map' op region must take (i32, f32) (a scalar of each input, then of each `scalars` memref, to one of each output), but takes (i32)}}
  obs.device_map ins(%in : memref<?xi32>) scalars(%s : memref<1xf32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32):
    obs.yield %x : i32
  }
  return
}

// -----

func.func @device_map_signature(%in: memref<?xi32>, %out: memref<?xf32>) {
  obs.device_map ins(%in : memref<?xi32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: i32):
    // expected-error @+1 {{'obs.yield' op must yield (f32) (a scalar of each input, then of each `scalars` memref, to one of each output), but yields (i32)}}
    obs.yield %x : i32
  }
  return
}

// -----

func.func @device_map_captures(%in: memref<?xi32>, %out: memref<?xi32>, %y: i32) {
  // expected-note @+1 {{required by region isolation constraints}}
  obs.device_map ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32):
    // expected-error @+1 {{using value defined outside the region}}
    %s = arith.addi %x, %y : i32
    obs.yield %s : i32
  }
  return
}

// -----

func.func @device_reduce_two_elements(%in: memref<?xi32>, %out: memref<2xi32>) {
  // expected-error @+1 {{'obs.device_reduce' op outs 0 has type 'memref<2xi32>': the result is one element, a memref<1x...> per scalar}}
  obs.device_reduce ins(%in : memref<?xi32>) outs(%out : memref<2xi32>) identity [0 : i32] {
  ^bb0(%a: i32, %x: i32):
    %s = arith.addi %a, %x : i32
    obs.yield %s : i32
  }
  return
}

// -----

func.func @device_reduce_identity_type(%in: memref<?xi32>, %out: memref<1xi32>) {
  // expected-error @+1 {{'obs.device_reduce' op identity must be one constant of each of (i32), not of (i64)}}
  obs.device_reduce ins(%in : memref<?xi32>) outs(%out : memref<1xi32>) identity [0 : i64] {
  ^bb0(%a: i32, %x: i32):
    %s = arith.addi %a, %x : i32
    obs.yield %s : i32
  }
  return
}

// -----

func.func @device_scan_outs_type(%in: memref<?xi32>, %out: memref<?xf32>) {
  // expected-error @+1 {{'obs.device_scan' op outs must hold the element type of ins, (i32), not (f32)}}
  obs.device_scan inclusive ins(%in : memref<?xi32>) outs(%out : memref<?xf32>) identity [0 : i32] {
  ^bb0(%a: i32, %x: i32):
    %s = arith.addi %a, %x : i32
    obs.yield %s : i32
  }
  return
}

// -----

func.func @device_scan_combine(%k: memref<?xi32>, %v: memref<?xf32>, %ko: memref<?xi32>, %vo: memref<?xf32>) {
  // expected-error @+1 {{'obs.device_scan' op}}
  obs.device_scan exclusive ins(%k, %v : memref<?xi32>, memref<?xf32>) outs(%ko, %vo : memref<?xi32>, memref<?xf32>) identity [0 : i32, 0.0 : f32] {
  ^bb0(%a: i32, %x: i32):
    obs.yield %a : i32
  }
  return
}

// -----

func.func @device_scan_kind(%in: memref<?xi32>, %out: memref<?xi32>) {
  // expected-error @+2 {{expected ::mlir::obs::ScanKind to be one of: inclusive, exclusive}}
  // expected-error @+1 {{failed to parse Obs_ScanKindAttr parameter 'value'}}
  obs.device_scan sideways ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) identity [0 : i32] {
  ^bb0(%a: i32, %x: i32):
    %s = arith.addi %a, %x : i32
    obs.yield %s : i32
  }
  return
}

// -----

obs.kernel @scatter_lengths(%a: !obs.arr<8 x i32>, %p: !obs.arr<4 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{writes one value per place, but has 8 values and 4 places}}
  %s = obs.scatter %a at %p initial(0 : i32) : !obs.arr<8 x i32>, !obs.arr<4 x i32> -> !obs.arr<8 x i32>
  obs.return %s : !obs.arr<8 x i32>
}

// -----

obs.kernel @scatter_float_places(%a: !obs.arr<8 x i32>, %p: !obs.arr<8 x f32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{takes places that are integers, not 'f32'}}
  %s = obs.scatter %a at %p initial(0 : i32) : !obs.arr<8 x i32>, !obs.arr<8 x f32> -> !obs.arr<8 x i32>
  obs.return %s : !obs.arr<8 x i32>
}

// -----

obs.kernel @scatter_tuples(%a: !obs.arr<8 x tuple<i32, i32>>, %p: !obs.arr<8 x i32>) -> !obs.arr<8 x tuple<i32, i32>> {
  // expected-error @+1 {{scatters scalars, not 'tuple<i32, i32>'}}
  %s = obs.scatter %a at %p initial(0 : i32) : !obs.arr<8 x tuple<i32, i32>>, !obs.arr<8 x i32> -> !obs.arr<8 x tuple<i32, i32>>
  obs.return %s : !obs.arr<8 x tuple<i32, i32>>
}

// -----

obs.kernel @scatter_result(%a: !obs.arr<8 x i32>, %p: !obs.arr<8 x i32>) -> !obs.arr<8 x f32> {
  // expected-error @+1 {{has a result of 'f32' elements, but scatters 'i32'}}
  %s = obs.scatter %a at %p initial(0.0 : f32) : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x f32>
  obs.return %s : !obs.arr<8 x f32>
}

// -----

obs.kernel @scatter_initial(%a: !obs.arr<8 x i32>, %p: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{has an initial value of type 'i64', not the element type 'i32'}}
  %s = obs.scatter %a at %p initial(0 : i64) : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %s : !obs.arr<8 x i32>
}

// -----

// A string is no initial value: it said "of type 'none'" (an adversarial
// run).
obs.kernel @scatter_initial_string(%a: !obs.arr<8 x i32>, %p: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{has the initial value "x", which is no number: give a constant of the element type, as initial(0 : i32)}}
  %s = obs.scatter %a at %p initial("x") : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %s : !obs.arr<8 x i32>
}

// -----

obs.kernel @scatter_float_or(%a: !obs.arr<8 x f32>, %p: !obs.arr<8 x i32>) -> !obs.arr<8 x f32> {
  // expected-error @+1 {{cannot combine floats with `or`: `min` and `max` apply to floats}}
  %s = obs.scatter %a at %p combine(or) initial(0.0 : f32) : !obs.arr<8 x f32>, !obs.arr<8 x i32> -> !obs.arr<8 x f32>
  obs.return %s : !obs.arr<8 x f32>
}

// -----

// A float sum of collisions rounds by the order in which threads reach the
// place: 1e8, 1, -1e8 and 1 into one place sum to 2, 1 or 0 by that order.
obs.kernel @scatter_float_add(%a: !obs.arr<4 x f32>, %p: !obs.arr<4 x i32>) -> !obs.arr<1 x f32> {
  // expected-error @+1 {{cannot combine floats with `add`: collisions merge in no fixed order, and a float sum's rounding depends on it; `min` and `max` apply to floats}}
  %s = obs.scatter %a at %p combine(add) initial(0.0 : f32) : !obs.arr<4 x f32>, !obs.arr<4 x i32> -> !obs.arr<1 x f32>
  obs.return %s : !obs.arr<1 x f32>
}

// -----

obs.kernel @scatter_half_add_global(%a: !obs.arr<8 x f16>, %p: !obs.arr<8 x i32>) -> !obs.arr<4 x f16> {
  // expected-error @+1 {{cannot combine floats with `add`}}
  %s = obs.scatter %a at %p combine(add) global : !obs.arr<8 x f16>, !obs.arr<8 x i32> -> !obs.arr<4 x f16>
  obs.return %s : !obs.arr<4 x f16>
}

// -----

// A combine is an atomic update of its place: no target has one for a bit
// (ref took it, cpu and cuda failed inside LLVM).
obs.kernel @scatter_bits_or(%v: !obs.arr<4 x i1>, %p: !obs.arr<4 x i32>) -> !obs.arr<2 x i1> {
  // expected-error @+1 {{cannot combine i1 elements: a combine is an atomic update of its place, which takes a whole byte; scatter i8 values (0 or 1) instead}}
  %h = obs.scatter %v at %p combine(or) initial(0 : i1) : !obs.arr<4 x i1>, !obs.arr<4 x i32> -> !obs.arr<2 x i1>
  obs.return %h : !obs.arr<2 x i1>
}

// -----

obs.kernel @scatter_bits_max_global(%v: !obs.arr<4 x i1>, %p: !obs.arr<4 x i32>) -> !obs.arr<2 x i1> {
  // expected-error @+1 {{cannot combine i1 elements}}
  %h = obs.scatter %v at %p combine(max) global : !obs.arr<4 x i1>, !obs.arr<4 x i32> -> !obs.arr<2 x i1>
  obs.return %h : !obs.arr<2 x i1>
}

// -----

obs.kernel @scatter_neither(%a: !obs.arr<8 x i32>, %p: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{needs either an `initial` value (a result in shared memory) or `global` (a result that is the launch's memref), and only one}}
  %s = obs.scatter %a at %p : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %s : !obs.arr<8 x i32>
}

// -----

obs.kernel @scatter_both(%a: !obs.arr<8 x i32>, %p: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{needs either an `initial` value (a result in shared memory) or `global` (a result that is the launch's memref), and only one}}
  %s = obs.scatter %a at %p initial(0 : i32) global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %s : !obs.arr<8 x i32>
}

// -----

obs.kernel @global_scatter_read(%a: !obs.arr<8 x i32>, %p: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{is `global`, so its result must be returned by its kernel, once, and have no other use}}
  %s = obs.scatter %a at %p global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  %r = obs.rev %s : !obs.arr<8 x i32>
  obs.return %r : !obs.arr<8 x i32>
}

// -----

obs.kernel @global_scatter_twice(%a: !obs.arr<8 x i32>, %p: !obs.arr<8 x i32>) -> (!obs.arr<8 x i32>, !obs.arr<8 x i32>) {
  // expected-error @+1 {{is `global`, so its result must be returned by its kernel, once, and have no other use}}
  %s = obs.scatter %a at %p combine(add) global : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
  obs.return %s, %s : !obs.arr<8 x i32>, !obs.arr<8 x i32>
}

// -----

obs.kernel @scatter_in_element_code(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %g = obs.generate : !obs.arr<8 x i32> {
  ^bb0(%i: index):
    // expected-error @+1 {{expects parent op 'obs.kernel'}}
    %s = obs.scatter %a at %a initial(0 : i32) : !obs.arr<8 x i32>, !obs.arr<8 x i32> -> !obs.arr<8 x i32>
    %x = obs.index %s[%i] : !obs.arr<8 x i32>
    obs.yield %x : i32
  }
  obs.return %g : !obs.arr<8 x i32>
}

// -----

func.func @device_sort_outs_type(%in: memref<?xi32>, %out: memref<?xi64>) {
  // expected-error @+1 {{'obs.device_sort' op outs must hold the element type of ins, (i32), not (i64)}}
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi64>) {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    obs.yield %less : i1
  }
  return
}

// -----

func.func @device_sort_less(%k: memref<?xi32>, %v: memref<?xf32>) {
  // expected-error @+1 {{'obs.device_sort' op region must take (i32, f32, i32, f32) (two elements, to whether the first must come before the second), but takes (i32, i32)}}
  obs.device_sort ins(%k, %v : memref<?xi32>, memref<?xf32>) outs(%k, %v : memref<?xi32>, memref<?xf32>) {
  ^bb0(%x: i32, %y: i32):
    %less = arith.cmpi slt, %x, %y : i32
    obs.yield %less : i1
  }
  return
}

// -----

func.func @device_sort_yield(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_sort ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32, %y: i32):
    // expected-error @+1 {{'obs.yield' op must yield (i1) (two elements, to whether the first must come before the second), but yields (i32)}}
    obs.yield %x : i32
  }
  return
}

// -----

obs.kernel @storage_twice(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  // expected-error @+1 {{the sync's storage is given twice}}
  %0 = obs.sync registers shared %a : !obs.arr<4 x i32>
  obs.return %0 : !obs.arr<4 x i32>
}

// -----

obs.kernel @plan_replaces_written_storage(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.sync' op plans its storage, which is written: a pass may choose only the properties the user left open}}
  %0 = obs.sync shared plan(registers) %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// An array in registers has no barrier and no buffer, written or planned.
obs.kernel @registers_with_scope(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.sync' op keeps its array in registers, which need no barrier, but has a scope}}
  %0 = obs.sync warp registers %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

obs.kernel @registers_with_planned_scope(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.sync' op keeps its array in registers, which need no barrier, but has a scope}}
  %0 = obs.sync registers plan(block) %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

obs.kernel @registers_with_placement(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.sync' op keeps its array in registers, which have no buffer to place it in, but has a placement}}
  %0 = obs.sync plan(registers fresh) %a : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// The lowering's check marker is no attribute of a kernel's code
// (lowered-attributes-errors.mlir).
obs.kernel @register_read_misplaced(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.register_read' is the kernel lowering's record on the code it emits, not an attribute of code in 'obs.kernel'}}
  %0 = obs.sync %a {obs.register_read = 0 : i64} : !obs.arr<8 x i32>
  obs.return %0 : !obs.arr<8 x i32>
}

// -----

// Element code holds only what every target computes alike and the proof
// models (arith, math, ub, scf.if, scf.for, scf.while, obs). The gpu
// dialect's thread and block would make an element depend on who computes
// it; the message names obs's own way.
obs.kernel @raw_thread_id(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %m = obs.map %a : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    // expected-error @+1 {{'gpu.thread_id' op cannot be in element code, which holds only arith, math, ub, scf.if, scf.for, scf.while and obs ops: which thread computes an element is its sync's work assignment, so compute from the element's index}}
    %t = gpu.thread_id x
    %u = arith.index_cast %t : index to i32
    %y = arith.addi %x, %u : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<64 x i32>
}

// -----

obs.kernel @raw_block_id(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %m = obs.map %a : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    // expected-error @+1 {{'gpu.block_id' op cannot be in element code, which holds only arith, math, ub, scf.if, scf.for, scf.while and obs ops: the block's index is obs.block_id, the same in every target}}
    %b = gpu.block_id x
    %u = arith.index_cast %b : index to i32
    %y = arith.addi %x, %u : i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<64 x i32>
}

// -----

// Inside a loop whose trip count depends on data, too.
obs.kernel @raw_shuffle(%a: !obs.arr<64 x i32>) -> !obs.arr<64 x i32> {
  %m = obs.map %a : !obs.arr<64 x i32> -> !obs.arr<64 x i32> {
  ^bb0(%x: i32):
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %width = arith.constant 32 : i32
    %r = scf.while (%v = %x) : (i32) -> i32 {
      %more = arith.cmpi sgt, %v, %zero : i32
      scf.condition(%more) %v : i32
    } do {
    ^bb0(%v: i32):
      // expected-error @+1 {{'gpu.shuffle' op cannot be in element code, which holds only arith, math, ub, scf.if, scf.for, scf.while and obs ops: threads exchange values through an array kept in shuffles (obs.sync shuffle), which the proof checks}}
      %s, %ok = gpu.shuffle xor %v, %one, %width : i32
      %w = arith.subi %s, %one : i32
      scf.yield %w : i32
    }
    obs.yield %r : i32
  }
  obs.return %m : !obs.arr<64 x i32>
}

// -----

// Device ops' regions are element code too.
func.func @device_map_thread(%in: memref<?xi32>, %out: memref<?xi32>) {
  obs.device_map ins(%in : memref<?xi32>) outs(%out : memref<?xi32>) {
  ^bb0(%x: i32):
    // expected-error @+1 {{'gpu.thread_id' op cannot be in element code}}
    %t = gpu.thread_id x
    %u = arith.index_cast %t : index to i32
    %y = arith.addi %x, %u : i32
    obs.yield %y : i32
  }
  return
}

// -----

// Math ops that some target does not lower are rejected at the op, on
// every target, with what to write instead (they failed to legalize on ref
// and cpu, some on cuda too).
obs.kernel @math_ipowi(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    // expected-error @+1 {{'math.ipowi' op cannot be in element code: no target lowers an integer power; multiply in an scf.for}}
    %r = math.ipowi %x, %x : i32
    obs.yield %r : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}

// -----

obs.kernel @math_clampf(%a: !obs.arr<4 x f32>) -> !obs.arr<4 x f32> {
  %m = obs.map %a : !obs.arr<4 x f32> -> !obs.arr<4 x f32> {
  ^bb0(%x: f32):
    // expected-error @+1 {{'math.clampf' op cannot be in element code: no target lowers it; write arith.maximumf then arith.minimumf}}
    %r = math.clampf %x to [%x, %x] : f32
    obs.yield %r : f32
  }
  obs.return %m : !obs.arr<4 x f32>
}

// -----

obs.kernel @math_isinf(%a: !obs.arr<4 x f32>) -> !obs.arr<4 x i1> {
  %m = obs.map %a : !obs.arr<4 x f32> -> !obs.arr<4 x i1> {
  ^bb0(%x: f32):
    // expected-error @+1 {{'math.isinf' op cannot be in element code: ref and cpu do not lower it; compare math.absf of the value with infinity (arith.cmpf oeq)}}
    %r = math.isinf %x : f32
    obs.yield %r : i1
  }
  obs.return %m : !obs.arr<4 x i1>
}

// -----

obs.kernel @math_isnormal(%a: !obs.arr<4 x f64>) -> !obs.arr<4 x i1> {
  %m = obs.map %a : !obs.arr<4 x f64> -> !obs.arr<4 x i1> {
  ^bb0(%x: f64):
    // expected-error @+1 {{'math.isnormal' op cannot be in element code: no target lowers it}}
    %r = math.isnormal %x : f64
    obs.yield %r : i1
  }
  obs.return %m : !obs.arr<4 x i1>
}

// -----

// fpowi with an i64 exponent stopped LLVM's x86 backend; its i32 form is
// fine (math_fpowi_i32 below raises no error).
func.func @device_map_fpowi(%in: memref<?xf32>, %e: memref<?xi64>, %out: memref<?xf32>) {
  obs.device_map ins(%in, %e : memref<?xf32>, memref<?xi64>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %n: i64):
    // expected-error @+1 {{'math.fpowi' op cannot be in element code: its exponent must be i32 (the power functions of libm and libdevice take an int)}}
    %r = math.fpowi %x, %n : f32, i64
    obs.yield %r : f32
  }
  return
}

// -----

obs.kernel @math_fpowi_i32(%a: !obs.arr<4 x f32>, %n: !obs.arr<4 x i32>) -> !obs.arr<4 x f32> {
  %m = obs.map %a, %n : !obs.arr<4 x f32>, !obs.arr<4 x i32> -> !obs.arr<4 x f32> {
  ^bb0(%x: f32, %k: i32):
    %r = math.fpowi %x, %k : f32, i32
    obs.yield %r : f32
  }
  obs.return %m : !obs.arr<4 x f32>
}

// -----

// expected-error @+1 {{'obs.kernel' op argument 0 of type '!obs.arr<4 x i32>' cannot have a halo of width 2: a halo is at least one place on each side of a tile of at least one place, of an array of rank 1}}
obs.kernel @halo_too_wide(%a: !obs.arr<4 x i32> {obs.halo = #obs.halo<2, clamp>}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// -----

// expected-error @+1 {{'obs.kernel' op argument 0 of type '!obs.arr<4 x i32>' cannot have a halo of width 0}}
obs.kernel @halo_empty(%a: !obs.arr<4 x i32> {obs.halo = #obs.halo<0, zero>}) -> !obs.arr<4 x i32> {
  obs.return %a : !obs.arr<4 x i32>
}

// -----

// expected-error @+1 {{'obs.kernel' op argument 0 has a halo and is 'obs.global': a global argument is the whole memref already}}
obs.kernel @halo_global(%a: !obs.arr<6 x i32> {obs.global, obs.halo = #obs.halo<1, wrap>}) -> !obs.arr<6 x i32> {
  obs.return %a : !obs.arr<6 x i32>
}

// -----

// expected-error @+1 {{'obs.kernel' op argument 0's 'obs.halo' is an #obs.halo<width, boundary>, not 1 : i64}}
obs.kernel @halo_not_halo(%a: !obs.arr<6 x i32> {obs.halo = 1}) -> !obs.arr<6 x i32> {
  obs.return %a : !obs.arr<6 x i32>
}

// -----

obs.kernel @halo_extent(%a: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, clamp>}) -> !obs.arr<6 x i32> {
  // expected-error @+1 {{'obs.extent' op takes the extent of an argument with a halo, whose places are all read (past the memref's ends, as its boundary says): take another argument's, or the output's tile}}
  %n = obs.extent %a : !obs.arr<6 x i32>
  obs.return %a : !obs.arr<6 x i32>
}

// -----

// A halo argument's memref is the blocks' tiles, without their halos.
obs.kernel @halo_tiles(%a: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, clamp>}) -> !obs.arr<4 x i32> {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<6 x i32>
    obs.yield %x : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

func.func @halo_launch_length(%x: memref<12xi32>, %y: memref<8xi32>) {
  // expected-error @+1 {{'obs.launch' op passes ins (memref<12xi32>), but @halo_tiles over 2 blocks needs (memref<8xi32>)}}
  obs.launch @halo_tiles grid(2) ins(%x : memref<12xi32>) outs(%y : memref<8xi32>)
  return
}

// -----

// expected-note @+1 {{the kernel}}
obs.kernel @halo_laid_out(%a: !obs.arr<6 x i32> {obs.halo = #obs.halo<1, clamp>}) -> !obs.arr<4 x i32> {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<6 x i32>
    obs.yield %x : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

func.func @halo_layouts(%x: memref<8xi32>, %y: memref<8xi32>) {
  // expected-error @+1 {{'obs.launch' op has layouts, but ins 0 holds an argument with a halo, whose places the halo says: launch it without layouts}}
  obs.launch @halo_laid_out grid(2) ins(%x : memref<8xi32>) outs(%y : memref<8xi32>)
      layouts [affine_map<(b, i) -> (b * 4 + i)>, affine_map<(b, i) -> (b * 4 + i)>]
  return
}

// -----

// A width whose double would overflow is as wide as any other.
// expected-error @+1 {{'obs.kernel' op argument 0 of type '!obs.arr<6 x i32>' cannot have a halo of width 9223372036854775809}}
obs.kernel @halo_overflow(%a: !obs.arr<6 x i32> {obs.halo = #obs.halo<9223372036854775809, clamp>}) -> !obs.arr<4 x i32> {
  %r = obs.generate : !obs.arr<4 x i32> {
  ^bb0(%i: index):
    %x = obs.index %a[%i] : !obs.arr<6 x i32>
    obs.yield %x : i32
  }
  obs.return %r : !obs.arr<4 x i32>
}

// -----

// expected-error @+1 {{'obs.halo' is not a result attribute of the obs dialect: obs's attributes of a kernel's arrays belong on its arguments}}
obs.kernel @halo_result(%a: !obs.arr<4 x i32>) -> (!obs.arr<4 x i32> {obs.halo = #obs.halo<1, clamp>}) {
  obs.return %a : !obs.arr<4 x i32>
}

// -----

// Tiled launches (grid(R, C)): the memrefs are whole tiles, R x C of them
// without layouts, static; layouts say which tile, (r, c) -> (row, column).
obs.kernel @tile(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x i32>>
}
func.func @wrong_tiles(%x: memref<4x12xi32>, %y: memref<4x8xi32>) {
  // expected-error @+1 {{tiles its memrefs, but outs 0 is 'memref<4x8xi32>' for tiles of 2 x 4: it must be 'memref<4x12xi32>', 2 x 3 tiles, with no layout}}
  obs.launch @tile grid(2, 3) ins(%x : memref<4x12xi32>) outs(%y : memref<4x8xi32>)
  return
}

// -----

obs.kernel @tile(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x i32>>
}
func.func @partial_tiles(%x: memref<4x12xi32>, %y: memref<5x12xi32>) {
  // expected-error @+1 {{tiles its memrefs, but outs 0 is 'memref<5x12xi32>' for tiles of 2 x 4: it must be 'memref<2x4xi32>' or any whole number of tiles in each of its first two dimensions, with no layout}}
  obs.launch @tile grid(2, 3) ins(%x : memref<4x12xi32>) outs(%y : memref<5x12xi32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>]
  return
}

// -----

// A tile of no columns (or no rows) tiles nothing: the verifier divided a
// memref's sizes by the tile's with layouts (SIGFPE while parsing), and
// obs-expand-device did without them. A kernel of rows of no elements is
// refused itself now: the GPU's calling convention cannot pass
// memref<4x0xi32> as a pointer (the PTX lowering failed where ref and cpu
// ran, an adversarial run).
// expected-error @+1 {{'obs.kernel' op argument 0 of type '!obs.arr<2 x !obs.arr<0 x i32>>' holds rows of no elements: a kernel passes an array of nothing as '!obs.arr<0 x i32>'}}
obs.kernel @empty_tile(%a: !obs.arr<2 x !obs.arr<0 x i32>>) -> !obs.arr<2 x !obs.arr<0 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<0 x i32>>
}
func.func @empty_tiles_laid_out(%x: memref<4x0xi32>, %y: memref<4x0xi32>) {
  obs.launch @empty_tile grid(2, 3) ins(%x : memref<4x0xi32>) outs(%y : memref<4x0xi32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>]
  return
}

// -----

// A result of rows of no elements too; so are rows of a tuple.
// expected-error @+1 {{'obs.kernel' op result 0 of type '!obs.arr<2 x !obs.arr<0 x tuple<i8, f64>>>' holds rows of no elements: a kernel passes an array of nothing as '!obs.arr<0 x tuple<i8, f64>>'}}
obs.kernel @empty_rows_out(%a: !obs.arr<2 x i32>) -> !obs.arr<2 x !obs.arr<0 x tuple<i8, f64>>> {
  %r = obs.generate : !obs.arr<2 x !obs.arr<0 x tuple<i8, f64>>> {
  ^bb0(%i: index):
    %row = obs.generate : !obs.arr<0 x tuple<i8, f64>> {
    ^bb0(%j: index):
      %b = arith.constant 1 : i8
      %d = arith.constant 1.0 : f64
      obs.yield %b, %d : i8, f64
    }
    obs.yield %row : !obs.arr<0 x tuple<i8, f64>>
  }
  obs.return %r : !obs.arr<2 x !obs.arr<0 x tuple<i8, f64>>>
}

// -----

obs.kernel @tile(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x i32>>
}
func.func @element_layout(%x: memref<4x12xi32>, %y: memref<4x12xi32>) {
  // expected-error @+1 {{tiles its memrefs, so layout 1 must be a map (block row, block column) -> (tile row, tile column), but is affine_map<(d0, d1) -> (d0 * 3 + d1)>}}
  obs.launch @tile grid(2, 3) ins(%x : memref<4x12xi32>) outs(%y : memref<4x12xi32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r * 3 + c)>]
  return
}

// -----

obs.kernel @tile(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x i32>>
}
func.func @dynamic_tiles(%x: memref<?x12xi32>, %y: memref<?x12xi32>) {
  // expected-error @+1 {{tiles 2-D memrefs over a grid of rows and columns of blocks, which needs static sizes}}
  obs.launch @tile grid(2, 3) ins(%x : memref<?x12xi32>) outs(%y : memref<?x12xi32>)
  return
}

// -----

obs.kernel @tile(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x i32>>
}
func.func @too_many_blocks(%x: memref<4x12xi32>, %y: memref<4x12xi32>) {
  // expected-error @+1 {{runs 65536 x 65536 blocks, more than 2^31 - 1 (CUDA's limit on a grid)}}
  obs.launch @tile grid(65536, 65536) ins(%x : memref<4x12xi32>) outs(%y : memref<4x12xi32>)
  return
}

// -----

obs.kernel @rows(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  obs.return %a : !obs.arr<8 x i32>
}
func.func @not_a_tile(%x: memref<4x12xi32>, %y: memref<4x12xi32>) {
  // expected-error @+1 {{tiles its memrefs, but ins 0 is 'memref<4x12xi32>' for '!obs.arr<8 x i32>', which is not a tile: tiled launches take kernels whose arrays are arrays of rows (!obs.arr<TR x !obs.arr<TC x T>>)}}
  obs.launch @rows grid(2, 3) ins(%x : memref<4x12xi32>) outs(%y : memref<4x12xi32>)
  return
}

// -----

// expected-note @+1 {{the kernel}}
obs.kernel @with_global(%a: !obs.arr<2 x !obs.arr<4 x i32>> {obs.global}) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x i32>>
}
func.func @tiled_global(%x: memref<2x4xi32>, %y: memref<4x12xi32>) {
  // expected-error @+1 {{tiles its memrefs, but ins 0 holds an 'obs.global' argument, which a tiled launch does not take: launch it over a grid of one dimension}}
  obs.launch @with_global grid(2, 3) ins(%x : memref<2x4xi32>) outs(%y : memref<4x12xi32>)
  return
}

// -----

// The padding of shared rows belongs on a sync or repeat of an array of
// rows, or of a flat array of at least two rows of 32.
obs.kernel @flat_padding(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  // expected-error @+1 {{'obs.shared_padding' belongs on an obs.sync or obs.repeat of an array of rows, or of at least 64 elements (rows of 32), as the elements its buffers leave after each row (an i64 from 1 to 32), or on the memref.view of its buffer}}
  %s = obs.sync %a {obs.shared_padding = 1 : i64} : !obs.arr<8 x i32>
  obs.return %s : !obs.arr<8 x i32>
}

// -----

obs.kernel @too_much_padding(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  // expected-error @+1 {{'obs.shared_padding' belongs on an obs.sync or obs.repeat of an array of rows, or of at least 64 elements (rows of 32), as the elements its buffers leave after each row (an i64 from 1 to 32), or on the memref.view of its buffer}}
  %s = obs.sync %a {obs.shared_padding = 33 : i64} : !obs.arr<2 x !obs.arr<4 x i32>>
  obs.return %s : !obs.arr<2 x !obs.arr<4 x i32>>
}

// -----

// Each memref's tiles are counted with its own array's tile: the output's
// tiles of 1 x 4 are 2 x 2 in a 2 x 8 memref, so block (0, 2) has none,
// though the input's tiles of 1 x 2 fill the same memref type 2 x 4.
obs.kernel private @widen(%a: !obs.arr<1 x !obs.arr<2 x i32>>) -> !obs.arr<1 x !obs.arr<4 x i32>> attributes {threads = 1} {
  %r = obs.generate : !obs.arr<1 x !obs.arr<4 x i32>> {
  ^bb0(%i: index):
    %row = obs.generate : !obs.arr<4 x i32> {
    ^bb0(%j: index):
      %c2 = arith.constant 2 : index
      %jj = arith.remui %j, %c2 : index
      %in = obs.index %a[%i] : !obs.arr<1 x !obs.arr<2 x i32>>
      %x = obs.index %in[%jj] : !obs.arr<2 x i32>
      obs.yield %x : i32
    }
    obs.yield %row : !obs.arr<4 x i32>
  }
  obs.return %r : !obs.arr<1 x !obs.arr<4 x i32>>
}
func.func @tiles_of_two_widths(%x: memref<2x8xi32>, %y: memref<2x8xi32>) {
  // expected-error @+1 {{layout 1 places block (0, 2) at tile (0, 2), outside the 2 x 2 tiles of 'memref<2x8xi32>'}}
  obs.launch @widen grid(1, 4) ins(%x : memref<2x8xi32>) outs(%y : memref<2x8xi32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>]
  return
}

// -----

// A non-linear layout is evaluated block by block: (r + c) mod 3 reaches
// tile row 2 of a memref of 2.
obs.kernel @tile(%a: !obs.arr<2 x !obs.arr<4 x i32>>) -> !obs.arr<2 x !obs.arr<4 x i32>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x i32>>
}
func.func @modular_tiles(%x: memref<4x12xi32>, %y: memref<4x12xi32>) {
  // expected-error @+1 {{layout 1 places block (0, 2) at tile (2, 2), outside the 2 x 3 tiles of 'memref<4x12xi32>'}}
  obs.launch @tile grid(2, 3) ins(%x : memref<4x12xi32>) outs(%y : memref<4x12xi32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> ((r + c) mod 3, c)>]
  return
}

// -----

// A layout whose values come near 2^63 is evaluated block by block,
// exactly: r * 2^62 has the bound 3 * 2^62, which wrapped to a negative
// maximum, and the evaluation wrapped too, so that tile 2^62 (block 1) and
// tile 2^64 (block 4) were taken for tile 0 (an adversarial run).
obs.kernel @tile_of_two(%t: !obs.arr<4 x !obs.arr<2 x i32>>) -> !obs.arr<4 x !obs.arr<2 x i32>> {
  obs.return %t : !obs.arr<4 x !obs.arr<2 x i32>>
}
func.func @tiles_near_overflow(%in: memref<16x2xi32>, %out: memref<16x2xi32>) {
  // expected-error @+1 {{layout 0 places block (1, 0) at tile (4611686018427387904, 0), outside the 4 x 1 tiles of 'memref<16x2xi32>'}}
  obs.launch @tile_of_two grid(4, 1) ins(%in : memref<16x2xi32>) outs(%out : memref<16x2xi32>)
      layouts [affine_map<(r, c) -> (r * 4611686018427387904, c)>, affine_map<(r, c) -> (r, c)>]
  return
}

// -----

obs.kernel @tile_of_two(%t: !obs.arr<4 x !obs.arr<2 x i32>>) -> !obs.arr<4 x !obs.arr<2 x i32>> {
  obs.return %t : !obs.arr<4 x !obs.arr<2 x i32>>
}
func.func @tiles_past_int64(%in: memref<16x2xi32>, %out: memref<16x2xi32>) {
  // (MLIR folds the sum to r * -2^63.)
  // expected-error @+1 {{layout 0 places block (1, 0) at tile (-9223372036854775808, 0), outside the 4 x 1 tiles of 'memref<16x2xi32>'}}
  obs.launch @tile_of_two grid(4, 1) ins(%in : memref<16x2xi32>) outs(%out : memref<16x2xi32>)
      layouts [affine_map<(r, c) -> (r * 4611686018427387904 + r * 4611686018427387904, c)>, affine_map<(r, c) -> (r, c)>]
  return
}

// -----

// Block by block over more blocks than the launch proof would compare: a
// grid of 8,000 x 8,000 took 25 s to verify before the proof refused it.
obs.kernel @tile_of_one(%t: !obs.arr<1 x !obs.arr<1 x i32>>) -> !obs.arr<1 x !obs.arr<1 x i32>> {
  obs.return %t : !obs.arr<1 x !obs.arr<1 x i32>>
}
func.func @too_many_tiles(%in: memref<8000x8000xi32>, %out: memref<8000x8000xi32>) {
  // expected-error @+1 {{has 8000 x 8000 blocks, more than the 33554432 whose tiles layout 0 places one by one: split it into launches of fewer blocks}}
  obs.launch @tile_of_one grid(8000, 8000) ins(%in : memref<8000x8000xi32>) outs(%out : memref<8000x8000xi32>)
      layouts [affine_map<(r, c) -> (r mod 2 + (r floordiv 2) * 2, c)>, affine_map<(r, c) -> (r, c)>]
  return
}

// -----

// The memrefs of one array (a tuple's) have one shape.
obs.kernel @pairs(%a: !obs.arr<2 x !obs.arr<4 x tuple<i32, f32>>>) -> !obs.arr<2 x !obs.arr<4 x tuple<i32, f32>>> {
  obs.return %a : !obs.arr<2 x !obs.arr<4 x tuple<i32, f32>>>
}
func.func @two_shapes(%x: memref<4x12xi32>, %y: memref<4x24xf32>, %u: memref<4x12xi32>, %v: memref<4x12xf32>) {
  // expected-error @+1 {{tiles its memrefs, but 0 and 1 (of ins, then outs) store one array in memrefs of two shapes: give the memrefs of an array one shape}}
  obs.launch @pairs grid(2, 3) ins(%x, %y : memref<4x12xi32>, memref<4x24xf32>) outs(%u, %v : memref<4x12xi32>, memref<4x12xf32>)
      layouts [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>]
  return
}

// -----

// Types and modes no GPU computes as ref and cpu do: f128 math (LLVM
// stopped with "unsupported library call operation" making the PTX), a
// conversion of i128 to a float, a rounding mode upstream's lowering only
// asserts (truncf `downward` rounded to nearest everywhere).
obs.kernel @f128_math(%a: !obs.arr<4 x f64>) -> !obs.arr<4 x f64> {
  %m = obs.map %a : !obs.arr<4 x f64> -> !obs.arr<4 x f64> {
  ^bb0(%x: f64):
    // expected-error @+1 {{'arith.extf' op cannot be in element code: no GPU computes f80 or f128; compute in f64}}
    %w = arith.extf %x : f64 to f128
    %s = math.sin %w : f128
    %r = arith.truncf %s : f128 to f64
    obs.yield %r : f64
  }
  obs.return %m : !obs.arr<4 x f64>
}

// -----

obs.kernel @i128_to_float(%a: !obs.arr<4 x i64>) -> !obs.arr<4 x f32> {
  %m = obs.map %a : !obs.arr<4 x i64> -> !obs.arr<4 x f32> {
  ^bb0(%x: i64):
    %w = arith.extsi %x : i64 to i128
    // expected-error @+1 {{'arith.sitofp' op cannot be in element code: no GPU converts between floats and integers wider than 64 bits; convert through i64}}
    %r = arith.sitofp %w : i128 to f32
    obs.yield %r : f32
  }
  obs.return %m : !obs.arr<4 x f32>
}

// -----

obs.kernel @truncf_downward(%a: !obs.arr<4 x f32>) -> !obs.arr<4 x f16> {
  %m = obs.map %a : !obs.arr<4 x f32> -> !obs.arr<4 x f16> {
  ^bb0(%x: f32):
    // expected-error @+1 {{'arith.truncf' op cannot be in element code: no target's lowering honours a rounding mode other than to_nearest_even (they round to nearest)}}
    %r = arith.truncf %x downward : f32 to f16
    obs.yield %r : f16
  }
  obs.return %m : !obs.arr<4 x f16>
}

// -----

// bf16 from an i32: the host converts through f32 and rounds twice
// (2^30 + 2^22 + 1 gave 2^30), where PTX's cvt.rn.bf16.s32 rounds once.
obs.kernel @i32_to_bf16(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x f32> {
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x f32> {
  ^bb0(%x: i32):
    // expected-error @+1 {{'arith.sitofp' op cannot be in element code: the host converts to bf16 through f32 and rounds twice, where a GPU rounds once; convert to f32 first}}
    %h = arith.sitofp %x : i32 to bf16
    %r = arith.extf %h : bf16 to f32
    obs.yield %r : f32
  }
  obs.return %m : !obs.arr<4 x f32>
}

// -----

// A 16-bit fma is computed in f32 and rounded again: bf16's on every
// target, f16's on the GPU (an adversarial run: the bf16 fma of 1.5,
// 1 + 2^-7 and -2^-133 gave the tie's even neighbour, 1.5 + 2^-6, where
// one rounding gives 1.5 + 2^-7).
obs.kernel @fma_bf16(%a: !obs.arr<4 x f32>) -> !obs.arr<4 x f32> {
  %m = obs.map %a : !obs.arr<4 x f32> -> !obs.arr<4 x f32> {
  ^bb0(%x: f32):
    %h = arith.truncf %x : f32 to bf16
    // expected-error @+1 {{'math.fma' op cannot be in element code: a 16-bit fma is computed in f32 and rounds twice on some targets; extend to f32 (or f64), fma there, and truncate}}
    %f = math.fma %h, %h, %h : bf16
    %r = arith.extf %f : bf16 to f32
    obs.yield %r : f32
  }
  obs.return %m : !obs.arr<4 x f32>
}

// -----

obs.kernel @fma_f16(%a: !obs.arr<4 x f16>) -> !obs.arr<4 x f16> {
  %m = obs.map %a : !obs.arr<4 x f16> -> !obs.arr<4 x f16> {
  ^bb0(%x: f16):
    // expected-error @+1 {{'math.fma' op cannot be in element code: a 16-bit fma}}
    %r = math.fma %x, %x, %x : f16
    obs.yield %r : f16
  }
  obs.return %m : !obs.arr<4 x f16>
}

// -----

// Values of types element code does not hold: a tensor carried by a loop
// (ref's and cpu's lowering failed on it, cuda took it), an f8 (LLVM's
// translation failed, with no location).
obs.kernel @tensor_in_loop(%a: !obs.arr<8 x i32>) -> !obs.arr<8 x i32> {
  %m = obs.map %a : !obs.arr<8 x i32> -> !obs.arr<8 x i32> {
  ^bb0(%x: i32):
    // expected-error @+1 {{'arith.constant' op computes with 'tensor<2xi32>', which element code does not hold: it holds integers, indices, f16, bf16, f32 and f64, vectors of them, and obs's arrays}}
    %v = arith.constant dense<[1, 2]> : tensor<2xi32>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %v, %s = %x) -> (tensor<2xi32>, i32) {
      %u = arith.addi %s, %x : i32
      scf.yield %t, %u : tensor<2xi32>, i32
    }
    obs.yield %r#1 : i32
  }
  obs.return %m : !obs.arr<8 x i32>
}

// -----

obs.kernel @f8_round_trip(%a: !obs.arr<8 x f32>) -> !obs.arr<8 x f32> {
  %m = obs.map %a : !obs.arr<8 x f32> -> !obs.arr<8 x f32> {
  ^bb0(%x: f32):
    // expected-error @+1 {{'arith.truncf' op computes with 'f8E4M3FN', which element code does not hold}}
    %h = arith.truncf %x : f32 to f8E4M3FN
    %e = arith.extf %h : f8E4M3FN to f32
    obs.yield %e : f32
  }
  obs.return %m : !obs.arr<8 x f32>
}

// -----

// A grid of rows and columns tiles 2-D memrefs by their static shapes; one
// known at run time is refused as such (it was "expected ')'").
func.func @run_time_rows(%in: memref<?x128xi32>, %out: memref<?x128xi32>, %rows: index) {
  // expected-error @+1 {{a grid of rows and columns takes constant sizes, grid(R, C); a grid known only at run time is one number of blocks, grid(%blocks)}}
  obs.launch @t grid(%rows, 2) ins(%in : memref<?x128xi32>) outs(%out : memref<?x128xi32>)
  return
}

// -----

func.func @run_time_columns(%in: memref<64x128xi32>, %out: memref<64x128xi32>, %columns: index) {
  // expected-error @+1 {{a grid of rows and columns takes constant sizes}}
  obs.launch @t grid(4, %columns) ins(%in : memref<64x128xi32>) outs(%out : memref<64x128xi32>)
  return
}

// -----

// A call says its effects only through its callee, which the proof does not
// follow: refused in a kernel's code whether the callee is pure or not, as
// in a device op's region.
func.func private @twice(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  return %y : i32
}

obs.kernel @pure_call(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {
  %m = obs.map %a : !obs.arr<4 x i32> -> !obs.arr<4 x i32> {
  ^bb0(%x: i32):
    // expected-error @+1 {{'func.call' op cannot be in a kernel's code: the proof does not follow calls; write the callee's code here}}
    %y = func.call @twice(%x) : (i32) -> i32
    obs.yield %y : i32
  }
  obs.return %m : !obs.arr<4 x i32>
}
