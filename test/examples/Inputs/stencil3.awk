# The 3-point stencil with clamped ends, in doubles: the mean of each
# number and its two neighbours, an end standing for the missing one.
{ x[NR] = $1 }
END {
  for (i = 1; i <= NR; i++) {
    left = i > 1 ? x[i - 1] : x[i]
    right = i < NR ? x[i + 1] : x[i]
    printf "%.9g\n", (left + x[i] + right) / 3
  }
}
