# examples/grid/diffusion.mlir's 8 steps in double precision: the interior
# moves by 0.2 times the discrete Laplacian, the boundary stays.
{ u[NR - 1] = $1 }
END {
  n = 256
  for (s = 0; s < 8; s++) {
    for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
      k = i * n + j
      if (i > 0 && i < n - 1 && j > 0 && j < n - 1)
        v[k] = u[k] + 0.2 * (u[k - n] + u[k + n] + u[k - 1] + u[k + 1] - 4 * u[k])
      else
        v[k] = u[k]
    }
    for (k = 0; k < n * n; k++) u[k] = v[k]
  }
  for (k = 0; k < n * n; k++) print u[k]
}
