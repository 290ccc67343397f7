# Prints n pseudo-random bytes (all 256 values, NUL included) from a fixed
# seed: awk -v n=N -v seed=S -f random-bytes.awk
BEGIN {
  srand(seed)
  for (i = 0; i < n; i++)
    printf "%c", int(rand() * 256)
}
