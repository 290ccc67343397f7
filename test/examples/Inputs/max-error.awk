# Reads pairs "computed expected" and counts those whose difference exceeds
# `tolerance` times max(1, |expected|).
{
  d = $1 - $2; if (d < 0) d = -d
  s = $2 < 0 ? -$2 : $2; if (s < 1) s = 1
  if (d > tolerance * s) bad++
  n++
}
END { print (n + 0) " values, " bad + 0 " beyond the tolerance" }
