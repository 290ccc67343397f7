# The answers of test/obs-run/Inputs/defined-arithmetic.mlir's kernels,
# computed from obs's documented meaning of what MLIR leaves undefined
# (docs/Rationale.md, "Element code has no undefined behaviour"), not by
# obs: awk -v op=OP -v a=A,... -v b=B,... -f defined-arithmetic.awk.
function wrap(v) { v = v % 4294967296; if (v < 0) v += 4294967296; return v >= 2147483648 ? v - 4294967296 : v }
function unsigned(v) { return v < 0 ? v + 4294967296 : v }
function trunc(v) { return int(v) }
function pow2(k,   r) { r = 1; while (k-- > 0) r *= 2; return r }
function floordiv(x, y,   q) { q = trunc(x / y); if (q * y != x && (x < 0) != (y < 0)) q--; return q }
function apply(x, y) {
  if (op == "divsi") return y == 0 ? 0 : wrap(trunc(x / y))
  if (op == "remsi") return y == 0 ? x : x - y * trunc(x / y)
  if (op == "divui") return y == 0 ? 0 : wrap(int(unsigned(x) / unsigned(y)))
  if (op == "remui") return y == 0 ? x : wrap(unsigned(x) - unsigned(y) * int(unsigned(x) / unsigned(y)))
  if (op == "ceildivsi") return y == 0 ? 0 : wrap(-floordiv(-x, y))
  if (op == "floordivsi") return y == 0 ? 0 : wrap(floordiv(x, y))
  if (op == "shli") return unsigned(y) >= 32 ? 0 : wrap(x * pow2(y))
  if (op == "shrsi") return floordiv(x, pow2(unsigned(y) >= 32 ? 31 : y))
  if (op == "shrui") return unsigned(y) >= 32 ? 0 : wrap(int(unsigned(x) / pow2(y)))
}
BEGIN {
  n = split(a, xs, ","); split(b, ys, ",")
  line = "["
  for (i = 1; i <= n; i++) line = line (i > 1 ? ", " : "") sprintf("%.0f", apply(xs[i] + 0, ys[i] + 0) + 0)
  print line "]"
}
