# The softmax in doubles: exp(x[i] - max x) / sum_j exp(x[j] - max x).
{ x[NR] = $1 }
END {
  if (NR == 0) exit
  m = x[1]
  for (i = 2; i <= NR; i++) if (x[i] > m) m = x[i]
  s = 0
  for (i = 1; i <= NR; i++) s += exp(x[i] - m)
  for (i = 1; i <= NR; i++) printf "%.9g\n", exp(x[i] - m) / s
}
