# Reads pairs "computed expected" and counts those whose difference exceeds
# `tolerance` times max(floor, |expected|): floor is 1 unless given (-v
# floor=0 makes the error relative to |expected| alone).
BEGIN { if (floor == "") floor = 1 }
{
  d = $1 - $2; if (d < 0) d = -d
  s = $2 < 0 ? -$2 : $2; if (s < floor) s = floor
  if (d > tolerance * s) bad++
  n++
}
END { print (n + 0) " values, " bad + 0 " beyond the tolerance" }
