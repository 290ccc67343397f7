# The 3-point stencil in doubles: the mean of each number and its two
# neighbours, a place past an end read as `boundary` says: clamp (the
# default: the end itself), zero, or wrap (the other end).
{ x[NR] = $1 }
function at(i) {
  if (i >= 1 && i <= NR) return x[i]
  if (boundary == "zero") return 0
  if (boundary == "wrap") return i < 1 ? x[NR] : x[1]
  return i < 1 ? x[1] : x[NR]
}
END {
  for (i = 1; i <= NR; i++)
    printf "%.9g\n", (at(i - 1) + x[i] + at(i + 1)) / 3
}
