# The instruction mix of one .entry of a PTX file, counted as bench/run and
# the kernel-quality tests count it: every instruction of the entry's body
# (not a directive, label, brace, parenthesis or comment), inline assembly
# included (CUB writes its shuffles as one-line `{ .reg ...; shfl...; }`
# blocks, one statement per `;`).
#
#   awk -v entry=NAME -f bench/ptx-mix.awk FILE.ptx
#
# prints one line: ld.shared st.shared ld.global st.global bar.sync
# bar.warp.sync shfl.sync instructions (eight counts).
function count(statement) {
  sub(/^[[:space:]{}]+/, "", statement)
  sub(/[[:space:]{}]+$/, "", statement)
  if (statement == "" || statement ~ /^(\/\/|\.|\$)/) return
  if (statement ~ /^[A-Za-z_$][A-Za-z0-9_$]*:/) return
  total++
  if (statement ~ /ld\.shared/) ls++
  if (statement ~ /st\.shared/) ss++
  if (statement ~ /ld\.global/) lg++
  if (statement ~ /st\.global/) sg++
  if (statement ~ /shfl\.sync/) sh++
  if (statement ~ /bar\.warp\.sync/) bw++
  else if (statement ~ /bar\.sync|barrier\.sync/) bs++
}
$0 ~ "^\\.(visible )?\\.entry " entry "\\(" { on = 1; next }
!on { next }
/^}/ { exit }
/^[[:space:]]*(\/\/|\.|\(|\)|$)/ { next }
/^[[:space:]]*\{/ {
  n = split($0, statements, ";")
  for (i = 1; i <= n; i++) count(statements[i])
  next
}
{ count($0) }
END { printf "%d %d %d %d %d %d %d %d\n", ls, ss, lg, sg, bs, bw, sh, total }
