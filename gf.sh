#!/bin/bash
kind=$1; net=$2; N=$3; T=$4; ty=$5
nc=""; [ "$net" != default ] && nc="network($net) "
if [ $kind = scan ]; then cat <<E
obs.kernel @k(%a: !obs.arr<$N x $ty>) -> !obs.arr<$N x $ty> attributes {threads = $T} {
  %r = obs.scan %a ${nc}: !obs.arr<$N x $ty> {
  ^bb0(%x: $ty, %y: $ty):
    %s = arith.addf %x, %y : $ty
    obs.yield %s : $ty
  }
  obs.return %r : !obs.arr<$N x $ty>
}
E
else cat <<E
obs.kernel @k(%a: !obs.arr<$N x $ty>) -> !obs.arr<1 x $ty> attributes {threads = $T} {
  %sum = obs.reduce %a ${nc}: !obs.arr<$N x $ty> -> $ty {
  ^bb0(%x: $ty, %y: $ty):
    %s = arith.addf %x, %y : $ty
    obs.yield %s : $ty
  }
  %r = obs.generate : !obs.arr<1 x $ty> {
  ^bb0(%i: index):
    obs.yield %sum : $ty
  }
  obs.return %r : !obs.arr<1 x $ty>
}
E
fi
