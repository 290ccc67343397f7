// The input of a reproducer, as it is: !obs.arr<2 x i8>.
obs.kernel @id(%a: !obs.arr<2 x i8>) -> !obs.arr<2 x i8> {
  obs.return %a : !obs.arr<2 x i8>
}
